import Assemblage
import AssemblageProperties
import Foundation
import Synchronization
import Testing

/// A flat key-path store that records what it was asked, as a swift-configuration reader would be asked.
private final class RecordingSource: PropertySource {
    let entries: [String: PropertyValue]
    let sourceDescription: String
    private let asked = Mutex<[String]>([])

    init(_ entries: [String: PropertyValue], description: String = "recording source") {
        self.entries = entries
        self.sourceDescription = description
    }

    /// `key as kind`, in the order asked.
    var requests: [String] { asked.withLock { $0 } }

    func value(atKeyPath keyPath: [String], as kind: PropertyValueKind) throws -> PropertyValue? {
        let key = keyPath.joined(separator: ".")
        asked.withLock { $0.append("\(key) as \(kind)") }
        return entries[key]
    }
}

private struct FailingSource: PropertySource {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "the vault is unreachable" }
    }
    var sourceDescription: String { "vault" }
    func value(atKeyPath keyPath: [String], as kind: PropertyValueKind) throws -> PropertyValue? {
        throw Unreachable()
    }
}

private struct DatabaseSettings: Decodable, Equatable {
    var host: String
    var port: Int
    var replicas: [String]?
}

private let defaults = DictionaryPropertyLoader(
    ["database": ["host": "localhost", "port": 5432], "timeout": 2.5], description: "defaults.json")

@Suite("Property sources: precedence")
struct PropertySourcePrecedenceTests {
    @Test func aSourceAddedLaterWinsOverTheLoadedValue() throws {
        var properties = try Properties(loader: defaults)
        properties.addSource(RecordingSource(["database.port": 6543]))
        #expect(properties.property("database.port", as: Int.self) == 6543)
        #expect(properties.property("database.host", as: String.self) == "localhost", "the source has none")
        #expect(properties.property("timeout", as: Double.self) == 2.5)
    }

    @Test func aLoaderAppliedLaterWinsOverTheSource() throws {
        var properties = Properties()
        properties.addSource(RecordingSource(["timeout": 9, "retries": 4]))
        try properties.merge(loader: defaults)
        #expect(properties.property("timeout", as: Double.self) == 2.5)
        #expect(properties.property("retries", as: Int.self) == 4, "keys the loader does not set still come through")
    }

    @Test func aLaterFileReplacingATopLevelKeyHidesTheSourceUnderIt() throws {
        var properties = Properties()
        properties.addSource(RecordingSource(["database.port": 1, "database.user": "u"]))
        try properties.merge(loader: defaults)
        #expect(properties.property("database.port", as: Int.self) == 5432)
        #expect(properties.property("database.user", as: String.self) == nil, "defaults replaced database whole")
    }

    @Test func aLaterEnvironmentOverrideWinsOverAnEarlierSourceForItsKeyOnly() throws {
        var properties = try Properties(loader: defaults)
        properties.addSource(RecordingSource(["database.host": "db", "database.port": 1]))
        try properties.merge(loader: EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_DATABASE_PORT": "2"]))
        #expect(properties.property("database.port", as: Int.self) == 2)
        #expect(properties.property("database.host", as: String.self) == "db")
        #expect(
            try properties.decodeProperties(DatabaseSettings.self, forKey: "database")
                == DatabaseSettings(host: "db", port: 2))
    }

    @Test func theNewestOfSeveralSourcesWins() throws {
        var properties = Properties()
        properties.addSource(RecordingSource(["a": 1, "b": 1], description: "first"))
        properties.addSource(RecordingSource(["a": 2], description: "second"))
        #expect(properties.property("a", as: Int.self) == 2)
        #expect(properties.property("b", as: Int.self) == 1)
        #expect(properties.source(forKey: "a") == "second")
        #expect(properties.source(forKey: "b") == "first")
        #expect(properties.sources == ["first", "second"])
    }

    @Test func sourcesAreNotAskedAboutValuesLoadedAfterThem() throws {
        let source = RecordingSource([:])
        var properties = Properties()
        properties.addSource(source)
        try properties.merge(loader: defaults)
        _ = properties.property("timeout", as: Double.self)
        #expect(source.requests.isEmpty)
    }

    @Test func mergingPropertiesKeepsTheOrderOfTheirLayers() throws {
        var bottom = try Properties(loader: defaults)
        bottom.addSource(RecordingSource(["timeout": 1], description: "bottom source"))
        var top = Properties()
        top.addSource(RecordingSource(["timeout": 3], description: "top source"))
        try top.merge(loader: DictionaryPropertyLoader(["database": ["host": "top"]], description: "top file"))
        let merged = bottom.merging(top)
        #expect(merged.property("timeout", as: Double.self) == 3)
        #expect(merged.property("database.host", as: String.self) == "top")
        #expect(merged.sources == ["defaults.json", "bottom source", "top source", "top file"])
    }

    @Test func aChildContainersSourceWinsOverItsParentsFile() throws {
        let parent = Container()
        try parent.applyPropertyLoader(defaults)
        let child = Container(parent: parent)
        child.addPropertySource(RecordingSource(["database.port": 7]))
        #expect(child.property("database.port", as: Int.self) == 7)
        #expect(
            try child.decodeProperties(DatabaseSettings.self, forKey: "database")
                == DatabaseSettings(host: "localhost", port: 7))
        #expect(parent.property("database.port", as: Int.self) == 5432)
    }

    @Test func anAssemblerAddsTheSourceToItsContainer() throws {
        let assembler = try Assembler([], propertyLoaders: [defaults])
        assembler.addPropertySource(RecordingSource(["timeout": 8]))
        #expect(assembler.resolver.property("timeout", as: Int.self) == 8)
    }

    @Test func propertiesWithASourceAreNotEmpty() {
        #expect(Properties().isEmpty)
        #expect(!Properties().addingSource(RecordingSource([:])).isEmpty)
    }
}

