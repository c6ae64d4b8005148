import Assemblage
import Foundation

/// Configuration properties merged from loaders and lookup sources, in layers.
///
/// `Properties` is a plain `Sendable` value: copy it, store it, share it across tasks. It keeps the merged
/// values plus, for each value, the source that supplied it, so that errors name the right file or variable.
///
/// Layers (every merge is one; **what is merged later wins**):
/// - A file or dictionary loader replaces top-level keys whole, arrays and dictionaries included: a file that
///   sets `"server"` replaces an earlier `"server"` and everything in it
///   (``PropertyMergeBehavior/replacingTopLevelKeys``).
/// - The environment loader overrides single values at key paths: `APP_SERVER_PORT` sets `server.port` and
///   keeps `server.host` (``PropertyMergeBehavior/overridingKeyPaths``).
/// - A ``PropertySource``, such as a swift-configuration `ConfigReader` (package trait `Configuration`), is
///   asked key by key when a property is read, and answers before every layer merged before it; layers
///   merged after it win over it.
/// - A loader that fails applies nothing: every loader is read completely before anything is merged, and the
///   receiver is unchanged when an error is thrown.
///
/// Reading:
/// - Keys are dotted paths: `server.port` is the `port` of the `server` dictionary. A top-level key that
///   itself contains dots (`"api.url"` in a file) is found too; when both exist, the later layer's wins.
/// - ``value(forKey:)`` returns the raw ``PropertyValue``.
/// - ``property(_:as:)`` converts to any ``PropertyRepresentable`` type and returns `nil` when the key is
///   absent or does not convert.
/// - ``requireProperty(_:as:)`` does the same but throws a ``PropertyError`` naming the key, the expected
///   type, the kind of value found and its source.
/// - ``decodeProperties(_:forKey:)`` decodes a `Decodable` configuration struct from one key or from the root, field by
///   field through every layer; errors name the nested key path.
///
/// ```swift
/// struct ServerConfig: Decodable {
///     var host: String
///     var port: Int
/// }
///
/// var properties = try Properties(loaders: [
///     JSONPropertyLoader(bundle: .main, name: "defaults"),
///     JSONPropertyLoader(bundle: .main, name: "production"),
///     EnvironmentPropertyLoader(prefix: "APP_"),              // APP_SERVER_PORT=9090
/// ])
/// let timeout = properties.property("timeout", as: Double.self) ?? 30
/// let port = properties.property("server.port", as: Int.self)         // 9090
/// let server = try properties.decodeProperties(ServerConfig.self, forKey: "server")   // the file's host, port 9090
/// ```
///
/// A container holds a `Properties` value and forwards to it: `applyPropertyLoader(_:)` is
/// `let loaded = try Properties(loader:)` (outside any lock) followed by `properties.merge(loaded)`.
public struct Properties: Sendable {
    /// The merged values of the loaders, nested as loaded.
    ///
    /// An environment override of `server.port` is inside `values["server"]`. Values of ``PropertySource``s
    /// are not here: a source is asked when a key is read. Mutate through the merge methods so that source
    /// tracking stays accurate.
    ///
    /// ```swift
    /// for (key, value) in properties.values.sorted(by: { $0.key < $1.key }) {
    ///     print(key, value)
    /// }
    /// ```
    public internal(set) var values: [String: PropertyValue]

    /// The descriptions of every loader and source merged so far, in merge order.
    ///
    /// A source appears once per merge, so applying the same loader twice lists it twice. Use
    /// ``source(forKey:)`` to find which source won for a key.
    ///
    /// ```swift
    /// properties.sources // ["/app/defaults.json", "environment variables with prefix \"APP_\""]
    /// ```
    public internal(set) var sources: [String]

    /// Which layer set each value (see `PropertyOriginNode`).
    var origins: PropertyOriginNode

    /// The lookup sources, oldest first, with their layers.
    var lookupSources: [PropertySourceLayer]

    /// How many layers have been merged: the next one is `layerCount + 1`.
    var layerCount: Int

