/// Why a service could not be resolved.
///
/// Thrown by the throwing API (``Resolver/require(_:name:)`` and its argument forms); the optional API
/// (`resolve`) returns `nil` for the same failures. The error names the service, the resolution path that
/// led to it and, for a missing registration, the registrations that nearly matched:
///
/// ```swift
/// do {
///     let app = try container.require(App.self)
/// } catch let error as ResolutionError {
///     print(error)
///     // No registration for Database (name: "primary").
///     //   Resolution path: App → Repository → Database (name: "primary")
///     //   Registered for Database: Database (name: "replica"), Database (arguments: URL)
/// }
/// ```
public struct ResolutionError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let raw: String
        /// No registration matches the requested type, name and argument types.
        public static let notRegistered = Code(raw: "notRegistered")
        /// The factories form a cycle that no `initCompleted` or `Lazy`/`Provider` breaks.
        public static let cycle = Code(raw: "cycle")
        /// A factory, an `initCompleted` step or a decorator threw.
        public static let factoryFailed = Code(raw: "factoryFailed")
        /// Resolution went deeper than the container's depth limit.
        public static let depthLimitExceeded = Code(raw: "depthLimitExceeded")
        /// The registration is `async` and was resolved synchronously; use `try await resolveAsync(…)`.
        public static let requiresAsync = Code(raw: "requiresAsync")
        /// The registration is isolated to the main actor and was resolved synchronously off it.
        public static let requiresMainActor = Code(raw: "requiresMainActor")
        /// A `.multiton` registration was resolved with an argument that is not `Hashable`.
        public static let argumentsNotHashable = Code(raw: "argumentsNotHashable")
        /// A factory returned a value of the wrong type (only possible through type-erased APIs).
        public static let typeMismatch = Code(raw: "typeMismatch")
        /// A `.scoped` registration was resolved through a container, not through a ``Scope``.
        public static let noActiveScope = Code(raw: "noActiveScope")
        /// A `.scoped` registration was resolved through a scope that has ended.
        public static let scopeEnded = Code(raw: "scopeEnded")
        /// A `.scoped` registration was resolved while a longer-lived instance (`.container`, `.singleton`, …) was
        /// being made: that instance would keep one scope's value for every later scope.
        public static let captiveDependency = Code(raw: "captiveDependency")
        /// A value declared with ``Container/registerScopedValue(_:name:validationValue:file:line:)`` was resolved in
        /// a scope that did not provide it.
        public static let scopedValueNotProvided = Code(raw: "scopedValueNotProvided")
        /// The short name of the code.
        public var description: String { raw }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The key that failed: the service type, name and argument types.
    public let key: ServiceKey
    /// The chain of services being constructed when the failure happened, outermost first, ending with ``key``.
    public let path: [ServiceKey]
    /// For ``Code/cycle``: the services that form the cycle, first repeated at the end (`A → B → A`).
    public let cycle: [ServiceKey]
    /// For ``Code/notRegistered``: registrations of the same type under another name or argument list.
    public let nearMisses: [ServiceKey]
    /// For ``Code/notRegistered``: what would make the service resolvable, when Assemblage can tell — a
    /// registration of a conforming type that lacks `.implements(…)`, the module that registers the service
    /// but is not a dependency, `[T]` asked for while `T` has only plain registrations. Built only when
    /// resolution fails; each is one sentence that names the fix, and ``description`` lists them.
    public let suggestions: [String]
    /// For ``Code/factoryFailed``: what the factory threw, described.
    public let underlyingDescription: String?
    /// For ``Code/factoryFailed``: what the factory threw.
    public let underlying: (any Error)?

    init(code: Code, key: ServiceKey, path: [ServiceKey], cycle: [ServiceKey] = [],
         nearMisses: [ServiceKey] = [], suggestions: [String] = [], underlying: (any Error)? = nil) {
        self.code = code
        self.key = key
        self.path = path
        self.cycle = cycle
        self.nearMisses = nearMisses
        self.suggestions = suggestions
        self.underlying = underlying
        self.underlyingDescription = underlying.map { String(describing: $0) }
    }

    /// The resolution path as text: `App → Manager → Service`.
    public var pathDescription: String { path.map(\.description).joined(separator: " → ") }

    /// A complete, readable account of the failure.
    public var description: String {
        var lines: [String] = []
        switch code {
        case .notRegistered:
            lines.append("No registration for \(key).")
        case .cycle:
            lines.append("Circular dependency: \(cycle.map(\.description).joined(separator: " → ")).")
            lines.append("  Break it with initCompleted (property injection) or by resolving Lazy/Provider.")
        case .factoryFailed:
            lines.append("The factory for \(key) failed: \(underlyingDescription ?? "unknown error").")
        case .depthLimitExceeded:
            lines.append("Resolving \(key) went deeper than \(path.count - 1) nested resolutions.")
        case .requiresAsync:
            lines.append("\(key) has an async factory; resolve it with `try await resolver.resolveAsync(…)`.")
        case .requiresMainActor:
            lines.append("\(key) is isolated to the main actor; resolve it on the main actor "
                + "or with `try await resolver.resolveAsync(…)`.")
        case .typeMismatch:
            lines.append("The factory for \(key) produced a value of another type.")
        case .argumentsNotHashable:
            lines.append("\(key) is in the multiton scope, which keeps one instance per argument value, "
                + "but an argument is not Hashable: \(underlyingDescription ?? "").")
        case .noActiveScope:
            lines.append("\(key) is .scoped, so it lives in a scope, but it was resolved through a container. Resolve it "
                + "through a Scope (container.withScope { scope in try scope.require(…) }).")
        case .scopeEnded:
            lines.append("\(key) is .scoped and was resolved through a scope that has ended.")
        case .captiveDependency:
            lines.append("Captive dependency: \(key) is .scoped, but it was resolved while a longer-lived instance "
                + "was being made.")
        case .scopedValueNotProvided:
            lines.append("\(key) is a scoped value, but this scope did not provide it: call "
                + "scope.provide(…) before resolving what needs it.")
        default:
            lines.append("Resolving \(key) failed (\(code)).")
        }
        // A cycle's path is worth printing only when it reaches the cycle from further out.
        if path.count > 1, code != .cycle || path != cycle { lines.append("  Resolution path: \(pathDescription)") }
        if code == .notRegistered {
            if nearMisses.isEmpty {
                lines.append("  Nothing is registered for \(_typeName(key.serviceType, qualified: false)) "
                    + "under any name or argument list.")
            } else {
                lines.append("  Registered for \(_typeName(key.serviceType, qualified: false)): "
                    + nearMisses.map(\.description).joined(separator: ", "))
            }
            for suggestion in suggestions { lines.append("  Fix: \(suggestion)") }
        } else {
            for suggestion in suggestions { lines.append("  \(suggestion)") }
        }
        return lines.joined(separator: "\n")
    }

    /// Errors are equal when their code, key, path and cycle are equal.
    public static func == (lhs: ResolutionError, rhs: ResolutionError) -> Bool {
        lhs.code == rhs.code && lhs.key == rhs.key && lhs.path == rhs.path && lhs.cycle == rhs.cycle
            && lhs.nearMisses == rhs.nearMisses && lhs.underlyingDescription == rhs.underlyingDescription
    }
}
