import Foundation

/// Configuration properties merged from one or more loaders.
///
/// `Properties` is a plain `Sendable` value: copy it, store it, share it
/// across tasks. It keeps the merged top-level values plus, for each key,
/// the source that supplied it, so errors can name the right file.
///
/// Merge rules:
/// - Loaders apply in order; for each top-level key, the last loader that
///   defines it wins.
/// - Only top-level keys merge. Arrays and dictionaries are replaced whole,
///   never concatenated or deep-merged.
/// - A loader that fails applies nothing: every loader is read completely
///   before anything is merged, and the receiver is unchanged when an error
///   is thrown.
///
/// Reading:
/// - ``value(forKey:)`` returns the raw ``PropertyValue``.
/// - ``property(_:as:)`` converts to any ``PropertyRepresentable`` type and
///   returns `nil` when the key is absent or does not convert.
/// - ``requireProperty(_:as:)`` does the same but throws a ``PropertyError``
///   naming the key, the expected type and the kind of value found.
/// - ``decode(_:forKey:)`` decodes a `Decodable` configuration struct from
///   one key or from the root; errors name the nested key path.
///
/// Keys are top-level names; a key containing dots is an ordinary key, not a
/// path.
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
///     EnvironmentPropertyLoader(prefix: "APP_"),
/// ])
/// let timeout = properties.property("timeout", as: Double.self) ?? 30
/// let server = try properties.decode(ServerConfig.self, forKey: "server")
/// ```
///
/// A container can hold a `Properties` value and forward to it:
/// `applyPropertyLoader(_:)` becomes `let loaded = try Properties(loader:)`
/// (outside any lock) followed by `properties.merge(loaded)`.
public struct Properties: Sendable {
    /// The merged top-level properties.
    ///
    /// Mutate through the merge methods so that source tracking stays
    /// accurate.
    ///
    /// ```swift
    /// for (key, value) in properties.values.sorted(by: { $0.key < $1.key }) {
    ///     print(key, value)
    /// }
    /// ```
    public private(set) var values: [String: PropertyValue]

    /// The descriptions of every source merged so far, in merge order.
    ///
    /// A source appears once per merge, so applying the same loader twice lists
    /// it twice. Use ``source(forKey:)`` to find which source won for a key.
    ///
    /// ```swift
    /// properties.sources // ["/app/defaults.json", "environment variables with prefix \"APP_\""]
    /// ```
    public private(set) var sources: [String]

    /// The source that supplied each key.
    private var origins: [String: String]

    /// Creates empty properties.
    ///
    /// Reading any key returns `nil`; merge loaders to fill it.
    ///
    /// ```swift
    /// var properties = Properties()
    /// try properties.merge(loader: EnvironmentPropertyLoader(prefix: "APP_"))
    /// ```
    public init() {
        values = [:]
        sources = []
        origins = [:]
    }