    /// Creates empty properties.
    ///
    /// Reading any key returns `nil`; merge loaders or add sources to fill it.
    ///
    /// ```swift
    /// var properties = Properties()
    /// try properties.merge(loader: EnvironmentPropertyLoader(prefix: "APP_"))
    /// ```
    public init() {
        values = [:]
        sources = []
        origins = PropertyOriginNode()
        lookupSources = []
        layerCount = 0
    }

    /// Creates properties from a dictionary of top-level values.
    ///
    /// ```swift
    /// let properties = Properties(["port": 8080], source: "test fixture")
    /// ```
    ///
    /// - Parameters:
    ///   - values: The top-level properties.
    ///   - source: A name for their origin, shown in error messages.
    public init(_ values: [String: PropertyValue], source: String = "in-memory properties") {
        self.values = values
        self.sources = [source]
        let origin = PropertyOrigin(source: source, layer: 1, isKeyPathOverride: false)
        var origins = PropertyOriginNode()
        for key in values.keys { origins.children[key] = PropertyOriginNode(origin: origin) }
        self.origins = origins
        self.lookupSources = []
        self.layerCount = 1
    }

    /// Loads properties from one loader.
    ///
    /// A loader whose ``PropertyLoader/mergeBehavior`` is ``PropertyMergeBehavior/overridingKeyPaths`` gives
    /// nested values (`server.port` inside `server`) that override single values when merged.
    ///
    /// ```swift
    /// let properties = try Properties(loader: JSONPropertyLoader(url: settingsURL))
    /// ```
    ///
    /// - Parameter loader: The source to load.
    /// - Throws: The loader's ``PropertyError``; any other error is wrapped in a ``PropertyError`` with code
    ///   `loadFailed`. For a key-path loader, also `invalidKey`,
    ///   `duplicateKey` or `conflictingKeys` when its keys do not
    ///   form one tree.
    public init(loader: any PropertyLoader) throws {
        let values = try Self.load(loader)
        if loader.mergeBehavior == .overridingKeyPaths {
            try self.init(keyPathOverrides: values, source: loader.sourceDescription)
        } else {
            self.init(values, source: loader.sourceDescription)
        }
    }

    /// Loads and merges several loaders; later loaders win.
    ///
    /// ```swift
    /// let properties = try Properties(loaders: [defaults, fileLoader, environmentLoader])
    /// ```
    ///
    /// - Parameter loaders: The sources, lowest precedence first.
    /// - Throws: The first failing loader's ``PropertyError`` (see ``init(loader:)``).
    public init(loaders: [any PropertyLoader]) throws {
        self.init()
        try merge(loaders: loaders)
    }

    private static func load(_ loader: any PropertyLoader) throws -> [String: PropertyValue] {
        do {
            return try loader.load()
        } catch let error as PropertyError {
            throw error
        } catch {
            throw PropertyError(
                code: .loadFailed, source: loader.sourceDescription,
                message: String(describing: error), underlyingError: error)
        }
    }

    /// All sources, for errors that cannot be attributed to a single one.
    var sourceSummary: String {
        sources.isEmpty ? "empty properties" : "properties from " + sources.joined(separator: ", ")
    }
}

extension Properties: ExpressibleByDictionaryLiteral {
    /// Creates properties from a dictionary literal.
    ///
    /// A repeated key does not trap; the last occurrence wins. The source is
    /// named `"dictionary literal"`.
    ///
    /// ```swift
    /// let properties: Properties = ["port": 8080, "debug": true]
    /// ```
    ///
    /// - Parameter elements: The key-value pairs.
    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }), source: "dictionary literal")
    }
}

extension Properties: CustomStringConvertible {
    /// Lists the top-level keys and the sources, but not the values, which may be secrets.
    ///
    /// Use ``value(forKey:)`` or ``values`` to inspect values deliberately.
    ///
    /// ```swift
    /// print(properties)
    /// // Properties(keys: [debug, port], sources: [/app/settings.json])
    /// ```
    public var description: String {
        "Properties(keys: [\(values.keys.sorted().joined(separator: ", "))], "
            + "sources: [\(sources.joined(separator: ", "))])"
    }
}
