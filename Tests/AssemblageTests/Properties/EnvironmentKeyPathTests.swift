import Assemblage
import AssemblageProperties
import Foundation
import Testing

/// A server section as an app decodes it.
private struct Server: Decodable, Equatable {
    var host: String
    var port: Int
}

private let serverFile = DictionaryPropertyLoader(
    ["server": ["host": "localhost", "port": 80, "maxConnections": 100], "name": "demo"],
    description: "settings.json")

private func environment(_ variables: [String: String]) -> EnvironmentPropertyLoader {
    EnvironmentPropertyLoader(prefix: "APP_", environment: variables)
}

@Suite("Environment variables map to key paths")
struct EnvironmentKeyMappingTests {
    struct Mapping: Sendable, CustomTestStringConvertible {
        var name: String
        var keyPath: String?
        var testDescription: String { name.isEmpty ? "(empty)" : name }
    }

    @Test(arguments: [
        Mapping(name: "PORT", keyPath: "port"),
        Mapping(name: "SERVER_PORT", keyPath: "server.port"),
        Mapping(name: "DB__POOL_SIZE", keyPath: "db_pool.size"),
        Mapping(name: "DB_POOL__SIZE", keyPath: "db.pool_size"),
        Mapping(name: "A___B", keyPath: "a_.b"),
        Mapping(name: "A____B", keyPath: "a__b"),
        Mapping(name: "__X", keyPath: "_x"),
        Mapping(name: "Server_MaxConnections", keyPath: "server.maxconnections"),
        Mapping(name: "LEVEL1_LEVEL2_LEVEL3", keyPath: "level1.level2.level3"),
        Mapping(name: "SERVER_", keyPath: nil),
        Mapping(name: "_SERVER", keyPath: nil),
        Mapping(name: "A__", keyPath: "a_"),
        Mapping(name: "A_B_", keyPath: nil),
        Mapping(name: "", keyPath: nil),
        Mapping(name: "_", keyPath: nil),
    ])
    func singleUnderscoreSeparatesAndDoubleUnderscoreKeepsOne(_ mapping: Mapping) {
        #expect(EnvironmentPropertyLoader.keyPath(forVariableName: mapping.name) == mapping.keyPath)
    }

    @Test func loaderReturnsKeyPathsAndSkipsNamesThatMapToNone() throws {
        let loader = environment([
            "APP_SERVER_PORT": "9090", "APP_DB__POOL_SIZE": "4", "APP_SERVER_": "x",
            "APP_": "y", "OTHER_PORT": "1",
        ])
        #expect(try loader.load() == ["server.port": "9090", "db_pool.size": "4"])
        #expect(loader.mergeBehavior == .overridingKeyPaths)
        #expect(loader.keyMapping == .keyPath)
    }

    @Test func verbatimMappingKeepsTheOldTopLevelKeys() throws {
        let loader = EnvironmentPropertyLoader(
            prefix: "APP_", environment: ["APP_SERVER_PORT": "9090"],
            keyMapping: .verbatim)
        #expect(try loader.load() == ["SERVER_PORT": "9090"])
        #expect(loader.mergeBehavior == .replacingTopLevelKeys)
        let properties = try Properties(loaders: [serverFile, loader])
        #expect(properties.property("SERVER_PORT", as: Int.self) == 9090)
        #expect(properties.property("server.port", as: Int.self) == 80, "verbatim keys do not reach nested values")
    }

    @Test func verbatimMappingLoadsAWholeEnvironmentWithoutClashes() throws {
        let loader = EnvironmentPropertyLoader(
            prefix: "", environment: ["TERM": "xterm", "TERM_PROGRAM": "x"],
            keyMapping: .verbatim)
        #expect(try loader.load() == ["TERM": "xterm", "TERM_PROGRAM": "x"])
    }

    @Test func twoVariablesForOneKeyPathAreADuplicateNamingBoth() throws {
        let loader = environment(["APP_SERVER_PORT": "1", "APP_server_port": "2"])
        let error = try #require(throws: PropertyError.self) { try loader.load() }
        #expect(error.code == .duplicateKey)
        #expect(error.keyPath == "server.port")
        #expect(error.source == #"environment variables with prefix "APP_""#)
        #expect(
            error.description == #"Duplicate key in environment variables with prefix "APP_" (key "server.port"): "#
                + "APP_SERVER_PORT and APP_server_port both map to this key path; remove one of them")
    }

    @Test func aValueAndAKeyInsideItConflictNamingBothVariables() throws {
        let loader = environment(["APP_DB": "postgres", "APP_DB_HOST": "localhost"])
        let error = try #require(throws: PropertyError.self) { try loader.load() }
        #expect(error.code == .conflictingKeys)
        #expect(error.keyPath == "db")
        #expect(
            error.description.hasPrefix(
                #"Conflicting keys in environment variables with prefix "APP_" (key "db"): APP_DB sets a value for "#
                    + #"this key, and APP_DB_HOST sets "db.host" inside it"#))
        #expect(!error.description.contains("postgres") && !error.description.contains("localhost"))
    }

    @Test func aClashFailsTheMergeAndChangesNothing() throws {
        var properties = try Properties(loader: serverFile)
        let before = properties.values
        #expect(throws: PropertyError.self) {
            try properties.merge(loaders: [
                environment(["APP_NAME": "x"]),
                environment(["APP_DB": "a", "APP_DB_HOST": "b"]),
            ])
        }
        #expect(properties.values == before)
        #expect(properties.sources == ["settings.json"])
    }
}

