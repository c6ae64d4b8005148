#if Configuration
import Assemblage
import AssemblageProperties
import Configuration
import Foundation
import Testing

private struct ServerConfig: Decodable, Equatable {
    var host: String
    var port: Int
    var maxConnections: Int?
    var allowedOrigins: [String]?
}

private enum LogLevel: String, Decodable {
    case debug, info, error
}

private struct AppConfig: Decodable, Equatable {
    var server: ServerConfig
    var logLevel: LogLevel
    var tls: TLSConfig?
}

private struct TLSConfig: Decodable, Equatable {
    var certificate: String
}

/// A directory under the system's temporary directory, removed by `remove()`.
private struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("assemblage-config-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ text: String, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private func environmentReader(_ variables: [String: String]) -> ConfigReader {
    ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: variables))
}

@Suite("ConfigReader as a property source: providers")
struct ConfigReaderProviderTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func inMemoryValuesReadAsTypedProperties() throws {
        let reader = ConfigReader(
            provider: InMemoryProvider(
                name: "defaults",
                values: [
                    "server.host": "localhost", "server.port": 8080, "timeout": 2.5, "debug": true,
                    "hosts": .init(.stringArray(["a", "b"]), isSecret: false),
                ]))
        let properties = Properties().addingSource(ConfigReaderPropertySource(reader))
        #expect(properties.property("server.port", as: Int.self) == 8080)
        #expect(properties.property("server.host", as: String.self) == "localhost")
        #expect(properties.property("timeout", as: Double.self) == 2.5)
        #expect(properties.property("debug", as: Bool.self) == true)
        #expect(properties.property("hosts", as: [String].self) == ["a", "b"])
        #expect(properties.value(forKey: "server.port") == .integer(8080))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aValueHeldAsAnotherTypeConvertsByThePropertyRules() throws {
        let reader = ConfigReader(provider: InMemoryProvider(values: ["ratio": 5, "count": "12", "flag": true]))
        let properties = Properties().addingSource(ConfigReaderPropertySource(reader))
        #expect(properties.property("ratio", as: Double.self) == 5, "an int reads as Double")
        #expect(properties.property("count", as: Int.self) == 12, "a string reads as Int")
        #expect(properties.property("flag", as: Int.self) == nil, "a Boolean never reads as a number")
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func environmentVariablesReachNestedKeysAndCamelCaseFields() throws {
        let reader = environmentReader([
            "SERVER_HOST": "example.com", "SERVER_PORT": "9090", "SERVER_MAX_CONNECTIONS": "64",
            "SERVER_ALLOWED_ORIGINS": "https://a.example,https://b.example", "LOG_LEVEL": "debug",
        ])
        let properties = Properties().addingSource(ConfigReaderPropertySource(reader))
        #expect(properties.property("server.port", as: Int.self) == 9090)
        #expect(
            try properties.decodeProperties(ServerConfig.self, forKey: "server")
                == ServerConfig(
                    host: "example.com", port: 9090, maxConnections: 64,
                    allowedOrigins: ["https://a.example", "https://b.example"]))
        let app = try properties.decodeProperties(AppConfig.self)
        #expect(app.logLevel == .debug)
        #expect(app.tls == nil, "an optional struct none of whose fields is set is absent")
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func jsonFileProviderSuppliesNestedValues() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(
            """
            {"server": {"host": "json.example", "port": 80, "allowedOrigins": ["x"]},
             "logLevel": "info", "tls": {"certificate": "/etc/cert.pem"}}
            """, to: "config.json")
        let reader = ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: .init(path)))
        let properties = Properties().addingSource(ConfigReaderPropertySource(reader, description: "config.json"))
        #expect(properties.property("server.port", as: Int.self) == 80)
        #expect(
            try properties.decodeProperties(AppConfig.self)
                == AppConfig(
                    server: ServerConfig(host: "json.example", port: 80, allowedOrigins: ["x"]), logLevel: .info,
                    tls: TLSConfig(certificate: "/etc/cert.pem")))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func theReadersFirstProviderWins() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(#"{"server": {"host": "json.example", "port": 80}}"#, to: "config.json")
        let reader = ConfigReader(providers: [
            EnvironmentVariablesProvider(environmentVariables: ["SERVER_PORT": "9090"]),
            try await FileProvider<JSONSnapshot>(filePath: .init(path)),
        ])
        let properties = Properties().addingSource(ConfigReaderPropertySource(reader))
        #expect(
            try properties.decodeProperties(ServerConfig.self, forKey: "server")
                == ServerConfig(host: "json.example", port: 9090))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aScopedReaderAddsItsPrefix() throws {
        let reader = environmentReader(["MYAPP_SERVER_PORT": "1"]).scoped(to: "myapp")
        let properties = Properties().addingSource(ConfigReaderPropertySource(reader))
        #expect(properties.property("server.port", as: Int.self) == 1)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aSnapshotReaderWorksLikeTheReader() throws {
        let snapshot = environmentReader(["SERVER_PORT": "2"]).snapshot()
        let properties = Properties().addingSource(ConfigReaderPropertySource(snapshot))
        #expect(properties.property("server.port", as: Int.self) == 2)
        #expect(properties.sources == [snapshot.description])
    }
}

