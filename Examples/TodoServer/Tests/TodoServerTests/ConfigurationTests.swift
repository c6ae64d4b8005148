import Assemblage
import Configuration
import Foundation
import Logging
import Testing
import TodoServerCore

/// Settings from TODO_* environment variables over a JSON file, through swift-configuration.
@Suite struct ConfigurationTests {
    @Test func defaultsWithoutEnvironmentOrFile() async throws {
        let configuration = try await TodoServerConfiguration.load(environment: [:], arguments: ["todo-server"],
                                                                   defaultFile: "/nonexistent/todo-server.json")
        #expect(configuration == TodoServerConfiguration(host: "127.0.0.1", port: 8080, databasePath: "todos.sqlite",
                                                         poolSize: 4, logLevel: .info, configurationFile: nil))
    }

    @Test func theEnvironmentOverridesTheFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("todo-config-\(UUID()).json")
        try Data(#"{"http": {"port": 9000, "host": "0.0.0.0"}, "database": {"path": "/tmp/x.sqlite", "poolSize": 2}, "log": {"level": "debug"}}"#.utf8)
            .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let fromFile = try await TodoServerConfiguration.load(environment: [:],
                                                              arguments: ["todo-server", "--config", file.path])
        #expect(fromFile == TodoServerConfiguration(host: "0.0.0.0", port: 9000, databasePath: "/tmp/x.sqlite",
                                                    poolSize: 2, logLevel: .debug, configurationFile: file.path))

        let environment = ["TODO_CONFIG_FILE": file.path, "TODO_HTTP_PORT": "9100", "TODO_DATABASE_POOL_SIZE": "8"]
        let overridden = try await TodoServerConfiguration.load(environment: environment, arguments: ["todo-server"],
                                                                defaultFile: "/nonexistent/todo-server.json")
        #expect(overridden.port == 9100 && overridden.poolSize == 8)
        #expect(overridden.host == "0.0.0.0" && overridden.databasePath == "/tmp/x.sqlite", "the rest from the file")
    }

    @Test func valuesOutOfRangeAreErrorsNamingTheKey() async throws {
        for (variable, value, key) in [("TODO_DATABASE_POOL_SIZE", "0", "database.poolSize"),
                                       ("TODO_HTTP_PORT", "70000", "http.port"),
                                       ("TODO_LOG_LEVEL", "loud", "log.level")] {
            await #expect {
                _ = try await TodoServerConfiguration.load(environment: [variable: value], arguments: [],
                                                           defaultFile: "/nonexistent/todo-server.json")
            } throws: { error in
                (error as? ConfigurationError)?.key == key
            }
        }
    }

    @Test func aNamedFileMustExist() async throws {
        await #expect(throws: ConfigurationError.self) {
            _ = try await TodoServerConfiguration.load(environment: [:],
                                                       arguments: ["todo-server", "--config", "/nonexistent.json"])
        }
    }

    /// The same reader reaches factories through Assemblage's property API (trait `Configuration`): the audit
    /// log's batch size comes from `TODO_AUDIT_BATCH_SIZE`.
    @Test func factoriesReadTheReaderThroughProperties() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-config-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["TODO_AUDIT_BATCH_SIZE": "3",
                           "TODO_DATABASE_PATH": folder.appendingPathComponent("todos.sqlite").path]
        let (reader, file) = try await TodoServerConfiguration.makeReader(
            environment: environment, arguments: [], defaultFile: "/nonexistent/todo-server.json")
        #expect(file == nil)
        let configuration = try TodoServerConfiguration(reader: reader)
        let server = TodoServerApplication(configuration: configuration, properties: reader,
                                           logger: Logger(label: "test"))
        #expect(server.container.property("audit.batchSize", as: Int.self) == 3)
        let audit = try await server.container.resolveAsync(AuditLog.self)
        #expect(audit.batchSize == 3)
        try await server.container.shutdown()

        let withoutProperties = TodoServerApplication(configuration: configuration, logger: Logger(label: "test"))
        #expect(try await withoutProperties.container.resolveAsync(AuditLog.self).batchSize == 50)
        try await withoutProperties.container.shutdown()
    }
}