@Suite("Environment variables override nested values")
struct EnvironmentNestedOverrideTests {
    @Test func overridesOneNestedValueAndKeepsItsSiblings() throws {
        let properties = try Properties(loaders: [serverFile, environment(["APP_SERVER_PORT": "9090"])])
        #expect(properties.property("server.port", as: Int.self) == 9090)
        #expect(properties.property("server.host", as: String.self) == "localhost")
        #expect(properties.property("name", as: String.self) == "demo")
        #expect(try properties.decodeProperties(Server.self, forKey: "server") == Server(host: "localhost", port: 9090))
        #expect(properties.value(forKey: "server") == ["host": "localhost", "port": "9090", "maxConnections": 100])
    }

    @Test func jsonFileMergedWithTheEnvironmentDecodesTheOverride() throws {
        let json = JSONPropertyLoader(
            data: Data(#"{"server": {"port": 80, "host": "a"}}"#.utf8),
            description: "config.json")
        let properties = try Properties(loaders: [json, environment(["APP_SERVER_PORT": "9090"])])
        #expect(properties.property("server.port", as: Int.self) == 9090)
        #expect(try properties.decodeProperties(Server.self, forKey: "server").port == 9090)
        struct Root: Decodable { var server: Server }
        #expect(try properties.decodeProperties(Root.self).server == Server(host: "a", port: 9090))
    }

    @Test func resolverReadsTheOverrideInFactories() throws {
        let container = Container()
        try container.applyPropertyLoaders([serverFile, environment(["APP_SERVER_PORT": "9090"])])
        container.register(Int.self) { r in try r.requireProperty("server.port") }
        container.register(String.self) { r in
            let server = try r.decodeProperties(Server.self, forKey: "server")
            return "\(server.host):\(server.port)"
        }
        #expect(try container.require(Int.self) == 9090)
        #expect(try container.require(String.self) == "localhost:9090")
    }

    @Test func componentsMatchExistingKeysIgnoringCase() throws {
        let properties = try Properties(loaders: [serverFile, environment(["APP_SERVER_MAXCONNECTIONS": "5"])])
        #expect(properties.property("server.maxConnections", as: Int.self) == 5)
        #expect(properties.property("server.maxconnections", as: Int.self) == nil, "no second key is added")
    }

    @Test func missingDictionariesAreCreated() throws {
        let properties = try Properties(loaders: [serverFile, environment(["APP_CACHE_REDIS_URL": "redis://r"])])
        #expect(properties.property("cache.redis.url", as: String.self) == "redis://r")
        #expect(properties.value(forKey: "cache") == ["redis": ["url": "redis://r"]])
    }

    @Test func aScalarOnTheWayIsReplacedByTheLaterDictionary() throws {
        let file = DictionaryPropertyLoader(["server": "localhost:80"], description: "settings.json")
        let properties = try Properties(loaders: [file, environment(["APP_SERVER_PORT": "9090"])])
        #expect(properties.value(forKey: "server") == ["port": "9090"])
    }

    @Test func aLaterFileReplacesTheOverriddenDictionaryWhole() throws {
        let later = DictionaryPropertyLoader(["server": ["host": "h2"]], description: "later.json")
        let properties = try Properties(loaders: [serverFile, environment(["APP_SERVER_PORT": "9090"]), later])
        #expect(properties.property("server.port", as: Int.self) == nil, "the file replaced server whole")
        #expect(properties.property("server.host", as: String.self) == "h2")
    }

    @Test func sourceForKeyNamesTheLayerThatSetTheNestedValue() throws {
        let env = environment(["APP_SERVER_PORT": "9090"])
        let properties = try Properties(loaders: [serverFile, env])
        #expect(properties.source(forKey: "server.port") == env.sourceDescription)
        #expect(properties.source(forKey: "server.host") == "settings.json")
        #expect(properties.source(forKey: "server.absent") == nil)
    }

    @Test func malformedOverrideNamesTheEnvironmentAndTheKey() throws {
        let env = environment(["APP_SERVER_PORT": "eighty"])
        let properties = try Properties(loaders: [serverFile, env])
        #expect(properties.property("server.port", as: Int.self) == nil)
        let required = try #require(throws: PropertyError.self) {
            try properties.requireProperty("server.port", as: Int.self)
        }
        #expect(required.code == .typeMismatch)
        #expect(required.source == env.sourceDescription)
        #expect(required.keyPath == "server.port")
        #expect(
            required.description == #"Type mismatch in environment variables with prefix "APP_" "#
                + #"(key "server.port"): expected Int, found a string that does not convert to it"#)
        #expect(!required.description.contains("eighty"))

        let decoded = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Server.self, forKey: "server")
        }
        #expect(decoded.code == .typeMismatch)
        #expect(decoded.source == env.sourceDescription, "the override's source, not the file's")
        #expect(decoded.keyPath == "server.port")

        struct Root: Decodable { var server: Server }
        let fromRoot = try #require(throws: PropertyError.self) { try properties.decodeProperties(Root.self) }
        #expect(fromRoot.source == env.sourceDescription)
        #expect(fromRoot.keyPath == "server.port")
    }

    @Test func childContainerOverridesANestedValueOfItsParent() throws {
        let parent = Container()
        try parent.applyPropertyLoader(serverFile)
        let child = Container(parent: parent)
        try child.applyPropertyLoader(environment(["APP_SERVER_PORT": "9090", "APP_SERVER_MAXCONNECTIONS": "7"]))
        #expect(child.property("server.port", as: Int.self) == 9090)
        #expect(child.property("server.host", as: String.self) == "localhost", "the parent's sibling is kept")
        #expect(child.property("server.maxConnections", as: Int.self) == 7, "matched ignoring case across containers")
        #expect(parent.property("server.port", as: Int.self) == 80)
    }

    @Test func mergeIsTheSameInOneStepOrInTwo() throws {
        let env = environment(["APP_SERVER_PORT": "9090", "APP_NAME": "x"])
        let later = DictionaryPropertyLoader(["name": "y"], description: "later")
        let oneStep = try Properties(loaders: [serverFile, env, later])
        let twoSteps = try Properties(loader: serverFile).merging(try Properties(loaders: [env, later]))
        #expect(oneStep.values == twoSteps.values)
        #expect(oneStep.sources == twoSteps.sources)
        #expect(twoSteps.property("server.port", as: Int.self) == 9090)
        #expect(twoSteps.property("name", as: String.self) == "y")
    }
}

