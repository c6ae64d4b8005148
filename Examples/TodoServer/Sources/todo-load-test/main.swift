// todo-load-test: a bounded load run against a todo server started in this process on a free loopback port, with
// a fresh database in a temporary folder; it prints its figures and exits with 1 when anything failed.
import Configuration
import Foundation
import Logging
import TodoLoadTest
import TodoServerCore

/// Prints one line to standard error and exits: status 2 for a usage or configuration error.
func refuse(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("todo-load-test: \(message)\n".utf8))
    exit(status)
}

let commandLine: CommandLineOptions
let requests: Int
let concurrency: Int
let users: Int
do {
    commandLine = try CommandLineOptions.parse(
        Array(CommandLine.arguments.dropFirst()), command: "todo-load-test",
        values: ["--requests": "N", "--concurrency": "N", "--users": "N", "--config": "FILE"], flags: ["--help", "-h"])
    requests = try commandLine.integer("--requests", in: 1...1_000_000, default: 1_000)
    concurrency = try commandLine.integer("--concurrency", in: 1...1_024, default: 32)
    users = try commandLine.integer("--users", in: 1...1_000_000, default: 64)
} catch {
    refuse(error.message)
}
if !commandLine.flags.isDisjoint(with: ["--help", "-h"]) {
    print(
        """
        usage: todo-load-test [--requests N] [--concurrency N] [--users N] [--config FILE]

        Starts the todo server in this process on a free port of 127.0.0.1 with a fresh database in a temporary
        folder (the pool size, audit batch size and log level from the settings, as todo-server reads them),
        sends N requests (default 1000), N at a time (default 32), from N users (default 64), half POST /todos
        and half GET /todos; checks every response for isolation (its request id, user and todos are its own),
        shuts the server down, checks the disposals and prints the figures. Exits with 1 when anything failed.
        Bounded: each request times out after 30 s, and after 120 s nothing more is sent.
        """)
    exit(0)
}

var configuration: TodoServerConfiguration
let reader: ConfigReader
do {
    (configuration, reader) = try await TodoServerConfiguration.loadWithReader(
        configFile: commandLine.values["--config"])
} catch let error as ConfigurationError {
    refuse(error.message)
} catch {
    refuse("\(error)")
}

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
print(
    "load test: \(requests) requests, \(concurrency) at a time, \(users) users, pool of "
        + "\(configuration.poolSize) SQLite connections, on 127.0.0.1")
let report = try await server.serve { port in
    try await LoadTest.run(LoadTestOptions(port: port, requests: requests, concurrency: concurrency, users: users))
}
print(report)
// Every request's scope disposed its trace exactly once; shutdown disposed the audit log, then the pool.
let applicationDisposals = recorder.applicationDisposals
let traces = recorder.disposals.filter { $0.hasPrefix("RequestTrace ") }
let expectedTraces = Set((0..<requests).map { "RequestTrace load-\($0)" })
let cleanShutdown =
    applicationDisposals == ["AuditLog", "SQLiteConnectionPool"]
    && traces.count == requests && Set(traces) == expectedTraces
print(
    "shutdown:     \(cleanShutdown ? "clean" : "NOT CLEAN"): \(traces.count) request scopes ended "
        + "(\(Set(traces).count) distinct), then disposed \(applicationDisposals.joined(separator: ", "))")
try? FileManager.default.removeItem(at: folder)  // not in a defer: exit() does not run it
exit(report.errors == 0 && report.isolationViolations == 0 && cleanShutdown ? 0 : 1)
