import Configuration
import Foundation
import Logging
import SystemPackage

/// The server's settings: where it listens, which database it opens, how many connections it pools and how much
/// it logs.
///
/// Read by ``load(environment:arguments:)`` through swift-configuration from two layers, the first that has a
/// key wins:
///
/// | key | environment variable | JSON file | default |
/// |---|---|---|---|
/// | `http.host` | `TODO_HTTP_HOST` | `{"http": {"host": …}}` | `127.0.0.1` |
/// | `http.port` | `TODO_HTTP_PORT` | `{"http": {"port": …}}` | `8080` |
/// | `database.path` | `TODO_DATABASE_PATH` | `{"database": {"path": …}}` | `todos.sqlite` |
/// | `database.poolSize` | `TODO_DATABASE_POOL_SIZE` | `{"database": {"poolSize": …}}` | `4` |
/// | `log.level` | `TODO_LOG_LEVEL` | `{"log": {"level": …}}` | `info` |
/// | `audit.batchSize` | `TODO_AUDIT_BATCH_SIZE` | `{"audit": {"batchSize": …}}` | `50` |
///
/// The last one is not a field here: the ``AuditLog`` factory reads it from the container's properties (the
/// same reader, added as a property source through Assemblage's `Configuration` trait).
///
/// The JSON file is `--config PATH`, else `TODO_CONFIG_FILE`, else `todo-server.json` in the working directory
/// when it exists.
///
/// ```swift
/// let configuration = try await TodoServerConfiguration.load()   // the process's environment and arguments
/// ```
public struct TodoServerConfiguration: Sendable, Equatable {
    /// The address to bind.
    public var host: String
    /// The port to bind; 0 picks a free port (tests do that).
    public var port: Int
    /// The SQLite database file.
    public var databasePath: String
    /// The number of pooled SQLite connections, 1 to 64.
    public var poolSize: Int
    /// The lowest level logged.
    public var logLevel: Logger.Level
    /// The JSON file the settings were read from, if one was.
    public var configurationFile: String?

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port to bind; 0 for any free port.
    ///   - databasePath: The SQLite database file.
    ///   - poolSize: The number of pooled connections.
    ///   - logLevel: The lowest level logged.
    ///   - configurationFile: The file the settings came from, for the start-up log.
    public init(host: String = "127.0.0.1", port: Int = 8080, databasePath: String = "todos.sqlite",
                poolSize: Int = 4, logLevel: Logger.Level = .info, configurationFile: String? = nil) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.poolSize = poolSize
        self.logLevel = logLevel
        self.configurationFile = configurationFile
    }

    /// Reads the settings from the environment and the JSON file (see the table above).
    ///
    /// - Parameters:
    ///   - environment: The environment variables; the process's by default.
    ///   - arguments: The command-line arguments (`--config PATH` names the JSON file); the process's by default.
    ///   - defaultFile: The JSON file read when neither `--config` nor `TODO_CONFIG_FILE` names one, if it exists.
    /// - Returns: The settings.
    /// - Throws: ``ConfigurationError`` for a value out of range or a named file that does not exist, and
    ///   swift-configuration's errors for a file that is not valid JSON or a value of the wrong type.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = CommandLine.arguments,
        defaultFile: String = "todo-server.json"
    ) async throws -> TodoServerConfiguration {
        let (reader, file) = try await makeReader(environment: environment, arguments: arguments,
                                                  defaultFile: defaultFile)
        return try TodoServerConfiguration(reader: reader, configurationFile: file)
    }

    /// The swift-configuration reader of the table above: the environment (`TODO_` variables) first, then the
    /// JSON file. ``TodoServerApplication`` also hands it to the container as a property source, so factories
    /// read further settings (`audit.batchSize`) with Assemblage's `property` API.
    ///
    /// ```swift
    /// let (reader, file) = try await TodoServerConfiguration.makeReader()
    /// let configuration = try TodoServerConfiguration(reader: reader, configurationFile: file)
    /// ```
    ///
    /// - Parameters:
    ///   - environment: The environment variables; the process's by default.
    ///   - arguments: The command-line arguments (`--config PATH` names the JSON file); the process's by default.
    ///   - defaultFile: The JSON file read when neither `--config` nor `TODO_CONFIG_FILE` names one, if it exists.
    /// - Returns: The reader, and the JSON file it reads if there is one.
    /// - Throws: ``ConfigurationError`` for a named file that does not exist, and swift-configuration's errors
    ///   for a file that is not valid JSON.
    public static func makeReader(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = CommandLine.arguments,
        defaultFile: String = "todo-server.json"
    ) async throws -> (reader: ConfigReader, file: String?) {
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment)
            .prefixKeys(with: "todo")
        let file: String?
        if let index = arguments.firstIndex(of: "--config") {
            guard index + 1 < arguments.count else {
                throw ConfigurationError(key: "--config", message: "--config needs a file path after it.")
            }
            file = arguments[index + 1]
        } else {
            file = environment["TODO_CONFIG_FILE"]
        }
        let filePath = file ?? defaultFile
        let exists = FileManager.default.fileExists(atPath: filePath)
        if file != nil, !exists {
            throw ConfigurationError(key: "configuration file", message: "No configuration file at \(filePath).")
        }
        let fileProvider = try await FileProvider<JSONSnapshot>(filePath: FilePath(filePath), allowMissing: true)
        return (ConfigReader(providers: [environmentProvider, fileProvider]), exists ? filePath : nil)
    }

    /// Reads the settings from a swift-configuration reader whose keys are those of the table above.
    ///
    /// - Parameters:
    ///   - reader: The reader.
    ///   - configurationFile: The file the reader's file layer came from, if any.
    /// - Throws: ``ConfigurationError`` for a value out of range.
    public init(reader: ConfigReader, configurationFile: String? = nil) throws {
        let defaults = TodoServerConfiguration()
        self.host = reader.string(forKey: "http.host", default: defaults.host)
        self.port = reader.int(forKey: "http.port", default: defaults.port)
        self.databasePath = reader.string(forKey: "database.path", default: defaults.databasePath)
        self.poolSize = reader.int(forKey: "database.poolSize", default: defaults.poolSize)
        let level = reader.string(forKey: "log.level", default: defaults.logLevel.rawValue)
        guard let logLevel = Logger.Level(rawValue: level.lowercased()) else {
            throw ConfigurationError(key: "log.level", message: "log.level is \"\(level)\"; use one of "
                + Logger.Level.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        self.logLevel = logLevel
        self.configurationFile = configurationFile
        guard (0...65_535).contains(port) else {
            throw ConfigurationError(key: "http.port", message: "http.port is \(port); use 0 to 65535.")
        }
        guard (1...64).contains(poolSize) else {
            throw ConfigurationError(key: "database.poolSize", message: "database.poolSize is \(poolSize); use 1 to 64.")
        }
        guard !databasePath.isEmpty else {
            throw ConfigurationError(key: "database.path", message: "database.path is empty; name a file.")
        }
    }
}

/// A setting the server cannot start with; the message names the key and the values it accepts.
///
/// ```swift
/// // TODO_DATABASE_POOL_SIZE=0 → "database.poolSize is 0; use 1 to 64."
/// ```
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The key (or option) that is wrong.
    public let key: String
    /// What is wrong and what to do.
    public let message: String

    /// The message.
    public var description: String { message }
}