@Suite("ConfigReader as a property source: precedence and errors")
struct ConfigReaderPrecedenceTests {
    let defaults = JSONPropertyLoader(
        data: Data(#"{"server": {"host": "localhost", "port": 80}, "logLevel": "error"}"#.utf8),
        description: "defaults.json")

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func theReaderAddedAfterLoadersWinsKeyByKey() throws {
        let container = Container()
        try container.applyPropertyLoader(defaults)
        container.addPropertySource(environmentReader(["SERVER_PORT": "9090"]))
        #expect(container.property("server.port", as: Int.self) == 9090)
        #expect(
            try container.decodeProperties(ServerConfig.self, forKey: "server")
                == ServerConfig(host: "localhost", port: 9090))
        #expect(container.property("logLevel", as: String.self) == "error")
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aLoaderAppliedAfterTheReaderWins() throws {
        let container = Container()
        container.addPropertySource(environmentReader(["LOG_LEVEL": "debug", "FEATURE_X": "true"]))
        try container.applyPropertyLoader(defaults)
        #expect(container.property("logLevel", as: String.self) == "error")
        #expect(container.property("feature.x", as: Bool.self) == true)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func factoriesReadTheReaderThroughTheResolver() throws {
        let container = Container()
        try container.applyPropertyLoader(defaults)
        container.addPropertySource(environmentReader(["SERVER_PORT": "9090", "LOG_LEVEL": "info"]))
        container.register(AppConfig.self) { r in try r.decodeProperties(AppConfig.self) }
        container.register(Int.self, name: "port") { r in try r.requireProperty("server.port") }
        #expect(try container.require(AppConfig.self).server.port == 9090)
        #expect(try container.require(AppConfig.self).logLevel == .info)
        #expect(try container.require(Int.self, name: "port") == 9090)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aMalformedValueNamesTheReaderAndTheKey() throws {
        let reader = environmentReader(["SERVER_PORT": "eighty"])
        let source = ConfigReaderPropertySource(reader, description: "environment (swift-configuration)")
        let properties = try Properties(loader: defaults).addingSource(source)
        #expect(properties.property("server.port", as: Int.self) == nil)
        let required = try #require(throws: PropertyError.self) {
            try properties.requireProperty("server.port", as: Int.self)
        }
        #expect(required.code == .typeMismatch)
        #expect(
            required.description == #"Type mismatch in environment (swift-configuration) (key "server.port"): "#
                + "expected Int, found a string that does not convert to it")
        let decoded = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(ServerConfig.self, forKey: "server")
        }
        #expect(decoded.code == .typeMismatch)
        #expect(decoded.source == "environment (swift-configuration)")
        #expect(decoded.keyPath == "server.port")
        #expect(!decoded.description.contains("eighty"))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aValueOfTheWrongTypeInAProviderNamesWhatWasFound() throws {
        let reader = ConfigReader(provider: InMemoryProvider(name: "flags", values: ["server.port": true]))
        let properties = Properties().addingSource(ConfigReaderPropertySource(reader, description: "flags"))
        let error = try #require(throws: PropertyError.self) {
            try properties.requireProperty("server.port", as: Int.self)
        }
        #expect(error.description == #"Type mismatch in flags (key "server.port"): expected Int, found a bool"#)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aMissingKeyNamesTheKeyAndEverySource() throws {
        let reader = environmentReader([:])
        let source = ConfigReaderPropertySource(reader)
        let properties = try Properties(loader: defaults).addingSource(source)
        let error = try #require(throws: PropertyError.self) {
            try properties.requireProperty("database.url", as: String.self)
        }
        #expect(error.code == .missingKey)
        #expect(error.keyPath == "database.url")
        #expect(error.source == "properties from defaults.json, \(reader.description)")
        struct Database: Decodable { var url: String }
        let decoded = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Database.self, forKey: "database")
        }
        #expect(decoded.code == .missingKey)
        #expect(decoded.keyPath == "database")
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func theSourceDescribesItselfByTheReader() {
        let reader = environmentReader([:])
        #expect(ConfigReaderPropertySource(reader).sourceDescription == reader.description)
        #expect(ConfigReaderPropertySource(reader, description: "env").sourceDescription == "env")
    }
}
#endif
