import Assemblage

/// A source of properties that is asked key by key, when a property is read.
///
/// A ``PropertyLoader`` returns every value of its source at once, and ``Properties`` merges them. Some sources
/// cannot list their keys: swift-configuration's `ConfigReader` answers a lookup for a key but cannot say which
/// keys exist. Such a source is a `PropertySource`: ``Properties`` consults it, in order of precedence, whenever
/// a property is read: by ``Properties/property(_:as:)``, ``Properties/requireProperty(_:as:)``,
/// ``Properties/value(forKey:)`` and, field by field, by ``Properties/decodeProperties(_:forKey:)`` (and so by the
/// resolver's `property`, `requireProperty` and `decodeProperties`).
///
/// Add one with ``Properties/addSource(_:)`` or `Container.addPropertySource(_:)`.
/// Precedence is that of loaders: **what is added later wins**, key by key. A source added after a loader
/// answers before the loader's values; a loader applied after a source wins over the source for every key it
/// sets (a loader that replaces a top-level key, such as a JSON file setting `"server"`, hides the source's
/// `server.*` keys too, just as it hides an earlier file's). When a source has no value for a key, the next one
/// down is asked.
///
/// A source needs no lock: it is a `Sendable` value, and it is called from whichever thread reads the
/// property. With the `Configuration` package trait, `ConfigReaderPropertySource` adapts a swift-configuration
/// `ConfigReader`. Writing one is a single method:
///
/// ```swift
/// struct SecretsDirectorySource: PropertySource {
///     var directory: URL
///     var sourceDescription: String { "secrets in \(directory.path)" }
///
///     func value(atKeyPath keyPath: [String], as kind: PropertyValueKind) throws -> PropertyValue? {
///         let file = directory.appendingPathComponent(keyPath.joined(separator: "."))
///         guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
///         return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
///     }
/// }
///
/// try container.applyPropertyLoader(JSONPropertyLoader(url: settingsURL))
/// container.addPropertySource(SecretsDirectorySource(directory: secretsURL))   // wins over the file
/// ```
public protocol PropertySource: Sendable {
    /// Looks up the value at `keyPath`, or returns `nil` when the source has none.
    ///
    /// `keyPath` holds the components of the key that was read: `["server", "port"]` for `server.port`, one
    /// component for a top-level key. `kind` says what the reader expects; return a value of that kind when the
    /// source can, or whatever it holds otherwise (the reader converts strings by the rules of
    /// ``PropertyValue`` and reports a value that does not convert as a type mismatch naming the key and this
    /// source). Return `nil` for a kind the source cannot answer, such as ``PropertyValueKind/dictionary`` for a
    /// source that cannot list keys.
    ///
    /// ```swift
    /// try source.value(atKeyPath: ["server", "port"], as: .integer)   // .integer(8080), or nil
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key's components, never empty, none of them empty.
    ///   - kind: The kind of value the reader expects.
    /// - Returns: The value, or `nil` when the source has no value for the key.
    /// - Throws: A ``PropertyError`` when the source cannot be read; any other error is reported as a
    ///   ``PropertyError`` with code `loadFailed` naming the key and this source.
    ///   Non-throwing readers such as ``Properties/property(_:as:)`` treat a throwing source as having no value.
    func value(atKeyPath keyPath: [String], as kind: PropertyValueKind) throws -> PropertyValue?

    /// A short human-readable name for the source, used in error messages and ``Properties/sources``.
    ///
    /// ```swift
    /// source.sourceDescription   // "secrets in /run/secrets"
    /// ```
    var sourceDescription: String { get }
}
