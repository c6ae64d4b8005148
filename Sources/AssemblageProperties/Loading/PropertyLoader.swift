import Assemblage
import Foundation

/// A source of configuration properties.
///
/// A loader reads one source (a file, the environment, an in-memory
/// dictionary) and returns its keys and values. Loaders are values: creating
/// one does no work, and ``load()`` may be called more than once.
/// ``Properties`` merges the results of several loaders, later ones
/// overriding earlier ones key by key: a file's top-level keys replace whole
/// values, the environment's key paths (``mergeBehavior``) single nested
/// values.
///
/// A loader reads its whole source at once. For a source that can only be
/// asked key by key, such as swift-configuration's `ConfigReader`, see
/// ``PropertySource``.
///
/// Implement the protocol to add a new source. Throw ``PropertyError`` for
/// failures (other errors are wrapped with code
/// `loadFailed`):
///
/// ```swift
/// struct CommandLineLoader: PropertyLoader {
///     var arguments: [String]
///     var sourceDescription: String { "command-line arguments" }
///
///     func load() throws -> [String: PropertyValue] {
///         var values: [String: PropertyValue] = [:]
///         for argument in arguments where argument.hasPrefix("--") {
///             let parts = argument.dropFirst(2).split(separator: "=", maxSplits: 1)
///             guard parts.count == 2 else {
///                 throw PropertyError(code: .malformedFile, source: sourceDescription,
///                                     message: "expected --key=value")
///             }
///             values[String(parts[0])] = .string(String(parts[1]))
///         }
///         return values
///     }
/// }
/// ```
public protocol PropertyLoader: Sendable {
    /// Reads the source and returns its top-level properties.
    ///
    /// The call either returns every property of the source or throws; it
    /// never returns a partial result.
    ///
    /// ```swift
    /// let values = try JSONPropertyLoader(url: url).load()
    /// values["port"] // .integer(8080)
    /// ```
    ///
    /// - Returns: The source's top-level keys and their values.
    /// - Throws: ``PropertyError`` describing why the source could not be
    ///   loaded.
    func load() throws -> [String: PropertyValue]

    /// A short human-readable name for the source, used in error messages.
    ///
    /// File loaders return the file path; other loaders describe themselves
    /// (`environment variables with prefix "APP_"`).
    ///
    /// ```swift
    /// JSONPropertyLoader(url: url).sourceDescription // "/app/settings.json"
    /// ```
    var sourceDescription: String { get }

    /// How ``Properties`` merges what ``load()`` returns: whole top-level
    /// values (the default), or single values at dotted key paths.
    ///
    /// Return ``PropertyMergeBehavior/overridingKeyPaths`` from a loader whose
    /// keys are paths such as `server.port`, so that it overrides one nested
    /// value without replacing the dictionary around it.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_").mergeBehavior   // .overridingKeyPaths
    /// ```
    var mergeBehavior: PropertyMergeBehavior { get }
}

extension PropertyLoader {
    /// ``PropertyMergeBehavior/replacingTopLevelKeys``: each key the loader
    /// returns replaces the earlier value of that top-level key whole.
    ///
    /// ```swift
    /// DictionaryPropertyLoader(["port": 1]).mergeBehavior   // .replacingTopLevelKeys
    /// ```
    public var mergeBehavior: PropertyMergeBehavior { .replacingTopLevelKeys }
}

// MARK: - Dictionary loader

/// A loader that returns a fixed dictionary.
///
/// Use it for defaults, for tests, or to adapt properties computed in code.
/// It also conforms to `ExpressibleByDictionaryLiteral`, so a literal can
/// stand in wherever a loader is expected.
///
/// ```swift
/// let defaults = DictionaryPropertyLoader(["port": 8080, "host": "localhost"],
///                                         description: "built-in defaults")
/// var properties = try Properties(loader: defaults)
///
/// let overrides: DictionaryPropertyLoader = ["port": 9090]
/// try properties.merge(loader: overrides)
/// ```
public struct DictionaryPropertyLoader: PropertyLoader, ExpressibleByDictionaryLiteral {
    /// The properties this loader returns.
    ///
    /// The dictionary is returned as is; it is not validated or copied deeply
    /// (values are already immutable).
    ///
    /// ```swift
    /// DictionaryPropertyLoader(["a": 1], description: "x").values // ["a": .integer(1)]
    /// ```
    public var values: [String: PropertyValue]

    /// The description given at creation, used in error messages.
    ///
    /// Choose a name that tells a reader where the values came from, such as
    /// `"built-in defaults"` or `"test overrides"`.
    ///
    /// ```swift
    /// DictionaryPropertyLoader([:], description: "defaults").sourceDescription // "defaults"
    /// ```
    public var sourceDescription: String

    /// Creates a loader that returns `values`.
    ///
    /// ```swift
    /// let loader = DictionaryPropertyLoader(["timeout": 2.5], description: "test overrides")
    /// ```
    ///
    /// - Parameters:
    ///   - values: The properties to return from ``load()``.
    ///   - description: A name for the source, shown in error messages.
    public init(_ values: [String: PropertyValue], description: String = "in-memory dictionary") {
        self.values = values
        self.sourceDescription = description
    }

    /// Creates a loader from a dictionary literal.
    ///
    /// A repeated key does not trap; the last occurrence wins. The source
    /// description is `"dictionary literal"`.
    ///
    /// ```swift
    /// let loader: DictionaryPropertyLoader = ["port": 8080, "debug": true]
    /// ```
    ///
    /// - Parameter elements: The key-value pairs.
    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        self.init(
            Dictionary(elements, uniquingKeysWith: { _, last in last }),
            description: "dictionary literal")
    }

    /// Returns ``values``.
    ///
    /// This loader never fails.
    ///
    /// ```swift
    /// try DictionaryPropertyLoader(["a": 1]).load() // ["a": .integer(1)]
    /// ```
    ///
    /// - Returns: ``values``.
    /// - Throws: Never; the signature is the protocol's.
    public func load() throws -> [String: PropertyValue] {
        values
    }
}
