// todo-server: the todo API (see README.md). The load tester is its own command, todo-load-test, so that this
// one builds without an HTTP client or a TLS library.
import Assemblage
import Configuration
import Foundation
import Logging
import TodoServerCore

let arguments = CommandLine.arguments
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: todo-server [--config FILE]

        Serves the todo API (POST/GET /todos, GET/PATCH/DELETE /todos/:id; X-User names the user) with settings
        from TODO_* environment variables and a JSON file (--config, TODO_CONFIG_FILE, or ./todo-server.json).
        The load test is its own command: swift run -c release --package-path Examples/TodoServer todo-load-test
        """)
    exit(0)
}

let configuration: TodoServerConfiguration
let reader: ConfigReader
do {
    let made = try await TodoServerConfiguration.makeReader()
    reader = made.reader
    configuration = try TodoServerConfiguration(reader: reader, configurationFile: made.file)
} catch {
    FileHandle.standardError.write(Data("todo-server: \(error)\n".utf8))
    exit(2)
}

let logLevel = configuration.logLevel
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = logLevel
    return handler
}
var logger = Logger(label: "todo-server")
logger.logLevel = configuration.logLevel
// A scope's disposal failure that nothing can throw to (its request had already failed) is logged, not lost.
DisposalError.logUnhandledFailures(to: logger)
let server = TodoServerApplication(configuration: configuration, properties: reader, logger: logger)
do {
    let app = try await server.makeApplication()
    try await app.runService()
} catch {
    logger.critical("todo-server stopped", metadata: ["error": "\(error)"])
    exit(1)
}
