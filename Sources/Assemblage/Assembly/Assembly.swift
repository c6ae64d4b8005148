/// A group of related registrations, applied to a shared container by an ``Assembler``.
///
/// Keep like services together: one assembly for services, one for managers, one per feature. An assembly
/// registers into the shared container and may rely on registrations from other assemblies; it does not
/// need to know where they come from. When every assembly of a batch has registered, the assembler calls
/// ``loaded(resolver:)`` on each, so that an assembly can finish set-up that needs the whole container:
///
/// ```swift
/// struct LoggerAssembly: Assembly {
///     func assemble(container: Container) {
///         container.register(LogHandler.self, name: "console") { _ in ConsoleLogHandler() }
///     }
///     func loaded(resolver: Resolver) {
///         Logger.shared.addHandler(resolver.resolve(LogHandler.self, name: "console")!)
///     }
/// }
/// ```
public protocol Assembly {
    /// Registers this assembly's services into the shared container.
    ///
    /// - Parameter container: The container every assembly of the assembler registers into.
    func assemble(container: Container)

    /// Called after every assembly of the same batch has run ``assemble(container:)``.
    ///
    /// Runs once per batch the assembly is applied in, in the order the batch lists the assemblies.
    /// Properties loaded before the batch are visible here. The default does nothing.
    ///
    /// - Parameter resolver: Resolves from the fully assembled container.
    func loaded(resolver: any Resolver)
}

extension Assembly {
    /// Does nothing.
    public func loaded(resolver: any Resolver) {}
}
