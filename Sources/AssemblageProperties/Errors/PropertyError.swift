public import Assemblage
import Foundation

/// An error raised while loading or reading properties.
///
/// Every failure of the property layer is a `PropertyError`: a missing or
/// malformed file, a value that cannot be represented, a missing key, a type
/// mismatch or a failed decode. The error records what went wrong
/// (``code``), where (``source``, ``line``, ``column``, ``keyPath``) and a
/// human-readable ``message``. Its ``description`` combines them into one
/// self-contained sentence, so logging the error is usually enough:
///
/// ```text
/// Malformed JSON in /app/settings.json at line 3, column 14 (key "server.port"): expected ',' or '}'
/// ```
///
/// Messages written by the property layer never quote configuration values,
/// so an error about a secret (say, a mistyped `DB_PASSWORD`) does not leak
/// the secret into logs. Text produced elsewhere is passed through as is: a
/// `Decodable` type's own error (such as the standard library's message for
/// an invalid enum raw value), a custom loader's error, and the system
/// property-list parser's message.
///
/// ```swift
/// do {
///     try properties.merge(loader: JSONPropertyLoader(url: settingsURL))
/// } catch let error as PropertyError where error.code == .missingFile {
///     // Optional file: fall back to defaults.
/// }
/// ```
public struct PropertyError: AssemblageError {
    /// What kind of failure this is.
    ///
    /// Match on it to handle categories of errors differently.
    ///
    /// ```swift
    /// if error.code == .missingFile { useDefaults() }
    /// ```
    public var code: Code

    /// Where the failure happened: a file path or a loader's
    /// ``PropertyLoader/sourceDescription``.
    ///
    /// For read errors this is the source that supplied the offending key,
    /// or a summary of all loaded sources when the key is missing.
    ///
    /// ```swift
    /// error.source // "/app/settings.json"
    /// ```
    public var source: String

    /// The name of the file format, such as `"JSON"` or `"property list"`,
    /// when the error comes from parsing a file.
    ///
    /// Used in ``description`` ("Malformed JSON in …").
    ///
    /// ```swift
    /// error.format // "JSON"
    /// ```
    public var format: String?

    /// The dotted path of the key involved, such as `"server.port"` or
    /// `"servers[1].host"`, when known.
    ///
    /// Array elements appear as bracketed indices.
    ///
    /// ```swift
    /// error.keyPath // "server.port"
    /// ```
    public var keyPath: String?

    /// The 1-based line of the problem in the source file, when known.
    ///
    /// The JSON loader always reports it for syntax errors; the
    /// property-list loader reports it when the system parser does.
    ///
    /// ```swift
    /// error.line // 3
    /// ```
    public var line: Int?

    /// The 1-based column of the problem, counted in Unicode scalars, when
    /// known.
    ///
    /// A tab counts as one column.
    ///
    /// ```swift
    /// error.column // 14
    /// ```
    public var column: Int?

    /// A lower-case explanation of the specific problem, without location.
    ///
    /// ``description`` prefixes it with the code, source and location.
    ///
    /// ```swift
    /// error.message // "expected ',' or '}'"
    /// ```
    public var message: String

    /// The error that caused this one, if any.
    ///
    /// Set when wrapping a Foundation file or parsing error, an error thrown
    /// by a `Decodable` initializer, or an error thrown by a custom loader.
    ///
    /// ```swift
    /// if let cause = error.underlyingError as? CocoaError { … }
    /// ```
    public var underlyingError: (any Error)?

    /// Creates a property error.
    ///
    /// Custom ``PropertyLoader`` implementations should throw
    /// `PropertyError` so that callers get uniform, readable errors.
    ///
    /// ```swift
    /// throw PropertyError(
    ///     code: .malformedFile, source: sourceDescription, format: "INI",
    ///     line: 4, message: "expected '=' after key")
    /// ```
    ///
    /// - Parameters:
    ///   - code: The category of failure.
    ///   - source: The file path or loader description.
    ///   - format: The file format name, if a file was being parsed.
    ///   - keyPath: The dotted key path involved, if known.
    ///   - line: The 1-based line, if known.
    ///   - column: The 1-based column, if known.
    ///   - message: A lower-case explanation without location.
    ///   - underlyingError: The causing error, if any.
    public init(
        code: Code,
        source: String,
        format: String? = nil,
        keyPath: String? = nil,
        line: Int? = nil,
        column: Int? = nil,
        message: String,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.source = source
        self.format = format
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.message = message
        self.underlyingError = underlyingError
    }

    /// A complete, single-line explanation of the error: what `print(error)` shows.
    ///
    /// The shape is `<what> in <source>[ at line L, column C][ (key "k")]: <message>`.
    ///
    /// ```swift
    /// print(error)
    /// // Malformed JSON in /app/settings.json at line 3, column 14 (key "server.port"): expected ',' or '}'
    /// ```
    public var summary: String {
        var text: String
        switch code {
        case .missingFile: text = "Missing file \(source)"
        case .unreadableFile: text = "Cannot read \(source)"
        default: text = "\(headline) in \(source)"
        }
        if let line {
            text += " at line \(line)"
            if let column { text += ", column \(column)" }
        }
        if let keyPath {
            text += " (key \(keyPath.jsonStringLiteral))"
        }
        if !message.isEmpty { text += ": \(message)" }
        return text
    }

    private var headline: String {
        switch code {
        case .malformedFile: return "Malformed \(format ?? "file")"
        case .rootNotDictionary: return "Wrong root type"
        case .invalidValue: return "Invalid value"
        case .duplicateKey: return "Duplicate key"
        case .conflictingKeys: return "Conflicting keys"
        case .invalidKey: return "Invalid key"
        case .missingKey: return "Missing key"
        case .typeMismatch: return "Type mismatch"
        case .decodingFailed: return "Decoding failed"
        case .loadFailed: return "Loading failed"
        default: return "Property error (\(code.rawValue))"
        }
    }
}

// MARK: - Key paths

/// One step of a key path: a dictionary key or an array index.
enum PropertyPathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)

    /// Paths longer than this are shortened in the middle.
    static let maximumFormattedComponents = 16

    /// Formats components as `server.port` / `servers[2].host`. Very deep
    /// paths keep their first and last components around an ellipsis
    /// (`a.a.a…(490 more)….a.a`) so that errors stay readable.
    static func format(_ components: [PropertyPathComponent]) -> String? {
        guard !components.isEmpty else { return nil }
        guard components.count <= maximumFormattedComponents else {
            let head = components.prefix(10)
            let tail = components.suffix(4)
            let omitted = components.count - head.count - tail.count
            var text = format(Array(head)) ?? ""
            text += "…(\(omitted) more)…"
            for component in tail {
                switch component {
                case .key(let key): text += "." + key
                case .index(let index): text += "[\(index)]"
                }
            }
            return text
        }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
