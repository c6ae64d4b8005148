extension Properties {
    /// Returns these properties with `other` merged over them.
    ///
    /// Every layer of `other` is applied after those of `self`, in its own order: its top-level values replace
    /// whole values, its key-path overrides replace single nested values, and its lookup sources answer before
    /// everything in `self`.
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

    /// Merges `other` over these properties.
    ///
    /// See ``merging(_:)``.
    ///
    /// ```swift
    /// properties.merge(Properties(["debug": true], source: "debug menu"))
    /// ```
    ///
    /// - Parameter other: The properties that take precedence.
    public mutating func merge(_ other: Properties) {
        let offset = layerCount
        if !other.origins.children.isEmpty {
            Self.merge(other.values, other.origins, into: &values, &origins, offset: offset)
        }
        for entry in other.lookupSources {
            lookupSources.append(PropertySourceLayer(source: entry.source, layer: entry.layer + offset))
        }
        layerCount += other.layerCount
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
    /// All loaders are read before anything is merged, so if any of them throws, `self` is unchanged.
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

    /// Adds a source that is asked key by key, over everything merged so far.
    ///
    /// The source is one more layer: for every key it has a value for, it wins over the loaders merged before
    /// it, and loses to those merged after it. Nothing is read now; the source is asked when a property is
    /// read (see ``PropertySource``).
    ///
    /// ```swift
    /// var properties = try Properties(loader: JSONPropertyLoader(url: defaultsURL))
    /// properties.addSource(ConfigReaderPropertySource(reader))   // the reader's values win over the file
    /// ```
    ///
    /// - Parameter source: The source that takes precedence.
    public mutating func addSource(_ source: any PropertySource) {
        layerCount += 1
        lookupSources.append(PropertySourceLayer(source: source, layer: layerCount))
        sources.append(source.sourceDescription)
    }

    /// Returns these properties with `source` added over them.
    ///
    /// See ``addSource(_:)``.
    ///
    /// ```swift
    /// let withReader = properties.addingSource(ConfigReaderPropertySource(reader))
    /// ```
    ///
    /// - Parameter source: The source that takes precedence.
    /// - Returns: The properties with the source added.
    public func addingSource(_ source: any PropertySource) -> Properties {
        var copy = self
        copy.addSource(source)
        return copy
    }

    // MARK: Internals

    /// Properties holding the values of one key-path loader, as nested dictionaries whose leaves are marked as
    /// overrides (one layer).
    init(keyPathOverrides overrides: [String: PropertyValue], source: String) throws {
        var paths: [(components: [String], folded: String, key: String)] = []
        paths.reserveCapacity(overrides.count)
        for key in overrides.keys.sorted() {
            guard let components = Self.keyPathComponents(key) else {
                throw PropertyError(
                    code: .invalidKey, source: source, keyPath: key,
                    message: "a key path has an empty component")
            }
            paths.append((components, components.map { $0.lowercased() }.joined(separator: "."), key))
        }
        var byFoldedPath: [String: String] = [:]
        for path in paths {
            if let earlier = byFoldedPath[path.folded] {
                throw PropertyError(
                    code: .duplicateKey, source: source, keyPath: path.key,
                    message: "\"\(earlier)\" and \"\(path.key)\" name the same key path")
            }
            byFoldedPath[path.folded] = path.key
        }
        for path in paths {
            var prefix = ""
            for component in path.components.dropLast() {
                prefix += prefix.isEmpty ? component.lowercased() : "." + component.lowercased()
                if let parent = byFoldedPath[prefix] {
                    throw PropertyError(
                        code: .conflictingKeys, source: source, keyPath: parent,
                        message: "\"\(parent)\" sets a value, and \"\(path.key)\" sets a value inside it; "
                            + "a key cannot hold a value and nested keys at once")
                }
            }
        }
        self.init()
        let origin = PropertyOrigin(source: source, layer: 1, isKeyPathOverride: true)
        for path in paths {
            guard let value = overrides[path.key] else { continue }
            Self.set(value, at: path.components[...], in: &values, &origins, origin: origin)
        }
        sources = [source]
        layerCount = 1
    }

    /// Sets `value` at `path`, creating dictionaries on the way (within one layer, so keys match exactly).
    private static func set(
        _ value: PropertyValue, at path: ArraySlice<String>,
        in values: inout [String: PropertyValue], _ node: inout PropertyOriginNode,
        origin: PropertyOrigin
    ) {
        guard let key = path.first else { return }
        if path.count == 1 {
            values[key] = value
            node.children[key] = PropertyOriginNode(origin: origin)
            return
        }
        var nested = values[key]?.dictionaryValue ?? [:]
        var child = node.children[key] ?? PropertyOriginNode()
        set(value, at: path.dropFirst(), in: &nested, &child, origin: origin)
        values[key] = .dictionary(nested)
        node.children[key] = child
    }

    /// Merges one level of another `Properties`' values (described by its origin tree) into ours.
    ///
    /// A node with an origin was set whole by a layer of `other`: its value (with any overrides inside it)
    /// replaces ours. A node without one is a dictionary that key-path overrides descended into: we descend
    /// too, turning what is there into a dictionary when it is not one.
    private static func merge(
        _ other: [String: PropertyValue], _ otherNode: PropertyOriginNode,
        into values: inout [String: PropertyValue], _ node: inout PropertyOriginNode,
        offset: Int
    ) {
        for key in otherNode.children.keys.sorted() {
            guard let child = otherNode.children[key] else { continue }
            if let origin = child.origin {
                guard let value = other[key] else { continue }
                let target = origin.isKeyPathOverride ? matchingKey(key, in: values) : key
                values[target] = value
                node.children[target] = child.offsetting(by: offset)
            } else {
                let target = matchingKey(key, in: values)
                var nested = values[target]?.dictionaryValue ?? [:]
                var nestedNode = node.children[target] ?? PropertyOriginNode()
                merge(other[key]?.dictionaryValue ?? [:], child, into: &nested, &nestedNode, offset: offset)
                values[target] = .dictionary(nested)
                node.children[target] = nestedNode
            }
        }
    }

    /// `key`, or the one existing key that equals it ignoring case (an override's lower-cased component
    /// reaching a file's `maxConnections`).
    private static func matchingKey(_ key: String, in values: [String: PropertyValue]) -> String {
        guard values[key] == nil else { return key }
        let folded = key.lowercased()
        var match: String?
        for existing in values.keys where existing.lowercased() == folded {
            guard match == nil else { return key }  // ambiguous: add as written
            match = existing
        }
        return match ?? key
    }
}
