// SwinjectAutoregistration's `~>` forms that list runtime arguments after `arguments:` separated by commas,
// deprecated there in favour of one tuple and deprecated here too. Kept so that ported code compiles (with a
// warning naming the tuple form) instead of failing with an unhelpful diagnostic. As in SwinjectAutoregistration
// 2.9, there are forms for three arguments only: a two-argument one makes the tuple forms ambiguous (upstream
// removed the unnamed one, and its named one never compiled where no type was expected).

/// Resolves a registration that takes three runtime arguments, listed after `arguments:`, or stops the program
/// with the reason.
///
/// ```swift
/// let cat = container ~> (Animal.self, arguments: "Mimi", 3, true)   // deprecated
/// let cat = container ~> (Animal.self, arguments: ("Mimi", 3, true)) // the form to use
/// ```
///
/// - Parameters:
///   - resolver: The resolver.
///   - service: The service type and the three arguments.
/// - Returns: The service.
@available(*, deprecated, message: "Pass the arguments as one tuple: r ~> (Service.self, arguments: (a, b, c))")
@inlinable
public func ~> <Service, Argument1, Argument2, Argument3>(
    resolver: any Resolver,
    service: (Service.Type, arguments: Argument1, Argument2, Argument3)
) -> Service {
    resolver ~> (Service.self, arguments: (service.1, service.2, service.3))
}

/// Resolves a named registration that takes three runtime arguments, listed after `arguments:`, or stops the
/// program with the reason.
///
/// ```swift
/// let cat = container ~> (Animal.self, name: "cat", arguments: "Mimi", 3, true)   // deprecated
/// let cat = container ~> (Animal.self, name: "cat", arguments: ("Mimi", 3, true)) // the form to use
/// ```
///
/// - Parameters:
///   - resolver: The resolver.
///   - service: The service type, the registration name and the three arguments.
/// - Returns: The service.
@available(
    *, deprecated,
    message: "Pass the arguments as one tuple: r ~> (Service.self, name: \"…\", arguments: (a, b, c))"
)
@inlinable
public func ~> <Service, Argument1, Argument2, Argument3>(
    resolver: any Resolver,
    service: (Service.Type, name: String, arguments: Argument1, Argument2, Argument3)
) -> Service {
    resolver ~> (Service.self, name: service.name, arguments: (service.2, service.3, service.4))
}
