import Configuration
import Foundation
import Logging
import SystemPackage

/// The server's settings: where it listens, which database it opens, how many connections it pools and how much
/// it logs.
///
/// Read by ``load(environment:configFile:defaultFile:workingDirectory:)`` through swift-configuration from two
/// layers, the first that has a key wins:
///
/// | key | environment variable | JSON file | default | accepted |
/// |---|---|---|---|---|
/// | `http.host` | `TODO_HTTP_HOST` | `{"http": {"host": …}}` | `127.0.0.1` | an address |
/// | `http.port` | `TODO_HTTP_PORT` | `{"http": {"port": …}}` | `8080` | 1 to 65535 |
/// | `database.path` | `TODO_DATABASE_PATH` | `{"database": {"path": …}}` | `todos.sqlite` | a file path |
/// | `database.poolSize` | `TODO_DATABASE_POOL_SIZE` | `{"database": {"poolSize": …}}` | `4` | 1 to 64 |
/// | `log.level` | `TODO_LOG_LEVEL` | `{"log": {"level": …}}` | `info` | `trace` … `critical` |
/// | `audit.batchSize` | `TODO_AUDIT_BATCH_SIZE` | `{"audit": {"batchSize": …}}` | `50` | 1 to 1000 |
///
/// The last one is not a field here: the ``AuditLog`` factory reads it from the container's properties (the
/// same reader, added as a property source through Assemblage's `Configuration` trait); it is checked here so
/// that a wrong value stops the server at start-up instead of being replaced by the default.
///
/// A value that is not of its key's kind or out of its range is a ``ConfigurationError`` whose message names the
/// variable (or the key and the file), the value and what is accepted; nothing falls back to a default silently.
/// (One conversion is swift-configuration's own: a JSON `true` or `false` reads as the number 1 or 0.)
///
/// The JSON file is `--config PATH` (``TodoServerCommandLine``), else `TODO_CONFIG_FILE`, else the example's own
/// `todo-server.json` (``exampleConfigurationFile``, found by where this package's sources are, whatever the
/// working directory). A relative `database.path` is relative to the folder of the file it was written in; one
/// from `TODO_DATABASE_PATH`, or any when there is no file, is relative to the working directory.
///
/// ```swift
/// let configuration = try await TodoServerConfiguration.load()   // the process's environment
/// ```
public struct TodoServerConfiguration: Sendable, Equatable {
    /// The address to bind.
    public var host: String
    /// The port to bind; 0 picks a free port (the tests and the load tester set it; the configuration
    /// accepts 1 to 65535).
    public var port: Int
    /// The SQLite database file; absolute once read from a configuration
    /// (``init(reader:configurationFile:environment:workingDirectory:)``).
    public var databasePath: String
    /// The number of pooled SQLite connections, 1 to 64.
    public var poolSize: Int
    /// The lowest level logged.
    public var logLevel: Logger.Level
    /// The JSON file the settings were read from, if one was.
    public var configurationFile: String?

