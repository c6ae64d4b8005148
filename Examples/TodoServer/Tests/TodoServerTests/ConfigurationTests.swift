import Assemblage
import AssemblageProperties
import Configuration
import Foundation
import Logging
import Testing
import TodoServerCore

/// Settings from TODO_* environment variables over a JSON file, through swift-configuration.
@Suite struct ConfigurationTests {
    private static let noFile = "/nonexistent/todo-server.json"

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-config-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func defaultsWithoutEnvironmentOrFile() async throws {
        let configuration = try await TodoServerConfiguration.load(
            environment: [:], defaultFile: Self.noFile,
            workingDirectory: "/srv/todo")
        #expect(
            configuration
                == TodoServerConfiguration(
                    host: "127.0.0.1", port: 8080,
                    databasePath: "/srv/todo/todos.sqlite", poolSize: 4,
                    logLevel: .info, configurationFile: nil))
    }

    @Test func theEnvironmentOverridesTheFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("settings.json")
        try Data(
            #"{"http": {"port": 9000, "host": "localhost"}, "database": {"path": "/tmp/x.sqlite", "poolSize": 2}, "log": {"level": "debug"}}"#
                .utf8
        )
        .write(to: file)

        let fromFile = try await TodoServerConfiguration.load(environment: [:], configFile: file.path)
        #expect(
            fromFile
                == TodoServerConfiguration(
                    host: "localhost", port: 9000, databasePath: "/tmp/x.sqlite",
                    poolSize: 2, logLevel: .debug, configurationFile: file.path))

        let environment = ["TODO_CONFIG_FILE": file.path, "TODO_HTTP_PORT": "9100", "TODO_DATABASE_POOL_SIZE": "8"]
        let overridden = try await TodoServerConfiguration.load(environment: environment, defaultFile: Self.noFile)
        #expect(overridden.port == 9100 && overridden.poolSize == 8)
        #expect(overridden.host == "localhost" && overridden.databasePath == "/tmp/x.sqlite", "the rest from the file")
    }

    /// Each wrong value is refused with one line that names the variable, the value and what is accepted;
    /// none falls back to the default.
    @Test(arguments: [
        ("TODO_HTTP_PORT", "abc", "http.port", "1 to 65535"),
        ("TODO_HTTP_PORT", "0", "http.port", "1 to 65535"),
        ("TODO_HTTP_PORT", "70000", "http.port", "1 to 65535"),
        ("TODO_HTTP_PORT", "80.5", "http.port", "1 to 65535"),
        ("TODO_DATABASE_POOL_SIZE", "lots", "database.poolSize", "1 to 64"),
        ("TODO_DATABASE_POOL_SIZE", "0", "database.poolSize", "1 to 64"),
        ("TODO_DATABASE_POOL_SIZE", "65", "database.poolSize", "1 to 64"),
        ("TODO_AUDIT_BATCH_SIZE", "abc", "audit.batchSize", "1 to 1000"),
        ("TODO_AUDIT_BATCH_SIZE", "0", "audit.batchSize", "1 to 1000"),
        ("TODO_LOG_LEVEL", "loud", "log.level", "trace, debug"),
    ])
    func aWrongValueIsRefusedNamingTheVariableTheValueAndWhatIsAccepted(
        variable: String, value: String, key: String, accepted: String
    ) async throws {
        // A file that has a good value for every key: the environment's wrong value must not fall through to it.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("todo-server.json")
        let good =
            #"{"http": {"port": 8080}, "database": {"poolSize": 4}, "audit": {"batchSize": 50}, "#
            + #""log": {"level": "info"}}"#
        try Data(good.utf8).write(to: file)
        await #expect {
            _ = try await TodoServerConfiguration.load(environment: [variable: value], configFile: file.path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.key == key && error.message.hasPrefix("\(variable) is ") && error.message.contains(value)
                && error.message.contains(accepted) && !error.message.contains("\n")
        }
    }

    @Test func aWrongValueInTheFileNamesTheKeyAndTheFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (json, key, value) in [
            (#"{"http": {"port": "abc"}}"#, "http.port", #""abc""#),
            (#"{"database": {"poolSize": 2.5}}"#, "database.poolSize", "2.5"),
            (#"{"audit": {"batchSize": [1, 2]}}"#, "audit.batchSize", "[1, 2]"),
        ] {
            let file = folder.appendingPathComponent("todo-server.json")
            try Data(json.utf8).write(to: file)
            await #expect {
                _ = try await TodoServerConfiguration.load(environment: [:], configFile: file.path)
            } throws: { error in
                (error as? ConfigurationError)?.message.hasPrefix("\(key) in \(file.path) is \(value);") == true
            }
        }
        // A number in a JSON string is read as the number.
        try Data(#"{"http": {"port": "9001"}}"#.utf8).write(to: folder.appendingPathComponent("todo-server.json"))
        let configuration = try await TodoServerConfiguration.load(
            environment: [:], configFile: folder.appendingPathComponent("todo-server.json").path)
        #expect(configuration.port == 9001)
    }

    @Test func aNamedFileMustExistAndBeJSON() async throws {
        await #expect(
            throws: ConfigurationError(
                key: "--config",
                message: "--config names /nonexistent.json, which does not exist.")
        ) {
            _ = try await TodoServerConfiguration.load(environment: [:], configFile: "/nonexistent.json")
        }
        await #expect(throws: ConfigurationError.self) {
            _ = try await TodoServerConfiguration.load(environment: ["TODO_CONFIG_FILE": "/nonexistent.json"])
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.json")
        try Data("{ not json".utf8).write(to: file)
        await #expect {
            _ = try await TodoServerConfiguration.load(environment: [:], configFile: file.path)
        } throws: { error in
            (error as? ConfigurationError)?.message.hasPrefix("\(file.path) is not a JSON object") == true
        }
    }

    /// Without --config or TODO_CONFIG_FILE the example's own todo-server.json is read, from any working
    /// directory, and its relative database path is beside it (not in the working directory).
    @Test func theExampleFileIsFoundFromAnyWorkingDirectory() async throws {
        let example = TodoServerConfiguration.exampleConfigurationFile
        #expect(FileManager.default.fileExists(atPath: example), "\(example)")
        let packageDirectory = (example as NSString).deletingLastPathComponent
        #expect(FileManager.default.fileExists(atPath: packageDirectory + "/Package.swift"))
        for workingDirectory in ["/", "/tmp", packageDirectory + "/Sources"] {
            let configuration = try await TodoServerConfiguration.load(
                environment: [:],
                workingDirectory: workingDirectory)
            #expect(configuration.configurationFile == example)
            #expect(configuration.databasePath == packageDirectory + "/todos.sqlite")
        }
    }

    /// A relative database path is relative to where it was written: the file's folder, or for
    /// TODO_DATABASE_PATH the working directory.
    @Test func aRelativeDatabasePathIsRelativeToWhereItWasWritten() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("todo-server.json")
        try Data(#"{"database": {"path": "data/../data/todos.sqlite"}}"#.utf8).write(to: file)

        let fromFile = try await TodoServerConfiguration.load(
            environment: [:], configFile: file.path,
            workingDirectory: "/elsewhere")
        #expect(fromFile.databasePath == folder.appendingPathComponent("data/todos.sqlite").standardizedFileURL.path)

        let fromEnvironment = try await TodoServerConfiguration.load(
            environment: ["TODO_DATABASE_PATH": "mine.sqlite"], configFile: file.path, workingDirectory: "/elsewhere")
        #expect(fromEnvironment.databasePath == "/elsewhere/mine.sqlite")

        let relativeConfig = try await TodoServerConfiguration.load(
            environment: [:], configFile: "todo-server.json",
            workingDirectory: folder.path)
        #expect(relativeConfig.configurationFile == file.standardizedFileURL.path)
    }

    @Test func theCommandLineTakesOnlyItsOptions() throws {
        let values = ["--config": "FILE"]
        let flags = ["--help", "-h"]
        let parse = { (arguments: [String]) throws(UsageError) -> CommandLineOptions in
            try CommandLineOptions.parse(
                arguments, command: "todo-server", values: values, flags: flags,
                moved: ["--load-test": "use todo-load-test"])
        }
        #expect(try parse(["--config", "a.json"]).values == ["--config": "a.json"])
        #expect(try parse(["--config=a.json"]).values == ["--config": "a.json"])
        #expect(try parse(["-h"]).flags == ["-h"])
        #expect(throws: UsageError("unknown option --bogus; todo-server takes --config FILE, --help.")) {
            try parse(["--bogus"])
        }
        #expect(throws: UsageError("--config needs a value: --config FILE.")) { try parse(["--config"]) }
        #expect(throws: UsageError("--config needs a value: --config FILE.")) { try parse(["--config", "--help"]) }
        #expect(throws: UsageError("--config is given twice; give it once.")) {
            try parse(["--config", "a", "--config", "b"])
        }
        #expect(throws: UsageError(#"unexpected argument "serve"; todo-server takes --config FILE, --help."#)) {
            try parse(["serve"])
        }
        #expect(throws: UsageError("--load-test is no longer an option of todo-server; use todo-load-test.")) {
            try parse(["--load-test"])
        }
        let numbers = try CommandLineOptions.parse(
            ["--requests", "lots"], command: "todo-load-test",
            values: ["--requests": "N"], flags: [])
        #expect(throws: UsageError(#"--requests is "lots"; it takes a whole number from 1 to 10."#)) {
            try numbers.integer("--requests", in: 1...10, default: 5)
        }
    }

    /// The same reader reaches factories through Assemblage's property API (trait `Configuration`): the audit
    /// log's batch size comes from `TODO_AUDIT_BATCH_SIZE`.
    @Test func factoriesReadTheReaderThroughProperties() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = [
            "TODO_AUDIT_BATCH_SIZE": "3",
            "TODO_DATABASE_PATH": folder.appendingPathComponent("todos.sqlite").path,
        ]
        let (reader, file) = try await TodoServerConfiguration.makeReader(
            environment: environment,
            defaultFile: Self.noFile)
        #expect(file == nil)
        let configuration = try TodoServerConfiguration(reader: reader, environment: environment)
        let server = TodoServerApplication(
            configuration: configuration, properties: reader,
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
