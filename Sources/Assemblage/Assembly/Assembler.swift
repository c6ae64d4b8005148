/// Applies assemblies to one container and gives the app a ``Resolver`` (which cannot register).
///
/// ```swift
/// let assembler = Assembler([ServiceAssembly(), ManagerAssembly()])
/// let manager = assembler.resolver.resolve(FooManager.self)!
///
/// assembler.apply(assembly: LoggerAssembly())       // later: a batch of one
/// ```
///
/// ## Batches
/// Each call applies one batch in two phases: first ``Assembly/assemble(container:)`` for every assembly in
/// order, then ``Assembly/loaded(resolver:)`` for every assembly in the same order. An assembly's `loaded`
/// therefore sees everything its batch registered, but not what later batches will. Pass assemblies that
/// depend on each other's registrations in their `loaded` hooks in one batch.
///
/// ## Applying an assembly twice
/// Nothing is de-duplicated, deliberately (as in Swinject): applying the same assembly again registers its
/// services again, so the later registrations replace the earlier ones under the same keys (the last one
/// wins, and the container records the replacement), and its `loaded` runs again. Use this to swap in a mock assembly after the real one.
///
/// Keep a reference to the assembler or to its resolver: the resolver keeps the container alive.
public final class Assembler: Sendable {
    /// The container the assemblies register into.
    package let container: Container

    /// What the app resolves from.
    public var resolver: any Resolver { container }

    /// Creates an assembler over `container`, with no assemblies applied yet.
    ///
    /// - Parameter container: The container to register into.
    public init(container: Container = Container()) {
        self.container = container
    }

    /// Creates an assembler and applies `assemblies` as one batch.
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in order.
    ///   - container: The container to register into.
    public convenience init(_ assemblies: [any Assembly], container: Container = Container()) {
        self.init(container: container)
        apply(assemblies: assemblies)
    }

    /// Creates an assembler whose container falls back to `parent`'s, and applies `assemblies` as one batch.
    ///
    /// ```swift
    /// let app = Assembler([CoreAssembly()])
    /// let feature = Assembler([FeatureAssembly()], parent: app)   // resolves app's services too
    /// ```
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in order.
    ///   - parent: An assembler whose registrations this one's container falls back to.
    ///   - defaultObjectScope: The scope of registrations that do not set one.
    ///   - behaviors: Objects notified of each registration.
    public convenience init(
        _ assemblies: [any Assembly], parent: Assembler?, defaultObjectScope: ObjectScope = .graph,
        behaviors: [any Behavior] = []
    ) {
        self.init(
            container: Container(
                parent: parent?.container, defaultObjectScope: defaultObjectScope,
                behaviors: behaviors))
        apply(assemblies: assemblies)
    }

    /// Creates an assembler with no assemblies, whose container falls back to `parentAssembler`'s.
    ///
    /// - Parameters:
    ///   - parentAssembler: An assembler whose registrations this one's container falls back to.
    ///   - defaultObjectScope: The scope of registrations that do not set one.
    ///   - behaviors: Objects notified of each registration.
    public convenience init(
        parentAssembler: Assembler?, defaultObjectScope: ObjectScope = .graph,
        behaviors: [any Behavior] = []
    ) {
        self.init([], parent: parentAssembler, defaultObjectScope: defaultObjectScope, behaviors: behaviors)
    }

    /// Applies one assembly as a batch of one: its `assemble`, then its `loaded`.
    ///
    /// - Parameter assembly: The assembly.
    public func apply(assembly: any Assembly) {
        apply(assemblies: [assembly])
    }

    /// Applies assemblies as one batch: every `assemble` in order, then every `loaded` in the same order.
    ///
    /// - Parameter assemblies: The assemblies.
    public func apply(assemblies: [any Assembly]) {
        for assembly in assemblies { assembly.assemble(container: container) }
        for assembly in assemblies { assembly.loaded(resolver: container) }
    }

    /// Applies assemblies as one batch; the name the Assembler's original documentation uses.
    ///
    /// - Parameter assemblies: The assemblies.
    public func addAssemblies(_ assemblies: [any Assembly]) {
        apply(assemblies: assemblies)
    }

    /// Applies one assembly as a batch of one; the Assembler's original (1.x) name for ``apply(assembly:)``.
    ///
    /// - Parameter assembly: The assembly.
    public func applyAssembly(_ assembly: any Assembly) {
        apply(assembly: assembly)
    }

    /// Applies assemblies as one batch; the Assembler's original (1.x) name for ``apply(assemblies:)``.
    ///
    /// - Parameter assemblies: The assemblies.
    public func applyAssemblies(_ assemblies: [any Assembly]) {
        apply(assemblies: assemblies)
    }
}