@Suite("Property sources: reads")
struct PropertySourceReadTests {
    @Test func readersAskForTheKindTheirTypeExpects() throws {
        let source = RecordingSource(["port": "80", "hosts": ["a"], "debug": true])
        let properties = Properties().addingSource(source)
        _ = properties.property("port", as: Int.self)
        _ = properties.property("hosts", as: [String].self)
        _ = properties.value(forKey: "debug")
        _ = properties.property("limits", as: [String: Int].self)
        #expect(
            source.requests == [
                "port as integer", "hosts as array of string", "debug as any",
                "limits as dictionary",
            ])
    }

    @Test func decodeAsksFieldByFieldWithEachFieldsKind() throws {
        let source = RecordingSource(["database.host": "db", "database.port": "6543", "database.replicas": ["r1"]])
        let properties = try Properties(loader: defaults).addingSource(source)
        #expect(
            try properties.decodeProperties(DatabaseSettings.self, forKey: "database")
                == DatabaseSettings(host: "db", port: 6543, replicas: ["r1"]))
        #expect(
            Set(source.requests) == [
                "database.host as string", "database.port as integer",
                "database.replicas as array of string",
            ])
    }

    @Test func decodeFindsAStructThatOnlyTheSourceHas() throws {
        let properties = Properties().addingSource(RecordingSource(["database.host": "db", "database.port": 1]))
        #expect(
            try properties.decodeProperties(DatabaseSettings.self, forKey: "database")
                == DatabaseSettings(host: "db", port: 1))
        struct Root: Decodable {
            var database: DatabaseSettings
            var cache: DatabaseSettings?
        }
        let root = try properties.decodeProperties(Root.self)
        #expect(root.database.host == "db")
        #expect(root.cache == nil, "an optional struct none of whose fields is found is absent")
    }

    @Test func decodeReportsAStructNothingHasAsMissing() throws {
        let properties = Properties().addingSource(RecordingSource([:], description: "empty source"))
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(DatabaseSettings.self, forKey: "database")
        }
        #expect(error.code == .missingKey)
        #expect(error.keyPath == "database")
        #expect(error.source == "properties from empty source")
    }

    @Test func decodeNamesTheMissingFieldOfAPartlyFoundStruct() throws {
        let properties = Properties().addingSource(RecordingSource(["database.host": "db"], description: "src"))
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(DatabaseSettings.self, forKey: "database")
        }
        #expect(error.code == .missingKey)
        #expect(error.keyPath == "database.port")
    }

    @Test func aMismatchNamesTheSourceAndTheKey() throws {
        let properties = try Properties(loader: defaults)
            .addingSource(RecordingSource(["database.port": true], description: "flags"))
        let required = try #require(throws: PropertyError.self) {
            try properties.requireProperty("database.port", as: Int.self)
        }
        #expect(required.description == #"Type mismatch in flags (key "database.port"): expected Int, found a bool"#)
        let decoded = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(DatabaseSettings.self, forKey: "database")
        }
        #expect(decoded.code == .typeMismatch)
        #expect(decoded.source == "flags")
        #expect(decoded.keyPath == "database.port")
    }

    @Test func aMismatchInsideAnArrayFromASourceNamesTheSource() throws {
        struct Ports: Decodable { var ports: [Int] }
        let properties = Properties().addingSource(RecordingSource(["cfg.ports": ["1", "x"]], description: "src"))
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Ports.self, forKey: "cfg")
        }
        #expect(error.code == .typeMismatch)
        #expect(error.keyPath == "cfg.ports[1]")
        #expect(error.source == "src")
    }

    @Test func aFailingSourceIsALoadFailureNamingItAndTheKey() throws {
        let properties = try Properties(loader: defaults).addingSource(FailingSource())
        #expect(properties.property("timeout", as: Double.self) == nil, "a non-throwing read sees no value")
        let required = try #require(throws: PropertyError.self) {
            try properties.requireProperty("timeout", as: Double.self)
        }
        #expect(required.code == .loadFailed)
        #expect(required.description == #"Loading failed in vault (key "timeout"): the vault is unreachable"#)
        #expect(required.underlyingError is FailingSource.Unreachable)
        let decoded = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(DatabaseSettings.self, forKey: "database")
        }
        #expect(decoded.code == .loadFailed)
        #expect(decoded.keyPath == "database.host")
    }

    @Test func aDictionaryReadSeesOnlyLoadedKeys() throws {
        let properties = try Properties(loader: defaults).addingSource(RecordingSource(["database.user": "u"]))
        #expect(
            properties.property("database", as: [String: PropertyValue].self)
                == ["host": "localhost", "port": 5432])
        #expect(properties.property("database.user", as: String.self) == "u")
    }

    @Test func factoriesReadTheSourceThroughTheResolver() throws {
        let container = Container()
        try container.applyPropertyLoader(defaults)
        container.addPropertySource(RecordingSource(["database.port": 1, "feature.enabled": "true"]))
        container.register(DatabaseSettings.self) { r in
            try r.decodeProperties(DatabaseSettings.self, forKey: "database")
        }
        container.register(Bool.self) { r in r.property("feature.enabled") ?? false }
        #expect(try container.require(DatabaseSettings.self) == DatabaseSettings(host: "localhost", port: 1))
        #expect(try container.require(Bool.self))
    }
}
