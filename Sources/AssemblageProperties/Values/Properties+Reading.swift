import Assemblage

extension Properties {
    /// Whether no property is set and no source can supply one.
    ///
    /// True for new ``init()`` properties and after merging only empty loaders; false once a
    /// ``PropertySource`` is added, since a source cannot say whether it is empty.
    ///
    /// ```swift
    /// Properties().isEmpty // true
    /// ```
    public var isEmpty: Bool { values.isEmpty && lookupSources.isEmpty }

    /// The description of the loader or source that supplies `key`, or `nil` if the key has no value.
    ///
    /// Useful to explain where an effective setting comes from. For a value loaded inside a dictionary, this is
    /// the layer that set it last: the environment for `server.port` when `APP_SERVER_PORT` overrode a file.
    ///
    /// ```swift
    /// properties.source(forKey: "server.port") // "environment variables with prefix \"APP_\""
    /// properties.source(forKey: "server.host") // "/app/settings.json"
    /// ```
    ///
    /// - Parameter key: A key: a top-level name or a dotted key path.
    /// - Returns: The winning source's description.
    public func source(forKey key: String) -> String? {
        guard let resolved = try? resolve(key, as: .any) else { return nil }
        return resolved.source ?? sourceSummary
    }

    /// The raw value of `key`.
    ///
    /// Loaded values are returned as stored (a dictionary with everything merged into it); a
    /// ``PropertySource`` added later is asked first, for ``PropertyValueKind/any``.
    ///
    /// ```swift
    /// if case .array(let hosts)? = properties.value(forKey: "hosts") { … }
    /// properties.value(forKey: "server.port") // .string("9090") from APP_SERVER_PORT
    /// ```
    ///
    /// - Parameter key: A key: a top-level name or a dotted key path.
    /// - Returns: The value, or `nil` if the key has none (or a source failed).
    public func value(forKey key: String) -> PropertyValue? {
        (try? resolve(key, as: .any))?.value
    }

    /// Reads `key` as `T`, or returns `nil`.
    ///
    /// Returns `nil` both when the key is absent and when its value does not convert; use
    /// ``requireProperty(_:as:)`` to tell the two apart. The conversion rules are those of ``PropertyValue``
    /// (an integer reads as `Double`, `"42"` reads as `Int`, a Boolean never reads as a number). A
    /// ``PropertySource`` added later than the loaded value is asked first, for `T`'s
    /// ``PropertyRepresentable/propertyValueKind``; a source that throws counts as having no value.
    ///
    /// ```swift
    /// let port = properties.property("server.port", as: Int.self) ?? 8080
    /// let hosts: [String]? = properties.property("hosts")
    /// ```
    ///
    /// - Parameters:
    ///   - key: A key: a top-level name or a dotted key path.
    ///   - type: The type to read; usually inferred.
    /// - Returns: The converted value, or `nil`.
    public func property<T: PropertyRepresentable>(_ key: String, as type: T.Type = T.self) -> T? {
        guard let resolved = try? resolve(key, as: T.propertyValueKind) else { return nil }
        return T(propertyValue: resolved.value)
    }

    /// Reads `key` as `T`, throwing if it is absent or does not convert.
    ///
    /// Error messages name the key, the expected type, the kind of value found and the source that supplied
    /// it, but never the value itself (it may be a secret).
    ///
    /// ```swift
    /// let port = try properties.requireProperty("server.port", as: Int.self)
    /// // Type mismatch in environment variables with prefix "APP_" (key "server.port"): expected Int,
    /// // found a string that does not convert to it
    /// ```
    ///
    /// - Parameters:
    ///   - key: A key: a top-level name or a dotted key path.
    ///   - type: The type to read; usually inferred.
    /// - Returns: The converted value.
    /// - Throws: ``PropertyError`` with code `missingKey` or
    ///   `typeMismatch`, or the error of a ``PropertySource`` that failed
    ///   (`loadFailed` when it was not a `PropertyError`).
    public func requireProperty<T: PropertyRepresentable>(_ key: String, as type: T.Type = T.self) throws -> T {
        guard let (value, source) = try resolve(key, as: T.propertyValueKind) else {
            throw PropertyError(
                code: .missingKey, source: sourceSummary, keyPath: key,
                message: "no value was loaded for this key (expected \(Self.typeName(T.self)))")
        }
        guard let result = T(propertyValue: value) else {
            throw PropertyError(
                code: .typeMismatch, source: source ?? sourceSummary, keyPath: key,
                message: PropertyValue.mismatchMessage(expected: Self.typeName(T.self), found: value))
        }
        return result
    }

