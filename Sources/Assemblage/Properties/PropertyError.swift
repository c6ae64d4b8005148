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
public struct PropertyError: Error, Sendable, CustomStringConvertible {
    /// A category of property failure.
    ///
    /// Codes are open-ended constants rather than an enum so that new
    /// categories can be added without breaking exhaustive `switch`es in
    /// client code; compare with `==` or use them in `switch` with a
    /// `default` branch.
    ///
    /// ```swift
    /// switch error.code {
    /// case .missingFile: useDefaults()
    /// case .malformedFile, .duplicateKey: reportBrokenConfiguration(error)
    /// default: throw error
    /// }
    /// ```
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable identifier of the code, such as `"missingFile"`.
        ///
        /// Useful for logs and metrics; ``description`` returns the same
        /// string.
        ///
        /// ```swift
        /// PropertyError.Code.missingKey.rawValue // "missingKey"
        /// ```
        public let rawValue: String

        private init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// The file or bundle resource does not exist.
        ///
        /// Raised by file-based loaders before reading. Callers that treat a
        /// configuration file as optional typically catch this code.
        ///
        /// ```swift
        /// try JSONPropertyLoader(url: URL(fileURLWithPath: "/nope.json")).load() // throws .missingFile
        /// ```
        public static let missingFile = Code("missingFile")

        /// The file exists but could not be read.
        ///
        /// For example it is a directory, permissions deny access, or the
        /// URL is not a `file:` URL.
        ///
        /// ```swift
        /// try JSONPropertyLoader(url: URL(fileURLWithPath: "/tmp")).load() // throws .unreadableFile
        /// ```
        public static let unreadableFile = Code("unreadableFile")

        /// The file is not syntactically valid for its format.
        ///
        /// Covers empty files, truncation, invalid UTF-8, unterminated
        /// comments and strings, trailing commas, excessive nesting and any
        /// other syntax error. ``PropertyError/line`` and
        /// ``PropertyError/column`` locate the problem when known.
        ///
        /// ```swift
        /// // settings.json: {"port": 80,}
        /// // Malformed JSON in settings.json at line 1, column 13: trailing comma before '}'
        /// ```
        public static let malformedFile = Code("malformedFile")

        /// The file parsed, but its top-level value is not a dictionary.
        ///
        /// Properties are keyed, so a file whose root is an array or a
        /// scalar cannot be loaded.
        ///
        /// ```swift
        /// // settings.json: [1, 2, 3]
        /// // Wrong root type in settings.json at line 1, column 1: expected a dictionary
        /// // (JSON object) at the top level, found an array
        /// ```
        public static let rootNotDictionary = Code("rootNotDictionary")

        /// A value is syntactically valid but cannot be represented.
        ///
        /// Examples: a JSON `null`, a number such as `1e400` that overflows
        /// to infinity, a property-list `<real>nan</real>`, or a decoded
        /// number that does not fit the requested integer type.
        ///
        /// ```swift
        /// // settings.json: {"limit": 1e400}
        /// // Invalid value in settings.json at line 1, column 11 (key "limit"): number is out of
        /// // range for a 64-bit floating-point value
        /// ```
        public static let invalidValue = Code("invalidValue")

        /// The same key appears twice in one source.
        ///
        /// Twice in one JSON object, or twice among the key paths of one
        /// loader whose ``PropertyLoader/mergeBehavior`` is
        /// ``PropertyMergeBehavior/overridingKeyPaths`` (for the environment:
        /// two variables that map to one key path, such as `APP_PORT` and
        /// `APP_port`). Duplicate keys are almost always an editing mistake,
        /// and which occurrence should win is a guess, so the loader rejects
        /// them.
        ///
        /// ```swift
        /// // settings.json: {"port": 80, "port": 81}
        /// // Duplicate key in settings.json at line 1, column 14 (key "port"): the key already
        /// // appears at line 1, column 2
        /// ```
        public static let duplicateKey = Code("duplicateKey")

