#if Configuration
public import Assemblage
public import Configuration
import Foundation

/// A ``PropertySource`` backed by a swift-configuration `ConfigReader` (package trait `Configuration`).
///
/// Configuration that a `ConfigReader` reads from its providers — environment variables, JSON, YAML and
/// property-list files, command-line arguments, in-memory values, providers of your own — reaches factories
/// through the same `Resolver.property(_:as:)`, `Resolver.requireProperty(_:as:)` and
/// `Resolver.decodeProperties(_:forKey:)` calls as loaded properties. Keys are the reader's: the property
/// `server.port` is the `ConfigKey` `["server", "port"]`, which `EnvironmentVariablesProvider` reads from
/// `SERVER_PORT` and a JSON provider from `{"server": {"port": …}}`. A reader scoped with `scoped(to:)` adds
/// its prefix as usual.
///
/// ```swift
/// let reader = ConfigReader(providers: [
///     EnvironmentVariablesProvider(),                                   // first: wins
///     try await FileProvider<JSONSnapshot>(filePath: "/etc/app/config.json"),
/// ])
/// let container = Container()
/// container.addPropertySource(reader)
/// container.register(Server.self) { r in
///     Server(config: try r.decodeProperties(ServerConfig.self, forKey: "server"))
/// }
/// ```
///
/// **Precedence.** Within the reader, its providers' order decides, as swift-configuration documents (the
/// first provider that has a value wins). Against Assemblage's own loaders, the source is one layer: what is
/// added later wins, key by key (see ``PropertySource``).
///
/// **Types.** A reader looks values up by type. The source asks first for the type the reader of the property
/// expects (`.int` for `Int`, `.stringArray` for `[String]`, `.string` for `String`, `Date` and `URL`, `.double`
/// for `Double`, `Float` and `Decimal`, `.bytes` for `Data`) and, when that finds nothing, for the other types
/// in turn (string, int, double, bool, the arrays, bytes): a value the provider holds as another type is then
/// converted by the rules of ``PropertyValue`` (an in-memory `.int(5)` reads as `Double` 5), and one that does
/// not convert is a `typeMismatch` that names the key and this source. A key that is
/// missing thus costs up to ten lookups in the reader (and ten events for its access reporter).
///
/// **Limits.** A reader cannot list its keys: a property read as a dictionary (`[String: Int]`) sees only
/// loaded values, and `decodeProperties` asks for a struct's fields one by one (a nested struct is present when
/// one of its fields is found). Arrays of scalars are read whole (`.stringArray`, …); arrays of structs are not
/// supported by swift-configuration. Reading never throws from the reader: a value that a provider cannot
/// convert to any type counts as missing (the reader's access reporter sees the provider's error).
///
/// Both `ConfigReader` and `ConfigSnapshotReader` are supported: with a reader, each property read consults
/// the providers as they are then (a reloading provider's new values are seen); with a snapshot, every read
/// sees the values of one moment.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct ConfigReaderPropertySource: PropertySource {
    private let reader: any ConfigLookupReader

    /// The description given at creation, or the reader's own (`ConfigReader[providers: …]`).
    ///
    /// Error messages name it as the source of the values the reader supplied.
    ///
    /// ```swift
    /// ConfigReaderPropertySource(reader, description: "app configuration").sourceDescription
    /// // "app configuration"
    /// ```
    public let sourceDescription: String

    /// Creates a source that asks `reader` whenever a property is read.
    ///
    /// ```swift
    /// let source = ConfigReaderPropertySource(ConfigReader(provider: EnvironmentVariablesProvider()))
    /// container.addPropertySource(source)
    /// ```
    ///
    /// - Parameters:
    ///   - reader: The reader; its providers' order is its precedence.
    ///   - description: A name for error messages; the reader's description when `nil`.
    public init(_ reader: ConfigReader, description: String? = nil) {
        self.reader = reader
        self.sourceDescription = description ?? reader.description
    }

    /// Creates a source that reads one snapshot of a reader's providers.
    ///
    /// ```swift
    /// let source = ConfigReaderPropertySource(reader.snapshot())
    /// ```
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot, from `ConfigReader.snapshot()` or `watchSnapshot`.
    ///   - description: A name for error messages; the snapshot's description when `nil`.
    public init(_ snapshot: ConfigSnapshotReader, description: String? = nil) {
        self.reader = snapshot
        self.sourceDescription = description ?? snapshot.description
    }

    /// Looks up `keyPath` in the reader, trying the type `kind` calls for first, then every other type.
    ///
    /// ```swift
    /// source.value(atKeyPath: ["server", "port"], as: .integer)   // .integer(9090) from SERVER_PORT=9090
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key's components.
    ///   - kind: The kind the reader of the property expects.
    /// - Returns: The value converted to ``PropertyValue``, or `nil` when no provider has one (and always for
    ///   ``PropertyValueKind/dictionary``, which a reader cannot list).
    public func value(atKeyPath keyPath: [String], as kind: PropertyValueKind) -> PropertyValue? {
        guard kind != .dictionary else { return nil }
        let key = ConfigKey(keyPath)
        let preferred = Self.preferredTypes(for: kind)
        for type in preferred {
            if let value = reader.propertyValue(forKey: key, type: type) { return value }
        }
        for type in Self.probeOrder where !preferred.contains(type) {
            if let value = reader.propertyValue(forKey: key, type: type) { return value }
        }
        return nil
    }

    /// Every type, in the order a value of unknown type is looked for: text first (environment variables and
    /// command-line arguments are text, and text converts to the rest).
    private static let probeOrder: [ConfigType] = [
        .string, .int, .double, .bool, .stringArray, .intArray, .doubleArray, .boolArray, .bytes, .byteChunkArray,
    ]

    private static func preferredTypes(for kind: PropertyValueKind) -> [ConfigType] {
        switch kind {
        case .string, .date: return [.string]
        case .integer: return [.int]
        case .double: return [.double]
        case .bool: return [.bool]
        case .data: return [.bytes]
        default:
            guard let element = kind.elementKind else { return [] }
            switch element {
            case .string, .date: return [.stringArray]
            case .integer: return [.intArray]
            case .double: return [.doubleArray]
            case .bool: return [.boolArray]
            case .data: return [.byteChunkArray]
            default: return [.stringArray, .intArray, .doubleArray, .boolArray, .byteChunkArray]
            }
        }
    }
}