    /// Decodes a `Decodable` value from `key`, or from all properties.
    ///
    /// With a key, the value there is decoded (typically a dictionary decoded into a struct). Without one, the
    /// root is decoded as a dictionary. Scalars convert with the same rules as ``property(_:as:)``, so
    /// environment strings decode into numeric fields. `Date`, `Data`, `URL` and `Decimal` fields are read
    /// from native values or strings (ISO 8601, Base64, URL text, decimal text). Optional fields may be
    /// absent; there is no null.
    ///
    /// Every field is read through every layer: an environment override of `database.port` is inside the
    /// loaded dictionary, and a ``PropertySource`` added later is asked for each field (with the kind the
    /// field's type expects) before the loaded value. A source cannot list its keys, so a `[String: T]`
    /// field sees only loaded keys, and a nested struct that nothing loaded is present when a source has at
    /// least one of its fields (an optional one is `nil` otherwise).
    ///
    /// ```swift
    /// struct Database: Decodable {
    ///     var host: String
    ///     var port: Int
    ///     var replicas: [String]?
    /// }
    /// let database = try properties.decodeProperties(Database.self, forKey: "database")
    /// // Missing key in /app/settings.json (key "database.port"): required key is missing
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - key: A key (a top-level name or a dotted key path), or `nil` to decode the root.
    /// - Returns: The decoded value.
    /// - Throws: ``PropertyError`` whose ``PropertyError/keyPath`` is the full path of the offending value
    ///   (`database.port`, `servers[1].host`) and whose ``PropertyError/source`` is the loader or source that
    ///   supplied it, with code `missingKey`, `typeMismatch`,
    ///   `invalidValue` (for example a number that does not fit an `Int8`, or an invalid
    ///   enum raw value), or `decodingFailed` for other errors thrown by the type's
    ///   initializer; or the error of a ``PropertySource`` that failed.
    public func decodeProperties<T: Decodable>(_ type: T.Type, forKey key: String? = nil) throws -> T {
        let context = lookupSources.isEmpty ? nil : PropertyLookupContext(layers: lookupSources)
        let root: PropertyDecodingNode
        let base: PropertyErrorBase
        var codingPath: [any CodingKey] = []
        if let key {
            let entry = staticEntry(forKey: key)
            root = PropertyDecodingNode(
                value: entry.value, origin: entry.node, layer: entry.layer,
                keyPath: Self.keyPathComponents(key))
            base = PropertyErrorBase(node: entry.node, source: entry.source, skip: 1)
            codingPath = [PropertyStringKey(key)]
        } else {
            root = PropertyDecodingNode(value: .dictionary(values), origin: origins, layer: 0, keyPath: [])
            base = PropertyErrorBase(node: origins, source: nil, skip: 0)
        }
        do {
            guard
                let result = try PropertyValueDecoder.unboxIfPresent(
                    type, from: root, context: context,
                    codingPath: codingPath)
            else {
                throw PropertyError(
                    code: .missingKey, source: sourceSummary, keyPath: key,
                    message: "no value was loaded for this key (expected \(Self.typeName(T.self)))")
            }
            return result
        } catch let error as DecodingError {
            throw propertyError(for: error, base: base, context: context)
        } catch let error as PropertyDecodingUnderlyingError {
            throw PropertyError(
                code: .decodingFailed, source: source(forPath: error.path, base: base, context: context),
                keyPath: PropertyPathComponent.format(error.path),
                message: String(describing: error.underlying), underlyingError: error.underlying)
        } catch let error as PropertySourceReadError {
            throw error.error
        }
    }

    private func propertyError(
        for error: DecodingError, base: PropertyErrorBase,
        context: PropertyLookupContext?
    ) -> PropertyError {
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
        // A missing key was looked for everywhere: name every source when sources were asked too.
        let source =
            code == .missingKey && context != nil
            ? sourceSummary : source(forPath: path, base: base, context: context)
        return PropertyError(
            code: code, source: source, keyPath: PropertyPathComponent.format(path),
            message: message, underlyingError: error)
    }

    /// The source of the value at `path`: the source that answered there (or for an array around it), else the
    /// deepest loaded origin along the path, else every source.
    private func source(
        forPath path: [PropertyPathComponent], base: PropertyErrorBase,
        context: PropertyLookupContext?
    ) -> String {
        if let context {
            var prefix = path
            while !prefix.isEmpty {
                if let supplier = context.suppliers[prefix] { return supplier }
                prefix.removeLast()
            }
        }
        var node = base.node
        var source = base.source ?? node?.origin?.source
        for component in path.dropFirst(base.skip) {
            guard case .key(let key) = component, let child = node?.children[key] else { break }
            node = child
            if let origin = child.origin?.source { source = origin }
        }
        return source ?? sourceSummary
    }

    static func typeName(_ type: Any.Type) -> String {
        String(describing: type)
    }
}

/// Where the coding path of a `decodeProperties` call starts in the origin tree.
struct PropertyErrorBase {
    /// The origin node at the decoded key (the root for a root decode).
    var node: PropertyOriginNode?
    /// The source of the deepest origin at or above that key.
    var source: String?
    /// How many coding-path components name the key itself (1 for a keyed decode, 0 for the root).
    var skip: Int
}
