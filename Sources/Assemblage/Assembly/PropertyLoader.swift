import Foundation

/// A source of configuration properties.
///
/// A loader reads one source (a file, the environment, an in-memory
/// dictionary) and returns its top-level keys and values. Loaders are
/// values: creating one does no work, and ``load()`` may be called more than
/// once. ``Properties`` merges the results of several loaders, later ones
/// overriding earlier ones key by key.
///
/// Implement the protocol to add a new source. Throw ``PropertyError`` for
/// failures (other errors are wrapped with code
/// ``PropertyError/Code/loadFailed``):
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
}

// MARK: - File access shared by file-based loaders

/// Where a file-based loader reads from.
enum PropertyFileLocation: Sendable {
    /// A concrete URL.
    case url(URL)
    /// A bundle lookup that found nothing when the loader was created.
    case missingResource(fileName: String, bundlePath: String)
    /// Bytes supplied directly.
    case data(Data, description: String)

    /// Resolves `name` (with or without the extension) in `bundle`.
    static func resource(
        in bundle: Bundle, name: String, fileExtension: String, subdirectory: String?
    ) -> PropertyFileLocation {
        let suffix = "." + fileExtension
        let baseName = name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
        if let url = bundle.url(forResource: baseName, withExtension: fileExtension, subdirectory: subdirectory) {
            return .url(url)
        }
        var fileName = baseName + suffix
        if let subdirectory, !subdirectory.isEmpty { fileName = subdirectory + "/" + fileName }
        return .missingResource(fileName: fileName, bundlePath: bundle.bundlePath)
    }

    var sourceDescription: String {
        switch self {
        case .url(let url): return url.isFileURL ? url.path : url.absoluteString
        case .missingResource(let fileName, let bundlePath): return "\(fileName) in bundle \(bundlePath)"
        case .data(_, let description): return description
        }
    }

    /// Reads the bytes, mapping failures to ``PropertyError``.
    func read(format: String) throws -> Data {
        let source = sourceDescription
        switch self {
        case .data(let data, _):
            return data
        case .missingResource:
            throw PropertyError(code: .missingFile, source: source, format: format,
                                message: "no such resource in the bundle")
        case .url(let url):
            guard url.isFileURL else {
                throw PropertyError(code: .unreadableFile, source: source, format: format,
                                    message: "only file URLs are supported")
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw PropertyError(code: .missingFile, source: source, format: format,
                                    message: "no such file")
            }
            guard !isDirectory.boolValue else {
                throw PropertyError(code: .unreadableFile, source: source, format: format,
                                    message: "the path is a directory")
            }
            do {
                return try Data(contentsOf: url)
            } catch {
                throw PropertyError(code: .unreadableFile, source: source, format: format,
                                    message: Self.describe(error), underlyingError: error)
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty {
            return debug
        }
        return nsError.localizedDescription
    }
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
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }),
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

// MARK: - Environment loader

/// A loader that reads environment variables sharing a prefix.
///
/// Only variables whose names start with `prefix` (case-sensitively) are
/// loaded. By default the prefix is removed from the key, so `APP_PORT=8080`
/// with prefix `APP_` becomes the key `PORT`; a variable named exactly like
/// the prefix would produce an empty key and is skipped. Key names are
/// otherwise kept verbatim (no case folding, no `_` to `.` mapping).
///
/// Every value loads as ``PropertyValue/string(_:)``. The typed readers
/// convert strings on demand, so `"8080"` reads as `Int` 8080, `"true"` as
/// `Bool`, an ISO 8601 string as `Date`; see ``PropertyValue`` for the exact
/// rules. ``Properties/decode(_:forKey:)`` applies the same rules.
///
/// The environment is captured when the loader is created, which makes the
/// loader a plain value and easy to test:
///
/// ```swift
/// let loader = EnvironmentPropertyLoader(prefix: "APP_")
/// try properties.merge(loader: loader)       // APP_PORT overrides PORT
/// let port = properties.property("PORT", as: Int.self)
///
/// let fake = EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_PORT": "1"])
/// ```
public struct EnvironmentPropertyLoader: PropertyLoader {
    /// The prefix variables must start with.
    ///
    /// An empty prefix loads every variable.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_").prefix // "APP_"
    /// ```
    public var prefix: String

    /// Whether the prefix is removed from the resulting keys.
    ///
    /// Keep the prefix when several prefixes share one ``Properties`` value and
    /// the keys must stay distinct.
    ///
    /// ```swift
    /// // APP_PORT=1 → key "APP_PORT" when false, "PORT" when true
    /// ```
    public var stripPrefix: Bool

    /// The variables captured at creation.
    ///
    /// Later changes to the process environment do not affect the loader;
    /// create a new loader to pick them up.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "", environment: ["A": "1"]).environment // ["A": "1"]
    /// ```
    public var environment: [String: String]

    /// Creates a loader for variables starting with `prefix`.
    ///
    /// ```swift
    /// let loader = EnvironmentPropertyLoader(prefix: "MYAPP_", stripPrefix: false)
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: The case-sensitive prefix selecting variables.
    ///   - environment: The variables to read; defaults to the current
    ///     process environment, captured now.
    ///   - stripPrefix: Whether to remove the prefix from keys.
    public init(
        prefix: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        stripPrefix: Bool = true
    ) {
        self.prefix = prefix
        self.environment = environment
        self.stripPrefix = stripPrefix
    }

    /// Names the prefix, for error messages.
    ///
    /// The prefix is quoted so that an empty or whitespace prefix is visible.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_").sourceDescription
    /// // environment variables with prefix "APP_"
    /// ```
    public var sourceDescription: String {
        var quoted = ""
        PropertyValue.renderQuoted(prefix, into: &quoted)
        return "environment variables with prefix \(quoted)"
    }

    /// Returns the matching variables as string values.
    ///
    /// ```swift
    /// try EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_X": "1", "Y": "2"]).load()
    /// // ["X": .string("1")]
    /// ```
    ///
    /// - Returns: One ``PropertyValue/string(_:)`` per matching variable.
    /// - Throws: Never; the signature is the protocol's.
    public func load() throws -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        for (name, value) in environment where name.hasPrefix(prefix) {
            let key = stripPrefix ? String(name.dropFirst(prefix.count)) : name
            guard !key.isEmpty else { continue }
            values[key] = .string(value)
        }
        return values
    }
}
