// SwinjectAutoregistration's `~>` operators: resolve or stop the program, in a factory's argument list.
//
// The infix `~>` is declared by the standard library; the postfix form is declared here.
//
// Several runtime arguments are given as one tuple, `(T.self, arguments: (a, b))`, of any length.
// SwinjectAutoregistration's deprecated forms that list them after `arguments:` without the tuple are in
// Resolver+DeprecatedOperators.swift.

/// Resolves the type the context expects: `PetOwner(pet: r~>)`.
postfix operator ~>

/// Resolves the service the context expects, or stops the program with the reason.
///
/// The type is inferred from where the result goes, typically an initializer's parameter:
///
/// ```swift
/// container.register(Person.self) { r in PetOwner(pet: r~>) }   // r.resolve(Animal.self)!
/// let clock: Clock = container~>
/// ```
///
/// As in SwinjectAutoregistration, a service that cannot be resolved stops the program: the message is the
/// full ``ResolutionError`` (the path, near misses and fixes). Use ``Resolver/require(_:name:)`` where a
/// failure should be handled.
///
/// - Parameter resolver: The resolver; in a factory, the one it receives.
/// - Returns: The service.
@inlinable
public postfix func ~> <Service>(resolver: any Resolver) -> Service {
    do {
        return try resolver.require(Service.self)
    } catch {
        _operatorFailure(error, Service.self)
    }
}

/// Resolves `serviceType`, or stops the program with the reason: `r.resolve(Animal.self)!` with the
/// error's text.
///
/// ```swift
/// container.register(Person.self) { r in PetOwner(pet: r ~> Cat.self) }
/// ```
///
/// - Parameters:
///   - resolver: The resolver.
///   - serviceType: The service type.
/// - Returns: The service.
@inlinable
public func ~> <Service>(resolver: any Resolver, serviceType: Service.Type) -> Service {
    do {
        return try resolver.require(Service.self)
    } catch {
        _operatorFailure(error, Service.self)
    }
}

/// Resolves a named registration, or stops the program with the reason.
///
/// ```swift
/// container.register(Person.self) { r in PetOwner(pet: r ~> (Animal.self, name: "mimi")) }
/// ```
///
/// - Parameters:
///   - resolver: The resolver.
///   - service: The service type and the registration name.
/// - Returns: The service.
@inlinable
public func ~> <Service>(resolver: any Resolver, service: (Service.Type, name: String)) -> Service {
    do {
        return try resolver.require(Service.self, name: service.name)
    } catch {
        _operatorFailure(error, Service.self)
    }
}

/// Resolves a registration that takes one runtime argument, or stops the program with the reason.
///
/// ```swift
/// container.register(Person.self) { r in PetOwner(pet: r ~> (Animal.self, argument: "Mimi")) }
/// ```
///
/// - Parameters:
///   - resolver: The resolver.
///   - service: The service type and the argument.
/// - Returns: The service.
@inlinable
public func ~> <Service, Argument>(resolver: any Resolver, service: (Service.Type, argument: Argument)) -> Service {
    do {
        return try resolver.require(Service.self, argument: service.argument)
    } catch {
        _operatorFailure(error, Service.self)
    }
}

/// Resolves a named registration that takes one runtime argument, or stops the program with the reason.
///
/// ```swift
/// let cat = container ~> (Animal.self, name: "cat", argument: "Mimi")
/// ```
///
/// - Parameters:
///   - resolver: The resolver.
///   - service: The service type, the registration name and the argument.
/// - Returns: The service.
@inlinable
public func ~> <Service, Argument>(
    resolver: any Resolver,
    service: (Service.Type, name: String, argument: Argument)
) -> Service {
    do {
        return try resolver.require(Service.self, name: service.name, argument: service.argument)
    } catch {
        _operatorFailure(error, Service.self)
    }
}

/// Resolves a registration that takes several runtime arguments, given as a tuple, or stops the program
/// with the reason.
///
/// ```swift
/// let cat = container ~> (Animal.self, arguments: ("Mimi", 3))   // r.resolve(Animal.self, arguments: "Mimi", 3)!
/// ```
///
/// The tuple's elements are the arguments, in the order the registration declares them; to pass one
/// tuple-typed argument, use `argument:`.
///
/// - Parameters:
///   - resolver: The resolver.
///   - service: The service type and the arguments.
/// - Returns: The service.
@inlinable
public func ~> <Service, each Argument>(
    resolver: any Resolver,
    service: (Service.Type, arguments: (repeat each Argument))
) -> Service {
    do {
        return try resolver.require(Service.self, arguments: repeat each service.arguments)
    } catch {
        _operatorFailure(error, Service.self)
    }
}

/// Resolves a named registration that takes several runtime arguments, given as a tuple, or stops the
/// program with the reason.
///
/// ```swift
/// let cat = container ~> (Animal.self, name: "cat", arguments: ("Mimi", 3))
/// ```
///
/// - Parameters:
///   - resolver: The resolver.
///   - service: The service type, the registration name and the arguments.
/// - Returns: The service.
@inlinable
public func ~> <Service, each Argument>(
    resolver: any Resolver, service: (Service.Type, name: String, arguments: (repeat each Argument))
) -> Service {
    do {
        return try resolver.require(Service.self, name: service.name, arguments: repeat each service.arguments)
    } catch {
        _operatorFailure(error, Service.self)
    }
}

/// Stops the program for a `~>` that could not resolve, with the error's full text (out of line: the
/// operators' success path stays that of `require`).
@usableFromInline @inline(never)
func _operatorFailure(_ error: ResolutionError, _ service: Any.Type) -> Never {
    fatalError(
        """
        `~>` could not resolve \(_typeName(service, qualified: false)):
        \(error)
          `~>` stops the program when it cannot resolve, as SwinjectAutoregistration's does; \
        `try r.require(…)` throws this error instead, and `r.resolve(…)` returns nil.
        """)
}