    /// Creates properties from a dictionary.
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
        self.origins = values.mapValues { _ in source }
    }

    /// Loads properties from one loader.
    ///
    /// ```swift
    /// let properties = try Properties(loader: JSONPropertyLoader(url: settingsURL))
    /// ```
    ///
    /// - Parameter loader: The source to load.
    /// - Throws: The loader's ``PropertyError``; any other error is wrapped
    ///   in a ``PropertyError`` with code ``PropertyError/Code/loadFailed``.
    public init(loader: any PropertyLoader) throws {
        let values = try Self.load(loader)
        self.init(values, source: loader.sourceDescription)
    }

    /// Loads and merges several loaders; later loaders win.
    ///
    /// ```swift
    /// let properties = try Properties(loaders: [defaults, fileLoader, environmentLoader])
    /// ```
    ///
    /// - Parameter loaders: The sources, lowest precedence first.
    /// - Throws: The first failing loader's ``PropertyError`` (see
    ///   ``init(loader:)``).
    public init(loaders: [any PropertyLoader]) throws {
        self.init()
        try merge(loaders: loaders)
    }

    // MARK: Merging

    /// Returns these properties overridden by `other`'s top-level keys.
    ///
    /// Keys only in `self` are kept; keys in `other` replace the whole value,
    /// including arrays and dictionaries.
    ///
    /// ```swift
    /// let merged = defaults.merging(overrides)
    /// ```
    ///
    /// - Parameter other: The properties that take precedence.
    /// - Returns: The merged properties.
    public func merging(_ other: Properties) -> Properties {
        var copy = self
        copy.merge(other)
        return copy
    }

    /// Overrides these properties with `other`'s top-level keys.
    ///
    /// ```swift
    /// properties.merge(Properties(["debug": true], source: "debug menu"))
    /// ```
    ///
    /// - Parameter other: The properties that take precedence.
    public mutating func merge(_ other: Properties) {
        for (key, value) in other.values {
            values[key] = value
            origins[key] = other.origins[key] ?? other.sourceSummary
        }
        sources.append(contentsOf: other.sources)
    }

    /// Loads `loader` and merges its properties over these.
    ///
    /// If loading throws, nothing is merged and `self` is unchanged.
    ///
    /// ```swift
    /// try properties.merge(loader: JSONPropertyLoader(url: overridesURL))
    /// ```
    ///
    /// - Parameter loader: The source that takes precedence.
    /// - Throws: See ``init(loader:)``.
    public mutating func merge(loader: any PropertyLoader) throws {
        merge(try Properties(loader: loader))
    }

    /// Loads every loader, then merges them in order; later loaders win.
    ///
    /// All loaders are read before anything is merged, so if any of them
    /// throws, `self` is unchanged.
    ///
    /// ```swift
    /// try properties.merge(loaders: [fileLoader, environmentLoader])
    /// ```
    ///
    /// - Parameter loaders: The sources, lowest precedence first.
    /// - Throws: The first failing loader's error (see ``init(loader:)``).
    public mutating func merge(loaders: [any PropertyLoader]) throws {
        let loaded = try loaders.map { try Properties(loader: $0) }
        for properties in loaded { merge(properties) }
    }

    /// Returns these properties with `loader` merged over them.
    ///
    /// ```swift
    /// let withOverrides = try properties.merging(loader: EnvironmentPropertyLoader(prefix: "APP_"))
    /// ```
    ///
    /// - Parameter loader: The source that takes precedence.
    /// - Returns: The merged properties.
    /// - Throws: See ``init(loader:)``.
    public func merging(loader: any PropertyLoader) throws -> Properties {
        merging(try Properties(loader: loader))
    }

    private static func load(_ loader: any PropertyLoader) throws -> [String: PropertyValue] {
        do {
            return try loader.load()
        } catch let error as PropertyError {
            throw error
        } catch {
            throw PropertyError(code: .loadFailed, source: loader.sourceDescription,
                                message: String(describing: error), underlyingError: error)
        }
    }

    // MARK: Reading

    /// Whether no property is set.
    ///
    /// True for new ``init()`` properties and after merging only empty sources.
    ///
    /// ```swift
    /// Properties().isEmpty // true
    /// ```
    public var isEmpty: Bool { values.isEmpty }

    /// The description of the source that supplied `key`, or `nil` if the key
    /// is not set.
    ///
    /// Useful to explain where an effective setting comes from.
    ///
    /// ```swift
    /// properties.source(forKey: "port") // "environment variables with prefix \"APP_\""
    /// ```
    ///
    /// - Parameter key: A top-level key.
    /// - Returns: The winning source's description.
    public func source(forKey key: String) -> String? {
        values[key] == nil ? nil : origins[key]
    }

    /// The raw value stored for `key`.
    ///
    /// ```swift
    /// if case .array(let hosts)? = properties.value(forKey: "hosts") { … }
    /// ```
    ///
    /// - Parameter key: A top-level key.
    /// - Returns: The value, or `nil` if the key is not set.
    public func value(forKey key: String) -> PropertyValue? {
        values[key]
    }

    /// The raw value stored for `key`; the same as ``value(forKey:)``.
    ///
    /// ```swift
    /// properties["port"] // .integer(8080)
    /// ```
    ///
    /// - Parameter key: A top-level key.
    public subscript(key: String) -> PropertyValue? {
        values[key]
    }

    /// Reads `key` as `T`, or returns `nil`.
    ///
    /// Returns `nil` both when the key is absent and when its value does not
    /// convert; use ``requireProperty(_:as:)`` to tell the two apart. The
    /// conversion rules are those of ``PropertyValue`` (an integer reads as
    /// `Double`, `"42"` reads as `Int`, a Boolean never reads as a number).
    ///
    /// ```swift
    /// let port = properties.property("port", as: Int.self) ?? 8080
    /// let hosts: [String]? = properties.property("hosts")
    /// ```
    ///
    /// - Parameters:
    ///   - key: A top-level key.
    ///   - type: The type to read; usually inferred.
    /// - Returns: The converted value, or `nil`.
    public func property<T: PropertyRepresentable>(_ key: String, as type: T.Type = T.self) -> T? {
        values[key].flatMap(T.init(propertyValue:))
    }

    /// Reads `key` as `T`, throwing if it is absent or does not convert.
    ///
    /// Error messages name the key, the expected type and the kind of value
    /// found, but never the value itself (it may be a secret).
    ///
    /// ```swift
    /// let port = try properties.requireProperty("port", as: Int.self)
    /// // Type mismatch in /app/settings.json (key "port"): expected Int, found a bool
    /// ```
    ///
    /// - Parameters:
    ///   - key: A top-level key.
    ///   - type: The type to read; usually inferred.
    /// - Returns: The converted value.
    /// - Throws: ``PropertyError`` with code ``PropertyError/Code/missingKey``
    ///   or ``PropertyError/Code/typeMismatch``.
    public func requireProperty<T: PropertyRepresentable>(_ key: String, as type: T.Type = T.self) throws -> T {
        guard let value = values[key] else {
            throw PropertyError(code: .missingKey, source: sourceSummary, keyPath: key,
                                message: "no value was loaded for this key (expected \(Self.typeName(T.self)))")
        }
        guard let result = T(propertyValue: value) else {
            throw PropertyError(code: .typeMismatch, source: origins[key] ?? sourceSummary, keyPath: key,
                                message: PropertyValue.mismatchMessage(expected: Self.typeName(T.self), found: value))
        }
        return result
    }

    /// Decodes a `Decodable` value from `key`, or from all properties.
    ///
    /// With a key, the value stored there is decoded (typically a dictionary
    /// decoded into a struct). Without one, the root — every top-level
    /// property — is decoded as a dictionary. Scalars convert with the same
    /// rules as ``property(_:as:)``, so environment strings decode into
    /// numeric fields. `Date`, `Data`, `URL` and `Decimal` fields are read
    /// from native values or strings (ISO 8601, Base64, URL text, decimal
    /// text). Optional fields may be absent; there is no null.
    ///
    /// ```swift
    /// struct Database: Decodable {
    ///     var host: String
    ///     var port: Int
    ///     var replicas: [String]?
    /// }
    /// let database = try properties.decode(Database.self, forKey: "database")
    /// // Missing key in /app/settings.json (key "database.port"): required key is missing
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - key: A top-level key, or `nil` to decode the root.
    /// - Returns: The decoded value.
    /// - Throws: ``PropertyError`` whose ``PropertyError/keyPath`` is the full
    ///   path of the offending value (`database.port`, `servers[1].host`),
    ///   with code ``PropertyError/Code/missingKey``,
    ///   ``PropertyError/Code/typeMismatch``,
    ///   ``PropertyError/Code/invalidValue`` (for example a number that does
    ///   not fit an `Int8`, or an invalid enum raw value), or
    ///   ``PropertyError/Code/decodingFailed`` for other errors thrown by the
    ///   type's initializer.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String? = nil) throws -> T {
        let root: PropertyValue
        var codingPath: [any CodingKey] = []
        if let key {
            guard let value = values[key] else {
                throw PropertyError(code: .missingKey, source: sourceSummary, keyPath: key,
                                    message: "no value was loaded for this key (expected \(Self.typeName(T.self)))")
            }
            root = value
            codingPath = [PropertyStringKey(key)]
        } else {
            root = .dictionary(values)
        }
        do {
            return try PropertyValueDecoder.unbox(type, from: root, codingPath: codingPath)
        } catch let error as DecodingError {
            throw propertyError(for: error)
        } catch let error as PropertyDecodingUnderlyingError {
            throw PropertyError(code: .decodingFailed, source: source(forPath: error.path),
                                keyPath: PropertyPathComponent.format(error.path),
                                message: String(describing: error.underlying), underlyingError: error.underlying)
        }
    }

    private func propertyError(for error: DecodingError) -> PropertyError {
        let code: PropertyError.Code
        let codingPath: [any CodingKey]
        let message: String
        switch error {
        case .keyNotFound(let key, let context):
            code = .missingKey
            codingPath = context.codingPath + [key]
            message = context.debugDescription
        case .typeMismatch(_, let context):
            code = .typeMismatch
            codingPath = context.codingPath
            message = context.debugDescription
        case .valueNotFound(_, let context):
            code = .missingKey
            codingPath = context.codingPath
            message = context.debugDescription
        case .dataCorrupted(let context):
            code = .invalidValue
            codingPath = context.codingPath
            message = context.debugDescription
        @unknown default:
            code = .decodingFailed
            codingPath = []
            message = String(describing: error)
        }
        let path = PropertyValueDecoder.pathComponents(codingPath)
        return PropertyError(code: code, source: source(forPath: path),
                             keyPath: PropertyPathComponent.format(path),
                             message: message, underlyingError: error)
    }

    /// The source of the top-level key a path starts with.
    private func source(forPath path: [PropertyPathComponent]) -> String {
        if case .key(let first)? = path.first, let origin = source(forKey: first) {
            return origin
        }
        return sourceSummary
    }

    /// All sources, for errors that cannot be attributed to a single one.
    var sourceSummary: String {
        sources.isEmpty ? "empty properties" : "properties from " + sources.joined(separator: ", ")
    }

    private static func typeName(_ type: Any.Type) -> String {
        String(describing: type)
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
    /// Lists the keys and sources, but not the values, which may be secrets.
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
