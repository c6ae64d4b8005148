#if canImport(FoundationEssentials)
import FoundationEssentials  // LocalizedError's defaults, which the AssemblageError conformance uses
#else
import Foundation
#endif

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
public struct ResolutionError: AssemblageError, Equatable {
    /// What kind of failure this is.
    public let code: Code
    /// The key that failed: the service type, name and argument types.
    public let key: ServiceKey
    /// The chain of services being constructed when the failure happened, outermost first, ending with ``key``.
    public let path: [ServiceKey]
    /// For ``ResolutionError/Code/cycle``: the services that form the cycle, first repeated at the end (`A → B → A`).
    public let cycle: [ServiceKey]
    /// For ``ResolutionError/Code/notRegistered``: registrations of the same type under another name or argument list.
    public let nearMisses: [ServiceKey]
    /// For ``ResolutionError/Code/notRegistered``: what would make the service resolvable, when Assemblage can tell — a
    /// registration of a conforming type that lacks `.implements(…)`, the module that registers the service
    /// but is not a dependency, `[T]` asked for while `T` has only plain registrations. Built only when
    /// resolution fails; each is one sentence that names the fix, and ``description`` lists them.
    public let suggestions: [String]
    /// For ``ResolutionError/Code/captiveDependency``: the longer-lived service (`.container`, `.singleton`, …) whose making
    /// needed ``key``, a `.scoped` one.
    public let holder: ServiceKey?
    /// For ``ResolutionError/Code/factoryFailed``: what the factory threw, described.
    public let underlyingDescription: String?
    /// For ``ResolutionError/Code/factoryFailed``: what the factory threw.
    public let underlying: (any Error)?

    init(
        code: Code, key: ServiceKey, path: [ServiceKey], cycle: [ServiceKey] = [],
        nearMisses: [ServiceKey] = [], holder: ServiceKey? = nil, suggestions: [String] = [],
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.key = key
        self.path = path
        self.cycle = cycle
        self.holder = holder
        self.nearMisses = nearMisses
        self.suggestions = suggestions
        self.underlying = underlying
        self.underlyingDescription = underlying.map { String(describing: $0) }
    }

    /// The same error with `old` written as `new` wherever it appears as the key, in the path or in the cycle.
    func replacingKey(_ old: ServiceKey, with new: ServiceKey) -> ResolutionError {
        func swap(_ key: ServiceKey) -> ServiceKey { key == old ? new : key }
        return ResolutionError(
            code: code, key: swap(key), path: path.map(swap), cycle: cycle.map(swap),
            nearMisses: nearMisses, holder: holder.map(swap), suggestions: suggestions,
            underlying: underlying)
    }

    /// The resolution path as text: `App → Manager → Service`.
    public var pathDescription: String { path.map(\.description).joined(separator: " → ") }

    /// What failed, in one sentence.
    public var summary: String {
        switch code {
        case .notRegistered:
            return "No registration for \(key)."
        case .cycle:
            return "Circular dependency: \(cycle.map(\.description).joined(separator: " → "))."
        case .factoryFailed:
            if causeHasLinesOfItsOwn { return "The factory for \(key) failed." }
            return "The factory for \(key) failed: \(underlyingDescription ?? "unknown error")."
        case .depthLimitExceeded:
            return "Resolving \(key) went deeper than \(path.count - 1) nested resolutions."
        case .requiresAsync:
            return "\(key) has an async factory; resolve it with `try await resolver.resolveAsync(…)`."
        case .requiresMainActor:
            return "\(key) is isolated to the main actor; resolve it on the main actor "
                + "or with `try await resolver.resolveAsync(…)`."
        case .typeMismatch:
            return "The factory for \(key) produced a value of another type."
        case .argumentsNotHashable:
            return "\(key) is in the multiton scope, which keeps one instance per argument value, "
                + "but an argument is not Hashable: \(underlyingDescription ?? "")."
        case .noActiveScope:
            return "\(key) is .scoped, so it lives in a scope, but it was resolved through a container. Resolve it "
                + "through a Scope (container.withScope { scope in try scope.require(…) }); a longer-lived service "
                + "that needs it takes the scope as a call parameter."
        case .scopeEnded:
            return "\(key) was resolved through a scope that has ended."
        case .captiveDependency:
            if let holder {
                return "Captive dependency: \(holder) lives longer than any scope, but making it needs \(key), "
                    + "which is .scoped."
            }
            return "Captive dependency: \(key) is .scoped, but it was resolved while a longer-lived instance "
                + "was being made."
        case .containerShutDown:
            return "\(key) was resolved after its container was shut down."
        case .scopedValueNotProvided:
            return "\(key) is a scoped value, but this scope did not provide it: call "
                + "scope.provide(…) before resolving what needs it."
        case .injectionNotRegistered:
            return "No injection is registered for \(key)."
        case .unusedArgument:
            return "\(key) was given a runtime argument that no parameter of its autoregistered initializer takes."
        case .abstractRegistrationNotProvided:
            return "\(key) is an abstract registration that no module of the graph provides."
        default:
            return "Resolving \(key) failed (\(code))."
        }
    }

