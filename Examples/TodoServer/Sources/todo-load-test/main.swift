// todo-load-test: a bounded load run against a todo server started in this process on a free loopback port, with
// a fresh database in a temporary folder; it prints its figures and exits with 1 when anything failed.
import Configuration
import Foundation
import Logging
import TodoLoadTest
import TodoServerCore

let arguments = CommandLine.arguments
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: todo-load-test [--requests N] [--concurrency N] [--users N] [--config FILE]

        Starts the todo server on a free loopback port with a fresh database in a temporary folder, sends N
        requests (default 1000) N at a time (default 32), checks every response for isolation, shuts the server
        down, checks the disposals and prints the figures; it exits with 1 when anything failed.
        """)
    exit(0)
}

func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name) else { return value }
    guard index + 1 < arguments.count, let parsed = Int(arguments[index + 1]), parsed > 0 else {
        FileHandle.standardError.write(Data("\(name) needs a positive number\n".utf8))
        exit(2)
    }
    return parsed
}

var configuration: TodoServerConfiguration
let reader: ConfigReader
do {
    let made = try await TodoServerConfiguration.makeReader()
    reader = made.reader
    configuration = try TodoServerConfiguration(reader: reader, configurationFile: made.file)
} catch {
    FileHandle.standardError.write(Data("todo-load-test: \(error)\n".utf8))
    exit(2)
}

let requests = option("--requests", default: 1_000)
let concurrency = option("--concurrency", default: 32)
let users = option("--users", default: 64)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-load-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
configuration.host = "127.0.0.1"
configuration.port = 0
configuration.databasePath = folder.appendingPathComponent("todos.sqlite").path
var logger = Logger(label: "todo-load-test")
// Quiet by default (a line per request would slow the run down); TODO_LOG_LEVEL still applies when set.
logger.logLevel = ProcessInfo.processInfo.environment["TODO_LOG_LEVEL"] == nil ? .warning : configuration.logLevel
let recorder = RecordingDisposalObserver()
let server = TodoServerApplication(configuration: configuration, properties: reader, logger: logger) { container in
    container.register((any DisposalObserver).self) { _ in recorder }
}
print("load test: \(requests) requests, \(concurrency) at a time, \(users) users, pool of "
      + "\(configuration.poolSize) SQLite connections, on 127.0.0.1")
let report = try await server.serve { port in
    try await LoadTest.run(LoadTestOptions(port: port, requests: requests, concurrency: concurrency, users: users))
}
print(report)
// Every request's scope disposed its trace exactly once; shutdown disposed the audit log, then the pool.
let applicationDisposals = recorder.applicationDisposals
let traces = recorder.disposals.filter { $0.hasPrefix("RequestTrace ") }
let expectedTraces = Set((0..<requests).map { "RequestTrace load-\($0)" })
let cleanShutdown = applicationDisposals == ["AuditLog", "SQLiteConnectionPool"]
    && traces.count == requests && Set(traces) == expectedTraces
print("shutdown:     \(cleanShutdown ? "clean" : "NOT CLEAN"): \(traces.count) request scopes ended "
      + "(\(Set(traces).count) distinct), then disposed \(applicationDisposals.joined(separator: ", "))")
try? FileManager.default.removeItem(at: folder)   // not in a defer: exit() does not run it
exit(report.errors == 0 && report.isolationViolations == 0 && cleanShutdown ? 0 : 1)
