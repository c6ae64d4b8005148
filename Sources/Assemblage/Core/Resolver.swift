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
/// Assemblage's own containers are the only conformers you need; the protocol's single requirement
/// names the container that resolutions start from.
public protocol Resolver: AnyObject, Sendable {
    /// The container resolutions through this resolver start from, unretained: the resolver keeps it alive.
    ///
    /// Unretained so that a nested resolve inside a factory touches no shared reference count.
    var _unmanagedContainer: Unmanaged<Container> { get }
}

extension Resolver {
    /// The container resolutions through this resolver start from.
    public var _container: Container { _unmanagedContainer.takeUnretainedValue() }
}

extension Container: Resolver {
    /// The container itself, unretained.
    @inlinable
    public var _unmanagedContainer: Unmanaged<Container> { Unmanaged.passUnretained(self) }
}

// MARK: - Optional API (Swinject-compatible)

extension Resolver {
    /// Resolves the unnamed registration of `serviceType`.
    ///
    /// ```swift
    /// let engine = resolver.resolve(Engine.self)
    /// ```
    ///
    /// - Parameter serviceType: The service type.
    /// - Returns: The service, or `nil` when it is not registered or cannot be made.
    @inlinable @inline(__always)
    public func resolve<Service>(_ serviceType: Service.Type) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: nil) }
    }

    /// Resolves the registration of `serviceType` with `name`.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name; `nil` for the unnamed registration.
    /// - Returns: The service, or `nil` when it is not registered or cannot be made.
    @inlinable @inline(__always)
    public func resolve<Service>(_ serviceType: Service.Type, name: String?) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: name) }
    }

    /// Resolves a registration that takes one runtime argument.
    ///
    /// ```swift
    /// let cat = resolver.resolve(Animal.self, argument: "Mimi")
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - argument: The argument passed to the factory.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, Arg1>(_ serviceType: Service.Type, argument: Arg1) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: nil, argument) }
    }

    /// Resolves a named registration that takes one runtime argument.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - argument: The argument passed to the factory.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, Arg1>(_ serviceType: Service.Type, name: String?, argument: Arg1) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: name, argument) }
    }

    /// Resolves a registration that takes two runtime arguments, in the order the factory declares them.
    ///
    /// ```swift
    /// let cat = resolver.resolve(Animal.self, arguments: "Mimi", 3)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - arg1: The first argument.
    ///   - arg2: The second argument.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, Arg1, Arg2>(_ serviceType: Service.Type, arguments arg1: Arg1, _ arg2: Arg2) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: nil, arg1, arg2) }
    }

    /// Resolves a named registration that takes two runtime arguments.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - arg1: The first argument.
    ///   - arg2: The second argument.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, Arg1, Arg2>(_ serviceType: Service.Type, name: String?,
                                             arguments arg1: Arg1, _ arg2: Arg2) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: name, arg1, arg2) }
    }

    /// Resolves a registration that takes three runtime arguments.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - arg1: The first argument.
    ///   - arg2: The second argument.
    ///   - arg3: The third argument.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, Arg1, Arg2, Arg3>(_ serviceType: Service.Type, arguments arg1: Arg1, _ arg2: Arg2,
                                                   _ arg3: Arg3) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: nil, arg1, arg2, arg3) }
    }

    /// Resolves a named registration that takes three runtime arguments.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - arg1: The first argument.
    ///   - arg2: The second argument.
    ///   - arg3: The third argument.
    /// - Returns: The service, or `nil`.
    @inlinable @inline(__always)
    public func resolve<Service, Arg1, Arg2, Arg3>(_ serviceType: Service.Type, name: String?, arguments arg1: Arg1,
                                                   _ arg2: Arg2, _ arg3: Arg3) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: name, arg1, arg2, arg3) }
    }

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
        try? _unmanagedContainer._withUnsafeGuaranteedRef {
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
    public func resolve<Service, each Arg>(_ serviceType: Service.Type, name: String?,
                                           arguments: repeat each Arg) -> Service? {
        try? _unmanagedContainer._withUnsafeGuaranteedRef {
            try $0._resolvePack(Service.self, name: name, repeat each arguments)
        }
    }
}

