/// An object told about every registration a container makes.
///
/// Use it to observe or extend registrations, e.g. to record them or to forward every service to another
/// type. Behaviors are called on the registering thread, after the registration is in place.
///
/// ```swift
/// struct RegistrationLog: Behavior {
///     func container<Type, Service>(_ container: Container, didRegisterType type: Type.Type,
///                                   toService entry: ServiceEntry<Service>, withName name: String?) {
///         print("registered \(type) as \(entry.key)")
///     }
/// }
/// let container = Container(behaviors: [RegistrationLog()])
/// ```
public protocol Behavior {
    /// Called after `container` registers `entry` under `type` (the service type, or a forwarded type).
    ///
    /// - Parameters:
    ///   - container: The container that registered.
    ///   - type: The type registered: the entry's service type, or a type it was forwarded to.
    ///   - entry: The registration.
    ///   - name: The registration name.
    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?)
}

/// What a behavior adds to the error for a missing registration: sentences that name the fix, built on the
/// failure path only. Core owns it; a module's scope adopts it to name the module that registers the key.
protocol _MissingRegistrationHints: AnyObject {
    /// Sentences that say how to make `key` resolvable from `container`, or none.
    func hints(forMissing key: ServiceKey, in container: Container) -> [String]
}
