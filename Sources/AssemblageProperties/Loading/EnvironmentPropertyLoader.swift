import Assemblage
public import Foundation

/// A loader that reads environment variables sharing a prefix, and maps their names to key paths.
///
/// Only variables whose names start with `prefix` (case-sensitively) are loaded, and the prefix is removed.
/// With the default ``KeyMapping/keyPath`` mapping, the rest of the name becomes a dotted key path:
///
/// | variable (prefix `APP_`) | key path |
/// |---|---|
/// | `APP_PORT` | `port` |
/// | `APP_SERVER_PORT` | `server.port` |
/// | `APP_DB__POOL_SIZE` | `db_pool.size` |
/// | `APP_DB_POOL__SIZE` | `db.pool_size` |
///
/// - A single `_` separates components; a double `__` stands for one literal `_` inside a component (in a
///   run of underscores, pairs are read first: `A___B` is `a_.b`).
/// - Components are lower-cased. When the properties are merged, a component matches an existing key
///   ignoring case, so `APP_SERVER_MAXCONNECTIONS` overrides `server.maxConnections` from a file.
/// - A name that leaves an empty component (`APP_`, `APP_SERVER_`, `APP__`… with a lone leading or trailing
///   `_`) does not map to a key, and the variable is skipped. ``keyPath(forVariableName:)`` gives the mapping
///   of one name.
///
/// The loader overrides single nested values (its ``mergeBehavior`` is
/// ``PropertyMergeBehavior/overridingKeyPaths``): a JSON file's `{"server": {"host": "a", "port": 80}}` merged
/// with `APP_SERVER_PORT=9090` gives `server.port` 9090 and keeps `server.host`, for
/// ``Properties/property(_:as:)`` and ``Properties/decodeProperties(_:forKey:)`` alike.
///
/// Two variables of one loader must not map to the same key path (`APP_PORT` and `APP_port`:
/// `duplicateKey`) nor one to a component of the other's path (`APP_DB` and `APP_DB_HOST`:
/// `conflictingKeys`, since `db` cannot be a value and a dictionary at once). The error
/// names both variables. Such clashes are common in the whole environment of a process (`TERM` and
/// `TERM_PROGRAM`), so load it with a prefix, or with ``KeyMapping/verbatim``.
///
/// ``KeyMapping/verbatim`` keeps the previous behaviour: the name after the prefix is the key, as is
/// (`APP_SERVER_PORT` is the top-level key `SERVER_PORT`), merged as a top-level key.
///
/// Every value loads as ``PropertyValue/string(_:)``. The typed readers convert strings on demand, so `"8080"`
/// reads as `Int` 8080, `"true"` as `Bool`, an ISO 8601 string as `Date`; see ``PropertyValue`` for the exact
/// rules. ``Properties/decodeProperties(_:forKey:)`` applies the same rules.
///
/// The environment is captured when the loader is created, which makes the loader a plain value and easy to
/// test:
///
/// ```swift
/// let loader = EnvironmentPropertyLoader(prefix: "APP_")
/// try properties.merge(loader: loader)       // APP_SERVER_PORT overrides server.port
/// let port = properties.property("server.port", as: Int.self)
///
/// let fake = EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_SERVER_PORT": "1"])
/// ```
public struct EnvironmentPropertyLoader: PropertyLoader {
    /// How a variable's name becomes a key.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_", keyMapping: .verbatim)   // APP_SERVER_PORT → "SERVER_PORT"
    /// ```
    public struct KeyMapping: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// `SERVER_PORT` → `server.port`, merged as an override of that one nested value (the default).
        ///
        /// See ``EnvironmentPropertyLoader`` for the rules.
        ///
        /// ```swift
        /// EnvironmentPropertyLoader(prefix: "APP_")   // keyMapping: .keyPath
        /// ```
        public static let keyPath = KeyMapping("keyPath")

        /// The name after the prefix is the key, unchanged (`SERVER_PORT`), merged as a top-level key.
        ///
        /// No two variables can clash, so this also loads a whole environment.
        ///
        /// ```swift
        /// EnvironmentPropertyLoader(prefix: "", keyMapping: .verbatim)   // PATH, HOME, TERM, TERM_PROGRAM…
        /// ```
        public static let verbatim = KeyMapping("verbatim")