// MARK: - Throwing API

extension Resolver {
    /// Resolves `serviceType`, or throws an error that says why it cannot be made.
    ///
    /// ```swift
    /// do {
    ///     let car = try resolver.require(Car.self)
    /// } catch {
    ///     print(error)   // No registration for Engine. Resolution path: Car → Engine …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name; `nil` for the unnamed registration.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` naming the type, name, argument types, resolution path and near misses.
    @inlinable @inline(__always)
    public func require<Service>(_ serviceType: Service.Type = Service.self,
                                 name: String? = nil) throws(ResolutionError) -> Service {
        do {
            return try _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: name) }
        } catch {
            throw _asResolutionError(error)
        }
    }

    /// Resolves a registration with one runtime argument, or throws why it cannot be made.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - argument: The argument passed to the factory.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``.
    @inlinable @inline(__always)
    public func require<Service, Arg1>(_ serviceType: Service.Type = Service.self, name: String? = nil,
                                       argument: Arg1) throws(ResolutionError) -> Service {
        do {
            return try _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: name, argument) }
        } catch {
            throw _asResolutionError(error)
        }
    }

    /// Resolves a registration with two runtime arguments, or throws why it cannot be made.
    ///
    /// ```swift
    /// let cat = try resolver.require(Animal.self, arguments: "Mimi", 3)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - arg1: The first argument.
    ///   - arg2: The second argument.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``.
    @inlinable @inline(__always)
    public func require<Service, Arg1, Arg2>(_ serviceType: Service.Type = Service.self, name: String? = nil,
                                             arguments arg1: Arg1, _ arg2: Arg2) throws(ResolutionError) -> Service {
        do {
            return try _unmanagedContainer._withUnsafeGuaranteedRef { try $0._resolve(Service.self, name: name, arg1, arg2) }
        } catch {
            throw _asResolutionError(error)
        }
    }

    /// Resolves a registration with three runtime arguments, or throws why it cannot be made.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - arg1: The first argument.
    ///   - arg2: The second argument.
    ///   - arg3: The third argument.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``.
    @inlinable @inline(__always)
    public func require<Service, Arg1, Arg2, Arg3>(_ serviceType: Service.Type = Service.self, name: String? = nil,
                                                   arguments arg1: Arg1, _ arg2: Arg2,
                                                   _ arg3: Arg3) throws(ResolutionError) -> Service {
        do {
            return try _unmanagedContainer._withUnsafeGuaranteedRef {
                try $0._resolve(Service.self, name: name, arg1, arg2, arg3)
            }
        } catch {
            throw _asResolutionError(error)
        }
    }

    /// Resolves a registration with any number of runtime arguments, or throws why it cannot be made.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name.
    ///   - arguments: The arguments passed to the factory.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``.
    @inlinable @inline(__always)
    public func require<Service, each Arg>(_ serviceType: Service.Type = Service.self, name: String? = nil,
                                           arguments: repeat each Arg) throws(ResolutionError) -> Service {
        do {
            return try _unmanagedContainer._withUnsafeGuaranteedRef {
                try $0._resolvePack(Service.self, name: name, repeat each arguments)
            }
        } catch {
            throw _asResolutionError(error)
        }
    }
}

/// Every failure inside resolution is a `ResolutionError`; this narrows the untyped error for the typed API.
@usableFromInline
func _asResolutionError(_ error: any Error) -> ResolutionError {
    if let error = error as? ResolutionError { return error }
    let key = ServiceKey(serviceType: Any.self, argumentsType: Void.self, name: nil, argumentCount: 0)
    return ResolutionError(code: .factoryFailed, key: key, path: [key], underlying: error)
}

/// The name seed 000 (a Swinject-style library) gave ``Resolver``; code written against it compiles unchanged.
///
/// ```swift
/// func makeFeed(_ resolver: ResolverType) throws -> FeedViewModel {
///     try resolver.require(FeedViewModel.self)
/// }
/// ```
///
/// New code uses ``Resolver``; both names are the same protocol.
public typealias ResolverType = Resolver
