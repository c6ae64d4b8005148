// Knit's spellings of the module assembler: its non-throwing initializer with `parent:` first, its validation and
// post-assembly hooks, and the names it gives the assembled modules. Each maps onto ModuleAssembler.

extension ModuleAssembler {
    /// Knit's initializer: walks and assembles the graph like ``init(_:overrideBehavior:parent:)``, without
    /// throwing.
    ///
    /// Where Knit stops the process on a graph it cannot assemble, this initializer does not: it prints the
    /// ``ModuleAssemblyError`` (every problem, with its dependency path and fix), keeps it in ``assemblyError``, and
    /// returns an assembler that assembled nothing, whose ``resolver`` resolves only what the parent's does. Check
    /// ``assemblyError``, or use the throwing initializer, to act on the problem:
    ///
    /// ```swift
    /// let assembler = ModuleAssembler(parent: app, [SettingsModule()], postAssemble: { container in
    ///     container.register(Clock.self) { _ in SystemClock() }
    /// })
    /// if let error = assembler.assemblyError { report(error) }
    /// ```
    ///
    /// The call is told apart from Assemblage's initializer by `parent:` first, `assemblyValidation:` or
    /// `postAssemble:`; `ModuleAssembler([AppModule()])` alone is Assemblage's throwing initializer, and needs `try`.
    ///
    /// - Parameters:
    ///   - parent: An assembler whose modules are reused rather than assembled again.
    ///   - modules: The modules to start from, and instances of modules that cannot create themselves.
    ///   - overrideBehavior: Whether default overrides are used; by default, in a process that runs tests.
    ///   - assemblyValidation: Called with the type of every module to assemble, before anything is registered; a
    ///     module it throws for fails the assembly (``ModuleAssemblyError/Code/assemblyValidationFailed``).
    ///   - postAssemble: Called with the root container once every module is assembled, before eager singletons
    ///     and `loaded` hooks; what it registers is visible through ``resolver``.
    public convenience init(
        parent: ModuleAssembler? = nil, _ modules: [any ModuleAssembly],
        overrideBehavior: OverrideBehavior = .whenTesting,
        assemblyValidation: ((any ModuleAssembly.Type) throws -> Void)? = nil,
        postAssemble: ((Container) -> Void)? = nil
    ) {
        do {
            try self.init(
                modules, overrideBehavior: overrideBehavior, parent: parent,
                validation: assemblyValidation, postAssemble: postAssemble)
        } catch {
            print("ModuleAssembler assembled nothing: \(error)")
            self.init(failed: error, overrideBehavior: overrideBehavior, parent: parent)
        }
    }

    /// Why Knit's non-throwing initializer assembled nothing; `nil` when the graph was assembled.
    ///
    /// ```swift
    /// let assembler = ModuleAssembler(parent: app, [SettingsModule()])
    /// if let error = assembler.assemblyError { print(error.codes) }
    /// ```
    public var assemblyError: ModuleAssemblyError? { failure }

    /// Knit's name of ``modules``: the modules this assembler assembled, in assembly order.
    @_documentation(visibility: internal)
    public var registeredModules: [any ModuleAssembly.Type] { modules }

    /// Knit's name of ``contains(_:)``: whether `type`, or a module standing for it, is in this graph or the
    /// parent's.
    ///
    /// - Parameter type: A module type.
    /// - Returns: Whether it is assembled here or in a parent.
    @_documentation(visibility: internal)
    public func isRegistered(_ type: any ModuleAssembly.Type) -> Bool { contains(type) }
}

/// Knit's name of ``ModuleAssemblyError``, which Assemblage's module assembler throws for every problem Knit's
/// dependency builder reports (a module not provided, an invalid default override, a failed validation).
@_documentation(visibility: internal)
public typealias DependencyBuilderError = ModuleAssemblyError

extension OverrideBehavior {
    /// Knit's name of ``whenTesting``: default overrides in a process that runs tests.
    @_documentation(visibility: internal)
    public static var defaultOverridesWhenTesting: OverrideBehavior { whenTesting }

    /// Knit's name of ``usesDefaultOverrides``.
    @_documentation(visibility: internal)
    public var allowDefaultOverrides: Bool { usesDefaultOverrides }

    /// Knit's initializer: whether default overrides are used.
    ///
    /// - Parameter allowDefaultOverrides: Whether modules with a default override are replaced by it.
    @_documentation(visibility: internal)
    public init(allowDefaultOverrides: Bool) {
        self.init(usesDefaultOverrides: allowDefaultOverrides)
    }
}