        /// The mapping's name, `keyPath` or `verbatim`.
        ///
        /// ```swift
        /// print(EnvironmentPropertyLoader.KeyMapping.verbatim)   // verbatim
        /// ```
        public var description: String { name }
    }

    /// The prefix variables must start with.
    ///
    /// An empty prefix loads every variable.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_").prefix // "APP_"
    /// ```
    public var prefix: String

    /// Whether the prefix is removed before the name is mapped to a key.
    ///
    /// Keep the prefix when several prefixes share one ``Properties`` value and the keys must stay distinct.
    ///
    /// ```swift
    /// // APP_PORT=1 → key "port" when true, "app.port" when false
    /// ```
    public var stripPrefix: Bool

    /// How names become keys: ``KeyMapping/keyPath`` (the default) or ``KeyMapping/verbatim``.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_").keyMapping // .keyPath
    /// ```
    public var keyMapping: KeyMapping

    /// The variables captured at creation.
    ///
    /// Later changes to the process environment do not affect the loader; create a new loader to pick them up.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "", environment: ["A": "1"]).environment // ["A": "1"]
    /// ```
    public var environment: [String: String]

    /// Creates a loader for variables starting with `prefix`.
    ///
    /// ```swift
    /// let loader = EnvironmentPropertyLoader(prefix: "MYAPP_")
    /// let legacy = EnvironmentPropertyLoader(prefix: "MYAPP_", keyMapping: .verbatim)
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: The case-sensitive prefix selecting variables.
    ///   - environment: The variables to read; defaults to the current process environment, captured now.
    ///   - stripPrefix: Whether to remove the prefix before mapping the name.
    ///   - keyMapping: How names become keys; ``KeyMapping/keyPath`` by default.
    public init(
        prefix: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        stripPrefix: Bool = true,
        keyMapping: KeyMapping = .keyPath
    ) {
        self.prefix = prefix
        self.environment = environment
        self.stripPrefix = stripPrefix
        self.keyMapping = keyMapping
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
        "environment variables with prefix \(prefix.jsonStringLiteral)"
    }

    /// ``PropertyMergeBehavior/overridingKeyPaths`` with the ``KeyMapping/keyPath`` mapping,
    /// ``PropertyMergeBehavior/replacingTopLevelKeys`` with ``KeyMapping/verbatim``.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader(prefix: "APP_").mergeBehavior   // .overridingKeyPaths
    /// ```
    public var mergeBehavior: PropertyMergeBehavior {
        keyMapping == .verbatim ? .replacingTopLevelKeys : .overridingKeyPaths
    }

    /// Returns the matching variables as string values, keyed by dotted key path (or by name, with
    /// ``KeyMapping/verbatim``).
    ///
    /// ```swift
    /// try EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_SERVER_PORT": "1", "Y": "2"]).load()
    /// // ["server.port": .string("1")]
    /// ```
    ///
    /// - Returns: One ``PropertyValue/string(_:)`` per matching variable whose name maps to a key.
    /// - Throws: With ``KeyMapping/keyPath``, a ``PropertyError`` naming both variables when two of them map
    ///   to the same key path (`duplicateKey`) or one maps to a component of the other's
    ///   path (`conflictingKeys`). Never with ``KeyMapping/verbatim``.
    public func load() throws -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        guard keyMapping != .verbatim else {
            for (name, value) in environment where name.hasPrefix(prefix) {
                let key = stripPrefix ? String(name.dropFirst(prefix.count)) : name
                guard !key.isEmpty else { continue }
                values[key] = .string(value)
            }
            return values
        }
        var variables: [String: String] = [:]  // key path -> the variable that set it
        // Sorted, so that which of two clashing variables an error names first does not depend on hashing.
        for name in environment.keys.sorted() where name.hasPrefix(prefix) {
            let rest = stripPrefix ? String(name.dropFirst(prefix.count)) : name
            guard let keyPath = Self.keyPath(forVariableName: rest), let value = environment[name] else { continue }
            if let earlier = variables[keyPath] {
                throw PropertyError(
                    code: .duplicateKey, source: sourceDescription, keyPath: keyPath,
                    message: "\(earlier) and \(name) both map to this key path; remove one of them")
            }
            variables[keyPath] = name
            values[keyPath] = .string(value)
        }
        for (keyPath, name) in variables.sorted(by: { $0.key < $1.key }) {
            var prefixPath = ""
            for component in keyPath.split(separator: ".").dropLast() {
                prefixPath += prefixPath.isEmpty ? String(component) : "." + component
                guard let parent = variables[prefixPath] else { continue }
                throw PropertyError(
                    code: .conflictingKeys, source: sourceDescription, keyPath: prefixPath,
                    message: "\(parent) sets a value for this key, and \(name) sets \"\(keyPath)\" inside it; "
                        + "a key cannot hold a value and nested keys at once (rename one of the variables, "
                        + "or load with keyMapping: .verbatim)")
            }
        }
        return values
    }

    /// The dotted key path that a variable's name maps to (the name given without the prefix), or `nil` when
    /// it maps to none.
    ///
    /// A single `_` separates components, a double `__` is one literal `_`, components are lower-cased, and a
    /// name that leaves an empty component maps to no key. A `.` in a name is kept, and so separates
    /// components of the path as well.
    ///
    /// ```swift
    /// EnvironmentPropertyLoader.keyPath(forVariableName: "SERVER_PORT")     // "server.port"
    /// EnvironmentPropertyLoader.keyPath(forVariableName: "DB__POOL_SIZE")   // "db_pool.size"
    /// EnvironmentPropertyLoader.keyPath(forVariableName: "SERVER_")         // nil
    /// ```
    ///
    /// - Parameter name: The variable's name after the prefix.
    /// - Returns: The key path, or `nil`.
    public static func keyPath(forVariableName name: String) -> String? {
        var components: [String] = []
        var current = ""
        var index = name.startIndex
        while index < name.endIndex {
            let character = name[index]
            let next = name.index(after: index)
            if character == "_" {
                if next < name.endIndex, name[next] == "_" {
                    current.append("_")
                    index = name.index(after: next)
                } else {
                    components.append(current)
                    current = ""
                    index = next
                }
                continue
            }
            current.append(character)
            index = next
        }
        components.append(current)
        guard !components.contains(where: \.isEmpty) else { return nil }
        let keyPath = components.map { $0.lowercased() }.joined(separator: ".")
        return keyPath.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            ? nil : keyPath
    }
}