        /// One key of a source holds a value and another key of the same
        /// source needs it to be a dictionary.
        ///
        /// Raised for a loader whose keys are key paths
        /// (``PropertyMergeBehavior/overridingKeyPaths``): `db` and `db.host`
        /// cannot both be set, because `db` cannot be a string and a
        /// dictionary at once. ``PropertyError/keyPath`` is the shorter key;
        /// the message names both (for the environment, both variables).
        ///
        /// ```swift
        /// // APP_DB=postgres and APP_DB_HOST=localhost
        /// // Conflicting keys in environment variables with prefix "APP_" (key "db"): APP_DB sets a
        /// // value for this key, and APP_DB_HOST sets "db.host" inside it; …
        /// ```
        public static let conflictingKeys = Code("conflictingKeys")

        /// A key path has an empty component, such as `server..port` or
        /// `.port`.
        ///
        /// Raised for a loader whose keys are key paths
        /// (``PropertyMergeBehavior/overridingKeyPaths``).
        ///
        /// ```swift
        /// // a loader returning ["server..port": 80]
        /// // Invalid key in my loader (key "server..port"): a key path has an empty component
        /// ```
        public static let invalidKey = Code("invalidKey")

        /// A required key has no value.
        ///
        /// Raised by ``Properties/requireProperty(_:as:)`` and by
        /// ``Properties/decodeProperties(_:forKey:)`` for non-optional fields.
        ///
        /// ```swift
        /// try properties.requireProperty("port", as: Int.self) // throws .missingKey if absent
        /// ```
        public static let missingKey = Code("missingKey")

        /// A value exists but does not convert to the requested type.
        ///
        /// The message names the expected type and the kind of value found.
        ///
        /// ```swift
        /// // {"port": true}
        /// try properties.requireProperty("port", as: Int.self)
        /// // Type mismatch in settings.json (key "port"): expected Int, found a bool
        /// ```
        public static let typeMismatch = Code("typeMismatch")

        /// A `Decodable` type's own initializer threw an error that is not a
        /// `DecodingError`.
        ///
        /// ``PropertyError/underlyingError`` holds the original error and
        /// ``PropertyError/keyPath`` the location where it was thrown.
        ///
        /// ```swift
        /// struct Limits: Decodable {
        ///     init(from decoder: any Decoder) throws { throw ValidationError() }
        /// }
        /// try properties.decodeProperties(Limits.self, forKey: "limits") // throws .decodingFailed
        /// ```
        public static let decodingFailed = Code("decodingFailed")

        /// A custom ``PropertyLoader`` or ``PropertySource`` threw an error
        /// that is not a `PropertyError`.
        ///
        /// ``Properties`` wraps such errors so callers handle one error
        /// type; ``PropertyError/underlyingError`` holds the original. For a
        /// source, ``PropertyError/keyPath`` names the key being read.
        ///
        /// ```swift
        /// try properties.merge(loader: RemoteLoader()) // throws .loadFailed on a network error
        /// ```
        public static let loadFailed = Code("loadFailed")

        /// The ``rawValue``.
        ///
        /// Lets a code be interpolated directly into log messages.
        ///
        /// ```swift
        /// print(PropertyError.Code.typeMismatch) // typeMismatch
        /// ```
        public var description: String { rawValue }
    }

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

    /// A complete, single-line explanation of the error.
    ///
    /// The shape is `<what> in <source>[ at line L, column C][ (key "k")]: <message>`.
    ///
    /// ```swift
    /// print(error)
    /// // Malformed JSON in /app/settings.json at line 3, column 14 (key "server.port"): expected ',' or '}'
    /// ```
    public var description: String {
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

extension PropertyError: LocalizedError {
    /// The same text as ``description``, so `localizedDescription` is useful.
    ///
    /// Without this, Foundation would print a generic "operation could not be
    /// completed" message for the error.
    ///
    /// ```swift
    /// print(error.localizedDescription) // same as print(error)
    /// ```
    public var errorDescription: String? { description }
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
