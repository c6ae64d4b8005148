import Assemblage

/// How ``Properties`` merges what a ``PropertyLoader`` returns over the properties merged before it.
///
/// Files replace whole top-level values; the environment overrides single nested values. A loader says which
/// it does through ``PropertyLoader/mergeBehavior``, and the default is ``replacingTopLevelKeys``.
///
/// Behaviours are open-ended constants rather than an enum, like ``PropertyError/Code``.
///
/// ```swift
/// struct CommandLineLoader: PropertyLoader {
///     var arguments: [String]
///     var sourceDescription: String { "command-line arguments" }
///     var mergeBehavior: PropertyMergeBehavior { .overridingKeyPaths }   // --server.port=80 sets one value
///
///     func load() throws -> [String: PropertyValue] { … }   // ["server.port": "80"]
/// }
/// ```
public struct PropertyMergeBehavior: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) {
        self.name = name
    }

    /// Each key the loader returns is a top-level key, and its value replaces the earlier value of that key
    /// whole, arrays and dictionaries included (a file that sets `"server": {"port": 1}` drops an earlier
    /// `server.host`).
    ///
    /// The behaviour of the file and dictionary loaders. A key containing dots is an ordinary top-level key.
    ///
    /// ```swift
    /// JSONPropertyLoader(url: url).mergeBehavior   // .replacingTopLevelKeys
    /// ```
    public static let replacingTopLevelKeys = PropertyMergeBehavior("replacingTopLevelKeys")

    /// Each key the loader returns is a dotted key path (`server.port`), and its value replaces only the value
    /// at that path: the dictionaries on the way are kept, or created when missing, so that
    /// `server.port` overrides the port of a `"server"` object loaded from a file and keeps its host.
    ///
    /// The behaviour of ``EnvironmentPropertyLoader`` with its default ``EnvironmentPropertyLoader/KeyMapping/keyPath``
    /// mapping. The rules, applied when the loader's properties are merged:
    /// - A path component matches an existing key exactly, or else ignoring case when exactly one existing key
    ///   matches that way (so the environment's lower-cased `server.maxconnections` overrides a file's
    ///   `server.maxConnections`); otherwise it is added as written.
    /// - A value on the way that is not a dictionary (a string where the path needs a dictionary) is replaced
    ///   by a dictionary: what is merged later wins.
    /// - Within one loader, two keys that differ only in case, or a key that is also the prefix of another
    ///   (`db` and `db.host`), are an error: `duplicateKey` or
    ///   `conflictingKeys`. An empty component (`server..port`) is
    ///   `invalidKey`.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_").mergeBehavior   // .overridingKeyPaths
    /// ```
    public static let overridingKeyPaths = PropertyMergeBehavior("overridingKeyPaths")

    /// The behaviour's name, such as `overridingKeyPaths`.
    ///
    /// ```swift
    /// print(PropertyMergeBehavior.overridingKeyPaths)   // overridingKeyPaths
    /// ```
    public var description: String { name }
}
