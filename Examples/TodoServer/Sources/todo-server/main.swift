// todo-server: the todo API (see README.md). The load tester is its own command, todo-load-test, so that this
// one builds without an HTTP client or a TLS library.
import Assemblage
import Configuration
import Foundation
import Logging
import TodoServerCore

/// Prints one line to standard error and exits: status 2 for a usage or configuration error.
func refuse(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("todo-server: \(message)\n".utf8))
    exit(status)
}

let commandLine: CommandLineOptions
do {
    commandLine = try CommandLineOptions.parse(
        Array(CommandLine.arguments.dropFirst()), command: "todo-server", values: ["--config": "FILE"],
        flags: ["--help", "-h"],
        moved: [
            "--load-test": "the load test is its own command: swift run -c release --package-path "
                + "Examples/TodoServer todo-load-test"
        ])
} catch {
    refuse(error.message)
}
if !commandLine.flags.isDisjoint(with: ["--help", "-h"]) {
    print(
        """
        usage: todo-server [--config FILE]

        Serves the todo API (POST/GET /todos, GET/PATCH/DELETE /todos/:id, GET /health; X-User names the user).
        Settings come from TODO_* environment variables over a JSON file: --config FILE, else the file
        TODO_CONFIG_FILE names, else the example's own todo-server.json:
          \(TodoServerConfiguration.exampleConfigurationFile)
        A relative database.path is relative to the folder of the file that sets it (TODO_DATABASE_PATH: to the
        working directory). A wrong option or setting stops the server with status 2 and a line that names it.

          TODO_HTTP_HOST           http.host          default 127.0.0.1
          TODO_HTTP_PORT           http.port          1 to 65535, default 8080
          TODO_DATABASE_PATH       database.path      default todos.sqlite beside the file
          TODO_DATABASE_POOL_SIZE  database.poolSize  1 to 64, default 4
          TODO_LOG_LEVEL           log.level          trace, debug, info, notice, warning, error, critical
          TODO_AUDIT_BATCH_SIZE    audit.batchSize    1 to 1000, default 50

        The load test: swift run -c release --package-path Examples/TodoServer todo-load-test --help
        """)
    exit(0)
}

let configuration: TodoServerConfiguration
let reader: ConfigReader
do {
    (configuration, reader) = try await TodoServerConfiguration.loadWithReader(
        configFile: commandLine.values["--config"])
} catch let error as ConfigurationError {
    refuse(error.message)
} catch {
    refuse("\(error)")
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