/// A custom loader whose keys are key paths.
private struct KeyPathLoader: PropertyLoader {
    var values: [String: PropertyValue]
    var sourceDescription: String { "key-path loader" }
    var mergeBehavior: PropertyMergeBehavior { .overridingKeyPaths }
    func load() throws -> [String: PropertyValue] { values }
}

@Suite("Loaders whose keys are key paths")
struct KeyPathLoaderTests {
    @Test func aCustomLoaderOverridesNestedValues() throws {
        let properties = try Properties(loaders: [serverFile, KeyPathLoader(values: ["server.port": 1])])
        #expect(try properties.decodeProperties(Server.self, forKey: "server") == Server(host: "localhost", port: 1))
    }

    @Test func anEmptyComponentIsAnInvalidKey() throws {
        let error = try #require(throws: PropertyError.self) {
            try Properties(loader: KeyPathLoader(values: ["server..port": 1]))
        }
        #expect(error.code == .invalidKey)
        #expect(
            error.description == #"Invalid key in key-path loader (key "server..port"): "#
                + "a key path has an empty component")
    }

    @Test func keysDifferingOnlyInCaseAreDuplicates() throws {
        let error = try #require(throws: PropertyError.self) {
            try Properties(loader: KeyPathLoader(values: ["server.Port": 1, "server.port": 2]))
        }
        #expect(error.code == .duplicateKey)
    }

    @Test func aValueAndAKeyInsideItConflict() throws {
        let error = try #require(throws: PropertyError.self) {
            try Properties(loader: KeyPathLoader(values: ["db": "x", "DB.host": "y"]))
        }
        #expect(error.code == .conflictingKeys)
        #expect(error.keyPath == "db")
    }

    @Test func aDottedTopLevelKeyFromAFileAndTheSamePathFromTheEnvironment() throws {
        // The file has a literal top-level key "server.port"; the later environment layer wins when reading it.
        let file = DictionaryPropertyLoader(["server.port": 80], description: "flat.json")
        let properties = try Properties(loaders: [file, environment(["APP_SERVER_PORT": "9090"])])
        #expect(properties.property("server.port", as: Int.self) == 9090)
        let reversed = try Properties(loaders: [environment(["APP_SERVER_PORT": "9090"]), file])
        #expect(reversed.property("server.port", as: Int.self) == 80)
    }
}
