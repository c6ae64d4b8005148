import Assemblage

/// Where a merged value came from: the source's description, and the layer that set it.
///
/// Every merge into a ``Properties`` value (a loader's properties, a lookup source) is one *layer*, numbered in
/// merge order from 1. Comparing layer numbers is how a read decides between a loaded value and a
/// ``PropertySource``: the later layer wins.
struct PropertyOrigin: Sendable {
    /// The description of the loader or source.
    var source: String
    /// The layer that set the value: later layers have larger numbers.
    var layer: Int
    /// Whether a key-path override set it (its key then matches existing keys ignoring case on merge), rather
    /// than a top-level replacement (whose key is exact).
    var isKeyPathOverride: Bool
}

/// A tree parallel to ``Properties/values`` recording which layer set what.
///
/// A node with an ``origin`` marks a value that one layer set whole; the nodes under it record later overrides
/// inside that value. A node without an origin is a dictionary that key-path overrides created or descended
/// into; only its children were set.
struct PropertyOriginNode: Sendable {
    var origin: PropertyOrigin?
    var children: [String: PropertyOriginNode] = [:]

    init(origin: PropertyOrigin? = nil) {
        self.origin = origin
    }

    /// This subtree with every layer number moved up by `offset` (merging one `Properties` over another
    /// renumbers the layers of the one on top so that they follow the other's).
    func offsetting(by offset: Int) -> PropertyOriginNode {
        guard offset != 0 else { return self }
        var copy = self
        copy.origin?.layer += offset
        for (key, child) in children { copy.children[key] = child.offsetting(by: offset) }
        return copy
    }
}

/// A ``PropertySource`` and the layer it was added as.
struct PropertySourceLayer: Sendable {
    var source: any PropertySource
    var layer: Int
}

/// The loaded value found for a key, with what decides its precedence against lookup sources.
struct PropertyStaticEntry {
    /// The loaded value, or `nil`.
    var value: PropertyValue?
    /// The origin subtree at the key, when there is one.
    var node: PropertyOriginNode?
    /// The layer of the deepest origin at or above the key (0 when none): sources added in later layers are
    /// asked first; earlier ones are hidden.
    var layer: Int
    /// The description of that origin's source.
    var source: String?
}

extension Properties {
    /// The loaded value for `key`: the top-level key spelled exactly so, or the value at the dotted path
    /// `key`; when both exist, the one set by the later layer (the top-level key when one layer set both).
    func staticEntry(forKey key: String) -> PropertyStaticEntry {
        let topLevelNode = origins.children[key]
        let literal = values[key].map { value in
            PropertyStaticEntry(
                value: value, node: topLevelNode, layer: topLevelNode?.origin?.layer ?? 0,
                source: topLevelNode?.origin?.source)
        }
        guard key.utf8.contains(UInt8(ascii: ".")), let components = Self.keyPathComponents(key) else {
            return literal
                ?? PropertyStaticEntry(
                    value: nil, node: topLevelNode,
                    layer: topLevelNode?.origin?.layer ?? 0, source: nil)
        }
        var value: PropertyValue? = .dictionary(values)
        var node: PropertyOriginNode? = origins
        var layer = 0
        var source: String?
        for component in components {
            value = value?.dictionaryValue?[component]
            node = node?.children[component]
            if let origin = node?.origin {
                layer = origin.layer
                source = origin.source
            }
        }
        let path = PropertyStaticEntry(value: value, node: node, layer: layer, source: source)
        guard let literal else { return path }
        guard path.value != nil else { return literal }
        return path.layer > literal.layer ? path : literal
    }

    /// The components of a dotted key, or `nil` when one of them would be empty (such a key is only ever a
    /// top-level key, and is not asked of lookup sources).
    static func keyPathComponents(_ key: String) -> [String]? {
        guard key.utf8.contains(UInt8(ascii: ".")) else { return key.isEmpty ? nil : [key] }
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return components.contains(where: \.isEmpty) ? nil : components
    }

    /// Asks the sources added after `layer`, newest first, for the value at `keyPath`.
    ///
    /// - Returns: The first value found and its source's description, or `nil`.
    /// - Throws: A ``PropertyError`` from a source; any other error wrapped as
    ///   `loadFailed` with the key and the source.
    /// The value `key` reads as, through the loaded values and the lookup sources, with its source's
    /// description (`nil` when it is not known).
    func resolve(_ key: String, as kind: PropertyValueKind) throws -> (value: PropertyValue, source: String?)? {
        let entry = staticEntry(forKey: key)
        if !lookupSources.isEmpty, let components = Self.keyPathComponents(key),
            let found = try Self.lookUp(components, as: kind, in: lookupSources, after: entry.layer)
        {
            return (found.value, found.source)
        }
        return entry.value.map { ($0, entry.source) }
    }

    static func lookUp(
        _ keyPath: [String], as kind: PropertyValueKind, in layers: [PropertySourceLayer],
        after layer: Int
    ) throws -> (value: PropertyValue, source: String)? {
        for entry in layers.reversed() where entry.layer > layer {
            let value: PropertyValue?
            do {
                value = try entry.source.value(atKeyPath: keyPath, as: kind)
            } catch let error as PropertyError {
                throw error
            } catch {
                throw PropertyError(
                    code: .loadFailed, source: entry.source.sourceDescription,
                    keyPath: keyPath.joined(separator: "."), message: String(describing: error),
                    underlyingError: error)
            }
            if let value { return (value, entry.source.sourceDescription) }
        }
        return nil
    }
}
