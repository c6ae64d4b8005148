/// Everything ``Container/validate(_:)`` found wrong (or worth knowing) about an object graph, at once.
///
/// A report is a value: print it, inspect its ``issues``, or fail a test when ``isValid`` is `false`.
///
/// ```swift
/// let report = container.validate()
/// if !report.isValid { print(report) }
/// // 2 errors, 1 warning (14 registrations checked)
/// // error: missing registration: No registration for Database. Resolution path: App → Repository → Database. …
/// // error: cycle: Circular dependency: A → B → A.
/// // warning: captive dependency: Cache (container) holds Request (transient): Cache → Request
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// Every problem found, errors first, then warnings, then notes; each group in the order found.
    public let issues: [ValidationIssue]
    /// How many registrations were resolved in the sandbox.
    public let checkedCount: Int
    /// The registration graph that validation recorded.
    public let graph: DependencyGraph

    /// A report over `issues` in the order found; they are kept errors first, then warnings, then notes.
    init(issues: [ValidationIssue], checkedCount: Int, graph: DependencyGraph) {
        self.issues = issues.enumerated()
            .sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)
        self.checkedCount = checkedCount
        self.graph = graph
    }

    /// `true` when there is no error (warnings and notes do not count).
    public var isValid: Bool { !issues.contains { $0.severity == .error } }
    /// The issues of severity ``ValidationIssue/Severity/error``.
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }
    /// The issues of severity ``ValidationIssue/Severity/warning``.
    public var warnings: [ValidationIssue] { issues.filter { $0.severity == .warning } }

    /// The issues of one kind.
    ///
    /// - Parameter kind: The kind.
    /// - Returns: The matching issues.
    public func issues(of kind: ValidationIssue.Kind) -> [ValidationIssue] { issues.filter { $0.kind == kind } }

    /// A summary line, then one line per issue.
    public var description: String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let notes = issues.count - errors.count - warnings.count
        var lines = [
            "\(count(errors.count, "error")), \(count(warnings.count, "warning")), "
                + "\(count(notes, "note")) (\(count(checkedCount, "registration")) checked)"
        ]
        lines += issues.map(\.description)
        return lines.joined(separator: "\n")
    }
}

/// One finding of validation.
public struct ValidationIssue: Sendable, CustomStringConvertible, Equatable {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Comparable {
        /// The graph cannot be resolved as registered.
        case error
        /// The graph resolves, but probably not as intended.
        case warning
        /// Worth knowing; nothing is wrong.
        case note

        private var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
        /// Errors sort before warnings, warnings before notes.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// What kind of finding this is. New kinds may be added; switch with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let raw: String
        /// A registration needs a service that nothing registers.
        public static let missingRegistration = Kind(raw: "missing registration")
        /// Factories need each other in a cycle nothing breaks.
        public static let cycle = Kind(raw: "cycle")
        /// A factory, step or decorator threw.
        public static let factoryFailed = Kind(raw: "factory failed")
        /// A longer-lived service holds a shorter-lived one.
        public static let captiveDependency = Kind(raw: "captive dependency")
        /// A registration silently replaced an earlier one under the same key.
        public static let replacedRegistration = Kind(raw: "replaced registration")
        /// A registration is hidden by one under the same key in a container searched first.
        public static let shadowedRegistration = Kind(raw: "shadowed registration")
        /// A registration needs runtime arguments and no sample arguments were supplied.
        public static let notChecked = Kind(raw: "not checked")
        /// A decorator matches no registration.
        public static let unmatchedDecorator = Kind(raw: "unmatched decorator")
        /// A module resolves something registered only by a module it does not depend on.
        public static let undeclaredDependency = Kind(raw: "undeclared module dependency")
        /// A module override replaces no module of the tree.
        public static let unusedOverride = Kind(raw: "unused override")
        /// A synchronous path reaches a main-actor or async factory.
        public static let isolation = Kind(raw: "isolation")
        /// Any other resolution failure.
        public static let resolutionFailed = Kind(raw: "resolution failed")
        /// The kind's name.
        public var description: String { raw }
    }

    /// How serious the finding is.
    public let severity: Severity
    /// What kind of finding it is.
    public let kind: Kind
    /// The registration concerned, if one is.
    public let key: ServiceKey?
    /// The chain of services leading to the problem, outermost first.
    public let path: [ServiceKey]
    /// What was found: a first line that says what is wrong, then (for a failure) the error's further lines — the
    /// resolution path, the fix — each on a line of its own.
    public let message: String
    /// For a failure (a missing registration, a cycle, a failing factory): every registration validation
    /// resolved that fails because of it, in the order resolved. One missing registration that a chain of
    /// a thousand registrations needs is one issue with a thousand affected registrations, not a thousand issues.
    ///
    /// ```swift
    /// for issue in report.errors {
    ///     print(issue.key.map { "\($0)" } ?? "?", "breaks", issue.affected.count, "registrations")
    /// }
    /// ```
    public let affected: [ServiceKey]

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - severity: How serious it is.
    ///   - kind: What kind of finding it is.
    ///   - key: The registration concerned.
    ///   - path: The chain of services leading to it.
    ///   - message: A complete sentence.
    ///   - affected: The registrations that fail because of it.
    public init(
        severity: Severity, kind: Kind, key: ServiceKey?, path: [ServiceKey] = [], message: String,
        affected: [ServiceKey] = []
    ) {
        self.severity = severity
        self.kind = kind
        self.key = key
        self.path = path
        self.message = message
        self.affected = affected
    }

    /// An error's description as the lines of a finding, blank lines dropped.
    static func lines(_ text: String) -> String {
        text.split(separator: "\n").filter { !$0.allSatisfy { $0 == " " } }.joined(separator: "\n")
    }

    /// `error: missing registration: …` on the first line; the message's further lines (the resolution path, the
    /// fix, what else fails because of it) each on a line of its own beneath, indented (by two spaces, or as the
    /// error indented them).
    public var description: String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { return "\(severity.rawValue): \(kind):" }
        return
            (["\(severity.rawValue): \(kind): \(first)"] + lines.dropFirst().map { $0.hasPrefix(" ") ? $0 : "  \($0)" })
            .joined(separator: "\n")
    }
}
