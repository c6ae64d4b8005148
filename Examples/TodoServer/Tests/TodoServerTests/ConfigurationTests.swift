import Foundation
import Logging
import Testing
import TodoServerCore

/// Settings from TODO_* environment variables over a JSON file, through swift-configuration.
@Suite struct ConfigurationTests {
    @Test func defaultsWithoutEnvironmentOrFile() async throws {
        let configuration = try await TodoServerConfiguration.load(environment: [:], arguments: ["todo-server"])
        #expect(configuration == TodoServerConfiguration(configurationFile: nil)
                || configuration.configurationFile == "todo-server.json")
        #expect(configuration.port == 8080 && configuration.poolSize == 4 && configuration.logLevel == .info)
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
        let overridden = try await TodoServerConfiguration.load(environment: environment, arguments: ["todo-server"])
        #expect(overridden.port == 9100 && overridden.poolSize == 8)
        #expect(overridden.host == "0.0.0.0" && overridden.databasePath == "/tmp/x.sqlite", "the rest from the file")
    }

    @Test func valuesOutOfRangeAreErrorsNamingTheKey() async throws {
        for (variable, value, key) in [("TODO_DATABASE_POOL_SIZE", "0", "database.poolSize"),
                                       ("TODO_HTTP_PORT", "70000", "http.port"),
                                       ("TODO_LOG_LEVEL", "loud", "log.level")] {
            await #expect {
                _ = try await TodoServerConfiguration.load(environment: [variable: value], arguments: [])
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
}
