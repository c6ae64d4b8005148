extension PropertyError {
    /// The kinds of ``PropertyError``.
    ///
    /// Codes are open-ended constants rather than an enum so that new categories can be added without breaking
    /// exhaustive `switch`es in client code; compare with `==` or use them in `switch` with a `default` branch.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"missingFile"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// The file or bundle resource does not exist.
        ///
        /// Raised by file-based loaders before reading. Callers that treat a
        /// configuration file as optional typically catch this code.
        ///
        /// ```swift
        /// try JSONPropertyLoader(url: URL(fileURLWithPath: "/nope.json")).load() // throws .missingFile
        /// ```
        public static var missingFile: Self { Self("missingFile") }

        /// The file exists but could not be read.
        ///
        /// For example it is a directory, permissions deny access, or the
        /// URL is not a `file:` URL.
        ///
        /// ```swift
        /// try JSONPropertyLoader(url: URL(fileURLWithPath: "/tmp")).load() // throws .unreadableFile
        /// ```
        public static var unreadableFile: Self { Self("unreadableFile") }

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
        public static var malformedFile: Self { Self("malformedFile") }

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
        public static var rootNotDictionary: Self { Self("rootNotDictionary") }

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
        public static var invalidValue: Self { Self("invalidValue") }

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
        public static var duplicateKey: Self { Self("duplicateKey") }

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
        public static var conflictingKeys: Self { Self("conflictingKeys") }

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
        public static var invalidKey: Self { Self("invalidKey") }

        /// A required key has no value.
        ///
        /// Raised by ``Properties/requireProperty(_:as:)`` and by
        /// ``Properties/decodeProperties(_:forKey:)`` for non-optional fields.
        ///
        /// ```swift
        /// try properties.requireProperty("port", as: Int.self) // throws .missingKey if absent
        /// ```
        public static var missingKey: Self { Self("missingKey") }

        /// A value exists but does not convert to the requested type.
        ///
        /// The message names the expected type and the kind of value found.
        ///
        /// ```swift
        /// // {"port": true}
        /// try properties.requireProperty("port", as: Int.self)
        /// // Type mismatch in settings.json (key "port"): expected Int, found a bool
        /// ```
        public static var typeMismatch: Self { Self("typeMismatch") }

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
        public static var decodingFailed: Self { Self("decodingFailed") }

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
        public static var loadFailed: Self { Self("loadFailed") }
    }
}
