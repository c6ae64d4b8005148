/// Resolves services; what factories, assemblies and the app see of a container.
///
/// A `Resolver` can resolve but not register. Every resolve comes in two forms: an optional one that
/// returns `nil` when the service cannot be made (as in Swinject), and a throwing one, `require`, that
/// says exactly why:
///
/// ```swift
/// container.register(Engine.self) { _ in V8() }
/// container.register(Car.self) { r in Car(engine: try r.require(Engine.self)) }
///
/// let car = container.resolve(Car.self)          // Car?
/// let same = try container.require(Car.self)     // Car, or a ResolutionError naming the missing piece
/// ```
///
/// Every resolver is safe to use from any thread. The resolver a factory receives is the container the
/// resolution started from; it stays valid after the factory returns.
///
/// ## A resolver of your own
/// Test doubles and wrappers may conform, as in Swinject: implement the `resolve` methods of
/// `_ResolverRequirements` (Swinject's twenty), and code that resolves through the protocol calls them. The
/// resolver must be `Sendable` (a final class whose state is immutable or guarded by a lock). APIs that need a
/// container (collections, properties, async resolution) throw ``ResolutionError`` for such a resolver, and
/// `require` throws ``ResolutionError/Code/notRegistered`` when its `resolve` returns `nil`.
public protocol Resolver: _ResolverRequirements, Sendable {
    /// The identity of the Assemblage container resolutions through this resolver start from, which the
    /// resolver keeps alive, or `nil` for a resolver of your own.
    ///
    /// An identity, not a reference, so that a nested resolve inside a factory touches no shared reference count
    /// (the resolve path reaches the container unowned, see `_fastContainer`). Leave the default (`nil`) in your
    /// own resolvers.
    @_documentation(visibility: internal)
    var _containerIdentity: ObjectIdentifier? { get }
}

extension Resolver {
    /// `nil`: a resolver of your own has no container behind it.
    @_documentation(visibility: internal)
    public var _containerIdentity: ObjectIdentifier? { nil }

    /// The container resolutions through this resolver start from, or `nil` for a resolver of your own (users
    /// write `resolver as? Container`, which gives the same; this reads it without a dynamic cast).
    package var _container: Container? { _fastContainer?.object }

    /// The container behind this resolver, or the error an Assemblage-only API gives a resolver of your own.
    @usableFromInline
    package func _requireContainer(for operation: String) throws(ResolutionError) -> Container {
        if let container = _container { return container }
        let key = ServiceKey(serviceType: type(of: self), argumentsType: Void.self, name: nil, argumentCount: 0)
        throw ResolutionError(
            code: .factoryFailed, key: key, path: [key],
            underlying: _NotAContainer(resolverType: type(of: self), operation: operation))
    }
}

/// The failure of an Assemblage-only API called on a resolver that is not backed by a container.
struct _NotAContainer: Error, CustomStringConvertible {
    let resolverType: Any.Type
    let operation: String
    var description: String {
        "\(resolverType) is a Resolver of your own, not an Assemblage Container: \(operation) needs a container. "
            + "Pass a Container (or a child of one) where \(operation) is used"
    }
}

extension Container: Resolver {
    /// The container itself.
    @_documentation(visibility: internal) @inlinable
    public var _containerIdentity: ObjectIdentifier? { ObjectIdentifier(self) }
}

/// Calls a resolver of your own, through the requirement it implements (out of line: the fast path of a
/// container never comes here).
///
/// A type that does not implement a requirement gets the `Resolver` extension method as its implementation,
/// which would call back here for ever; the same call (same resolver, method and service type) arriving again
/// on this thread before the first returns is that case, and resolves to `nil`.
@usableFromInline
func _foreignResolve<Service>(
    _ resolver: any _ResolverRequirements, _: Service.Type, method: Int,
    _ call: (any _ResolverRequirements) -> Service?
) -> Service? {
    let token = _ForeignCall(
        resolver: ObjectIdentifier(resolver), method: method, service: ObjectIdentifier(Service.self))
    let state = _ResolutionState.currentState
    if state.foreignCalls.contains(token) { return nil }
    state.foreignCalls.append(token)
    defer { state.foreignCalls.removeLast() }
    return call(resolver)
}

/// One call into a resolver of your own that is in progress on this thread.
struct _ForeignCall: Equatable {
    let resolver: ObjectIdentifier
    let method: Int
    let service: ObjectIdentifier
}

// MARK: - Optional API (Swinject-compatible)

// The methods for 0 to 9 arguments are generated: Resolver+ResolveArities.swift (and the requirements a resolver
// of your own implements, Resolver+Requirements.swift).

extension Resolver {
    /// Resolves a registration that takes any number of runtime arguments, in the order the factory declares them.
    ///
    /// ```swift
    /// let report = resolver.resolve(Report.self, arguments: user, period, format, locale)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - arguments: The arguments passed to the factory.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, each Arg>(_ serviceType: Service.Type, arguments: repeat each Arg) -> Service? {
        guard let container = _fastContainer else { return nil }
        return try? container.with {
            try $0._resolvePack(Service.self, name: nil, repeat each arguments)
        }
    }

    /// Resolves a named registration that takes any number of runtime arguments.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - arguments: The arguments passed to the factory.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, each Arg>(
        _ serviceType: Service.Type, name: String?,
        arguments: repeat each Arg
    ) -> Service? {
        guard let container = _fastContainer else { return nil }
        return try? container.with {
            try $0._resolvePack(Service.self, name: name, repeat each arguments)
        }
    }
}

// MARK: - Throwing API

extension Resolver {
    // `require` for 0 to 3 arguments is generated: Resolver+RequireArities.swift.

    /// Resolves a registration with any number of runtime arguments, or throws why it cannot be made.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - arguments: The arguments passed to the factory.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``.
    @inlinable @inline(__always)
    public func require<Service, each Arg>(
        _ serviceType: Service.Type = Service.self, name: String? = nil,
        arguments: repeat each Arg
    ) throws(ResolutionError) -> Service {
        do {
            let container = try _requireContainer(for: "require with a parameter pack")
            return try container._resolvePack(Service.self, name: name, repeat each arguments)
        } catch {
            throw _asResolutionError(error)
        }
    }
}

/// What `require` gives for a resolver of your own: its answer, or the error when it returned `nil`.
@usableFromInline
func _foreignRequired<Service>(_ value: Service?, _ key: ServiceKey, _ resolver: some Resolver) throws(ResolutionError)
    -> Service
{
    if let value { return value }
    throw ResolutionError(
        code: .notRegistered, key: key, path: [key],
        suggestions: ["\(type(of: resolver)) (a Resolver of your own) returned nil for \(key)."])
}

/// Every failure inside resolution is a `ResolutionError`; this narrows the untyped error for the typed API.
@usableFromInline
func _asResolutionError(_ error: any Error) -> ResolutionError {
    if let error = error as? ResolutionError { return error }
    let key = ServiceKey(serviceType: Any.self, argumentsType: Void.self, name: nil, argumentCount: 0)
    return ResolutionError(code: .factoryFailed, key: key, path: [key], underlying: error)
}
