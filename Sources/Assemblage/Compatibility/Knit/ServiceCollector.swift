// Knit's `ServiceCollector`: the behavior a Knit container needed before `registerIntoCollection` worked.
// Assemblage's collections need none, so it is kept, with its initializers, only so that Knit code compiles.

/// Knit's behavior that enabled collections; in Assemblage it does nothing, because every container gathers
/// ``Container/registerIntoCollection(_:name:priority:file:line:factory:)``'s elements by itself.
///
/// ```swift
/// let container = Container()
/// container.addBehavior(ServiceCollector())   // may be left out
/// container.registerIntoCollection(Animal.self) { _ in Cat() }
/// let animals = container.resolveCollection(Animal.self).entries
/// ```
///
/// A container without it resolves the same collections; a child sees its parent's elements through its
/// parent (``ServiceCollection/allEntries``), whichever collector it was given.
public final class ServiceCollector: Behavior, Sendable {
    /// Creates the behavior.
    ///
    /// - Parameter parent: Knit's collector of the parent container; ignored, since a container's parent is
    ///   already where its collections continue.
    public init(parent: ServiceCollector? = nil) {}

    /// Does nothing: every container already gathers its collections.
    ///
    /// - Parameters:
    ///   - container: The container registered into.
    ///   - type: The registered type.
    ///   - entry: The registration.
    ///   - name: Its name.
    public func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {}
}