    /// The lines under the summary: what the factory threw (when it does not fit the summary), the resolution
    /// path (for a cycle, only when it reaches the cycle from further out), what is registered instead, and how
    /// to fix it.
    public var details: [ErrorDetail] {
        var details: [ErrorDetail] = []
        if causeHasLinesOfItsOwn, let underlying { details.append(.cause(describing: underlying)) }
        if code == .cycle {
            details.append(
                ErrorDetail("Break it with initCompleted (property injection) or by resolving Lazy/Provider."))
        }
        if path.count > 1, code != .cycle || path != cycle {
            details.append(ErrorDetail("Resolution path", pathDescription))
        }
        if code == .injectionNotRegistered {
            details += suggestions.map { ErrorDetail("Fix", $0) }
        } else if code == .notRegistered {
            let type = _typeName(key.serviceType, qualified: false)
            details.append(
                nearMisses.isEmpty
                    ? ErrorDetail("Nothing is registered for \(type) under any name or argument list.")
                    : ErrorDetail("Registered for \(type)", nearMisses.map(\.description).joined(separator: ", ")))
            details += suggestions.map { ErrorDetail("Fix", $0) }
        } else {
            details += suggestions.map { ErrorDetail($0) }
        }
        return details
    }

    /// Whether what the factory threw goes on a `Cause:` line of its own rather than at the end of the summary: when
    /// it is an ``AssemblageError`` (its details then follow it) or its description has several lines.
    private var causeHasLinesOfItsOwn: Bool {
        guard code == .factoryFailed, let underlying else { return false }
        return underlying is any AssemblageError || underlyingDescription?.contains("\n") == true
    }

    /// Errors are equal when their code, key, path and cycle are equal.
    public static func == (lhs: ResolutionError, rhs: ResolutionError) -> Bool {
        lhs.code == rhs.code && lhs.key == rhs.key && lhs.path == rhs.path && lhs.cycle == rhs.cycle
            && lhs.nearMisses == rhs.nearMisses && lhs.underlyingDescription == rhs.underlyingDescription
    }
}

extension ResolutionError {
    /// The kinds of ``ResolutionError``.
    ///
    /// New codes may be added: match with `==`, or switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"notRegistered"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// No registration matches the requested type, name and argument types.
        public static var notRegistered: Self { Self("notRegistered") }
        /// The factories form a cycle that no `initCompleted` or `Lazy`/`Provider` breaks.
        public static var cycle: Self { Self("cycle") }
        /// A factory, an `initCompleted` step or a decorator threw.
        public static var factoryFailed: Self { Self("factoryFailed") }
        /// Resolution went deeper than the container's depth limit.
        public static var depthLimitExceeded: Self { Self("depthLimitExceeded") }
        /// The registration is `async` and was resolved synchronously; use `try await resolveAsync(…)`.
        public static var requiresAsync: Self { Self("requiresAsync") }
        /// The registration is isolated to the main actor and was resolved synchronously off it.
        public static var requiresMainActor: Self { Self("requiresMainActor") }
        /// A `.multiton` registration was resolved with an argument that is not `Hashable`.
        public static var argumentsNotHashable: Self { Self("argumentsNotHashable") }
        /// A factory returned a value of the wrong type (only possible through type-erased APIs).
        public static var typeMismatch: Self { Self("typeMismatch") }
        /// A `.scoped` registration was resolved through a container, not through a ``Scope``.
        public static var noActiveScope: Self { Self("noActiveScope") }
        /// A registration was resolved through a scope that has ended.
        public static var scopeEnded: Self { Self("scopeEnded") }
        /// A `.scoped` registration was resolved while a longer-lived instance (`.container`, `.singleton`, …) was
        /// being made: that instance would keep one scope's value for every later scope.
        public static var captiveDependency: Self { Self("captiveDependency") }
        /// The container was shut down (``Container/shutdown()``): it, and every scope made from it, makes
        /// nothing more.
        public static var containerShutDown: Self { Self("containerShutDown") }
        /// A value declared with ``Container/registerScopedValue(_:name:validationValue:file:line:)`` was resolved in
        /// a scope that did not provide it.
        public static var scopedValueNotProvided: Self { Self("scopedValueNotProvided") }
        /// An autoregistered initializer has no parameter left for one of the runtime arguments it was resolved
        /// with (see ``Container/autoregister(_:name:arguments:_:file:line:initializer:)``).
        public static var unusedArgument: Self { Self("unusedArgument") }
        /// ``Resolver/inject(into:name:)`` found no injection registered for the object's type and name (see
        /// ``Container/registerInjection(for:name:file:line:_:)``).
        public static var injectionNotRegistered: Self { Self("injectionNotRegistered") }
        /// A placeholder stood in for an abstract registration that no module provides (see
        /// `Container.registerAbstract(_:name:file:line:)` and ``OverrideBehavior/usesAbstractPlaceholders``).
        public static var abstractRegistrationNotProvided: Self { Self("abstractRegistrationNotProvided") }
    }
}
