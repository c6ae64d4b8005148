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
    func container<Type, Service>(_ container: Container, didRegisterType type: Type.Type,
                                  toService entry: ServiceEntry<Service>, withName name: String?)
}