    /// The ranges the integer settings accept.
    public static let portRange = 1...65_535
    /// The pool sizes accepted.
    public static let poolSizeRange = 1...64
    /// The audit batch sizes accepted: a batch is one SQLite statement, and a crash loses up to a batch.
    public static let auditBatchSizeRange = 1...1_000

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port to bind; 0 for any free port.
    ///   - databasePath: The SQLite database file.
    ///   - poolSize: The number of pooled connections.
    ///   - logLevel: The lowest level logged.
    ///   - configurationFile: The file the settings came from, for the start-up log.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, databasePath: String = "todos.sqlite",
        poolSize: Int = 4, logLevel: Logger.Level = .info, configurationFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.poolSize = poolSize
        self.logLevel = logLevel
        self.configurationFile = configurationFile
    }

    /// This example's own `todo-server.json`, beside its `Package.swift`: where the sources were compiled from,
    /// so `swift run --package-path Examples/TodoServer todo-server` finds it from any working directory. A
    /// binary copied away from its source tree has none; name a file with `--config` or `TODO_CONFIG_FILE`.
    public static let exampleConfigurationFile: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Configuration
        .deletingLastPathComponent()  // TodoServerCore
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("todo-server.json").path

    /// Reads the settings from the environment and the JSON file (see the table above).
    ///
    /// - Parameters:
    ///   - environment: The environment variables; the process's by default.
    ///   - configFile: The file `--config` named, which must exist; `nil` for `TODO_CONFIG_FILE`, else
    ///     `defaultFile`.
    ///   - defaultFile: The JSON file read when neither `--config` nor `TODO_CONFIG_FILE` names one, if it exists.
    ///   - workingDirectory: What relative paths from the command line and the environment are relative to.
    /// - Returns: The settings.
    /// - Throws: ``ConfigurationError`` for a value of the wrong kind or out of range, a named file that does not
    ///   exist or a file that is not JSON.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil,
        defaultFile: String = exampleConfigurationFile,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) async throws -> TodoServerConfiguration {
        try await loadWithReader(
            environment: environment, configFile: configFile, defaultFile: defaultFile,
            workingDirectory: workingDirectory
        ).configuration
    }

    /// ``load(environment:configFile:defaultFile:workingDirectory:)`` with the reader behind the settings, which
    /// the server's commands also hand to the container as its property source.
    ///
    /// - Throws: ``ConfigurationError`` as `load` does.
    public static func loadWithReader(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil,
        defaultFile: String = exampleConfigurationFile,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) async throws -> (configuration: TodoServerConfiguration, reader: ConfigReader) {
        let (reader, file) = try await makeReader(
            environment: environment, configFile: configFile,
            defaultFile: defaultFile, workingDirectory: workingDirectory)
        let configuration = try TodoServerConfiguration(
            reader: reader, configurationFile: file,
            environment: environment, workingDirectory: workingDirectory)
        return (configuration, reader)
    }

    /// The swift-configuration reader of the table above: the environment (`TODO_` variables) first, then the
    /// JSON file. ``TodoServerApplication`` also hands it to the container as a property source, so factories
    /// read further settings (`audit.batchSize`) with Assemblage's `property` API.
    ///
    /// ```swift
    /// let (reader, file) = try await TodoServerConfiguration.makeReader(configFile: commandLine.configFile)
    /// let configuration = try TodoServerConfiguration(reader: reader, configurationFile: file,
    ///                                                 environment: ProcessInfo.processInfo.environment)
    /// ```
    ///
    /// - Parameters:
    ///   - environment: The environment variables; the process's by default.
    ///   - configFile: The file `--config` named, which must exist; `nil` for `TODO_CONFIG_FILE`, else
    ///     `defaultFile`.
    ///   - defaultFile: The JSON file read when neither `--config` nor `TODO_CONFIG_FILE` names one, if it exists.
    ///   - workingDirectory: What a relative `configFile` or `TODO_CONFIG_FILE` is relative to.
    /// - Returns: The reader, and the absolute path of the JSON file it reads if there is one.
    /// - Throws: ``ConfigurationError`` for a named file that does not exist or a file that is not JSON.
    public static func makeReader(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil,
        defaultFile: String = exampleConfigurationFile,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) async throws -> (reader: ConfigReader, file: String?) {
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment)
            .prefixKeys(with: "todo")
        var file: String?
        if let configFile {
            file = absolute(configFile, relativeTo: workingDirectory)
            guard FileManager.default.fileExists(atPath: file!) else {
                throw ConfigurationError(key: "--config", message: "--config names \(file!), which does not exist.")
            }
        } else if let named = environment["TODO_CONFIG_FILE"], !named.isEmpty {
            file = absolute(named, relativeTo: workingDirectory)
            guard FileManager.default.fileExists(atPath: file!) else {
                throw ConfigurationError(
                    key: "TODO_CONFIG_FILE",
                    message: "TODO_CONFIG_FILE names \(file!), which does not exist.")
            }
        } else if FileManager.default.fileExists(atPath: defaultFile) {
            file = absolute(defaultFile, relativeTo: workingDirectory)
        }
        guard let file else { return (ConfigReader(provider: environmentProvider), nil) }
        do {
            let fileProvider = try await FileProvider<JSONSnapshot>(filePath: FilePath(file))
            return (ConfigReader(providers: [environmentProvider, fileProvider]), file)
        } catch {
            throw ConfigurationError(
                key: "configuration file",
                message: "\(file) is not a JSON object of settings (\(error)).")
        }
    }

    /// Reads the settings from a swift-configuration reader whose keys are those of the table above.
    ///
    /// - Parameters:
    ///   - reader: The reader.
    ///   - configurationFile: The file the reader's file layer came from, if any: a relative `database.path`
    ///     written there is relative to its folder, and messages name it.
    ///   - environment: The environment the reader's first layer came from: messages name the variable that
    ///     holds a wrong value, and a relative `TODO_DATABASE_PATH` is relative to the working directory.
    ///   - workingDirectory: What a relative path is relative to when it is not from the file.
    /// - Throws: ``ConfigurationError`` for a value of the wrong kind or out of range.
    public init(
        reader: ConfigReader, configurationFile: String? = nil, environment: [String: String] = [:],
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws {
        let defaults = TodoServerConfiguration()
        let settings = Settings(reader: reader, file: configurationFile, environment: environment)
        self.host = try settings.string("http.host", default: defaults.host)
        self.port = try settings.integer("http.port", default: defaults.port, in: Self.portRange)
        self.poolSize = try settings.integer("database.poolSize", default: defaults.poolSize, in: Self.poolSizeRange)
        _ = try settings.integer("audit.batchSize", default: AuditLog.defaultBatchSize, in: Self.auditBatchSizeRange)
        let level = try settings.string("log.level", default: defaults.logLevel.rawValue)
        guard let logLevel = Logger.Level(rawValue: level.lowercased()) else {
            throw settings.error(
                "log.level", value: "\"\(level)\"",
                accepts: "one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.logLevel = logLevel
        let path = try settings.string("database.path", default: defaults.databasePath)
        guard !path.isEmpty else {
            throw settings.error("database.path", value: "empty", accepts: "a file path")
        }
        // A path is relative to where it was written: the file's folder for the file's value (and for the
        // default, when there is a file), the working directory for the environment's.
        let fromEnvironment = environment[Settings.variable(for: "database.path")] != nil
        if let configurationFile, !fromEnvironment {
            let folder = (configurationFile as NSString).deletingLastPathComponent
            self.databasePath = Self.absolute(path, relativeTo: folder)
        } else {
            self.databasePath = Self.absolute(path, relativeTo: workingDirectory)
        }
        self.configurationFile = configurationFile
    }

    /// `path` made absolute against `directory` when it is relative, with `.` and `..` resolved.
    static func absolute(_ path: String, relativeTo directory: String) -> String {
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}

/// Typed reads of the settings that refuse a value of the wrong kind or range, naming where it came from.
private struct Settings {
    let reader: ConfigReader
    let file: String?
    let environment: [String: String]

    /// The environment variable of a key: `database.poolSize` is `TODO_DATABASE_POOL_SIZE`.
    static func variable(for key: String) -> String {
        var name = "TODO"
        for component in key.split(separator: ".") {
            name += "_"
            for character in component {
                if character.isUppercase { name += "_" }
                name += character.uppercased()
            }
        }
        return name
    }

    /// Where the value of `key` came from: its variable when the environment has it, else the key in the file.
    func source(of key: String) -> String {
        let variable = Self.variable(for: key)
        if environment[variable] != nil { return variable }
        if let file { return "\(key) in \(file)" }
        return key
    }

    func error(_ key: String, value: String, accepts: String) -> ConfigurationError {
        ConfigurationError(key: key, message: "\(source(of: key)) is \(value); \(key) takes \(accepts).")
    }

    func string(_ key: String, default defaultValue: String) throws -> String {
        if let value = reader.string(forKey: ConfigKey(key)) { return value }
        if let number = reader.double(forKey: ConfigKey(key)) {
            throw error(key, value: "\(number)", accepts: "a string")
        }
        return defaultValue
    }

    func integer(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        let accepts = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        let value: Int
        if let number = reader.int(forKey: ConfigKey(key)) {
            value = number
        } else if let text = reader.string(forKey: ConfigKey(key)) {
            // The environment's text that is not a number, or a JSON string (which may hold one).
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw error(key, value: "\"\(text)\"", accepts: accepts)
            }
            value = number
        } else if let number = reader.double(forKey: ConfigKey(key)) {
            throw error(key, value: "\(number)", accepts: accepts)
        } else if let list = reader.intArray(forKey: ConfigKey(key)) {
            throw error(key, value: "\(list)", accepts: accepts)
        } else if let list = reader.stringArray(forKey: ConfigKey(key)) {
            throw error(key, value: "\(list)", accepts: accepts)
        } else {
            return defaultValue
        }
        guard range.contains(value) else { throw error(key, value: "\(value)", accepts: accepts) }
        return value
    }
}

/// A setting the server cannot start with; the message names the variable or key (and file), the value and
/// what is accepted, on one line.
///
/// ```swift
/// // TODO_DATABASE_POOL_SIZE=lots →
/// // "TODO_DATABASE_POOL_SIZE is "lots"; database.poolSize takes a whole number from 1 to 64."
/// ```
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The key (or option, or variable) that is wrong.
    public let key: String
    /// What is wrong and what is accepted.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - key: The key, option or variable that is wrong.
    ///   - message: What is wrong and what is accepted.
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