extension Container {
    /// Adds a swift-configuration `ConfigReader` as a source of properties (package trait `Configuration`).
    ///
    /// The same as `addPropertySource(ConfigReaderPropertySource(reader))`: factories read the reader's
    /// configuration with `property`, `requireProperty` and `decodeProperties`, and the reader wins over the
    /// loaders applied before it (see ``ConfigReaderPropertySource``).
    ///
    /// ```swift
    /// container.addPropertySource(ConfigReader(providers: [EnvironmentVariablesProvider()]))
    /// ```
    ///
    /// - Parameter reader: The reader.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    public func addPropertySource(_ reader: ConfigReader) {
        addPropertySource(ConfigReaderPropertySource(reader))
    }
}

/// What the source needs of a reader: one lookup by type. `ConfigReader` and `ConfigSnapshotReader` have the
/// same methods but no common protocol.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private protocol ConfigLookupReader: Sendable {
    func string(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> String?
    func int(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> Int?
    func double(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> Double?
    func bool(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> Bool?
    func bytes(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> [UInt8]?
    func stringArray(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> [String]?
    func intArray(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> [Int]?
    func doubleArray(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> [Double]?
    func boolArray(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> [Bool]?
    func byteChunkArray(forKey key: ConfigKey, isSecret: Bool, fileID: String, line: UInt) -> [[UInt8]]?
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ConfigReader: ConfigLookupReader {}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ConfigSnapshotReader: ConfigLookupReader {}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ConfigLookupReader {
    /// The value of `key` read as `type`, or `nil` when no provider has it as (or convertible to) that type.
    func propertyValue(forKey key: ConfigKey, type: ConfigType) -> PropertyValue? {
        // The reader's access reporter sees this file and line: reads through Assemblage.
        let (fileID, line): (String, UInt) = (#fileID, #line)
        switch type {
        case .string:
            return string(forKey: key, isSecret: false, fileID: fileID, line: line).map(PropertyValue.string)
        case .int:
            return int(forKey: key, isSecret: false, fileID: fileID, line: line).map(PropertyValue.integer)
        case .double:
            return double(forKey: key, isSecret: false, fileID: fileID, line: line).map(PropertyValue.double)
        case .bool:
            return bool(forKey: key, isSecret: false, fileID: fileID, line: line).map(PropertyValue.bool)
        case .bytes:
            return bytes(forKey: key, isSecret: false, fileID: fileID, line: line).map { .data(Data($0)) }
        case .stringArray:
            return stringArray(forKey: key, isSecret: false, fileID: fileID, line: line)
                .map { .array($0.map(PropertyValue.string)) }
        case .intArray:
            return intArray(forKey: key, isSecret: false, fileID: fileID, line: line)
                .map { .array($0.map(PropertyValue.integer)) }
        case .doubleArray:
            return doubleArray(forKey: key, isSecret: false, fileID: fileID, line: line)
                .map { .array($0.map(PropertyValue.double)) }
        case .boolArray:
            return boolArray(forKey: key, isSecret: false, fileID: fileID, line: line)
                .map { .array($0.map(PropertyValue.bool)) }
        case .byteChunkArray:
            return byteChunkArray(forKey: key, isSecret: false, fileID: fileID, line: line)
                .map { .array($0.map { .data(Data($0)) }) }
        }
    }
}
#endif
