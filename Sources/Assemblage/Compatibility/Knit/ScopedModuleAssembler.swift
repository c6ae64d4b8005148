// Knit's resolver-scoped module graphs: `ScopedModuleAssembler`, which checks that every module it assembles targets
// its resolver, and `GeneratedModuleAssembly`, whose dependencies are filtered by resolver. Both map onto
// ModuleAssembler; the module's `TargetResolver` is declared on ModuleAssembly.

/// A ``ModuleAssembler`` for the modules of one resolver type: every module it assembles must declare
/// `ScopedResolver` as its ``ModuleAssembly/TargetResolver``, and ``resolver`` is typed as that resolver.
///
/// Knit apps build one graph per resolver: the app's, then a graph per user session whose assembler has the app's
/// as its parent. The session's modules resolve what the app's graph registers through the parent, as in Knit,
/// whether or not they declare the app's modules as dependencies:
///
/// ```swift
/// protocol AppResolver: Resolver {}
/// protocol SessionResolver: Resolver {}
/// extension Container: AppResolver, SessionResolver {}
///
/// let app = ScopedModuleAssembler<any AppResolver>([NetworkModule()])
/// let session = ScopedModuleAssembler<any SessionResolver>(parent: app.internalAssembler, [InboxModule()])
/// let inbox = session.resolver.resolve(Inbox.self)   // InboxModule's, over NetworkModule's client
/// ```
///
/// A module that targets another resolver fails the assembly with
/// ``ModuleAssemblyError/Code/assemblyValidationFailed`` (its ``ModuleAssemblyError/Problem/related`` holds a
/// ``ScopedModuleAssemblerError``). Like Knit's initializer of ``ModuleAssembler``, this one does not throw: the
/// error is printed and kept in ``assemblyError``, and nothing is assembled.
///
/// `ScopedResolver` must be a type the assembler's resolver (a ``Container``) is: `any Resolver`, `Container`, or
/// a protocol `Container` conforms to (`extension Container: AppResolver {}`). Any other type is a mistake in the
/// code, not in the graph, and stops the program when the assembler is made, with a message naming the fix.
public final class ScopedModuleAssembler<ScopedResolver>: Sendable {
    /// The module assembler that assembled the graph; pass it as the `parent:` of the next graph's assembler.
    public let internalAssembler: ModuleAssembler

    /// The resolver of every module of the graph (and the parent's), as `ScopedResolver`.
    ///
    /// ```swift
    /// let inbox = session.resolver.resolve(Inbox.self)
    /// ```
    public var resolver: ScopedResolver {
        guard let resolver = internalAssembler.resolver as? ScopedResolver else {
            preconditionFailure(Self.notAResolverMessage)  // checked in init: unreachable
        }
        return resolver
    }

    /// Why nothing was assembled, or `nil` when the graph was assembled.
    ///
    /// ```swift
    /// if let error = session.assemblyError { print(error.codes) }
    /// ```
    public var assemblyError: ModuleAssemblyError? { internalAssembler.assemblyError }

    /// Walks, checks and assembles the graph of `modules`, each of which must target `ScopedResolver`.
    ///
    /// ```swift
    /// let session = ScopedModuleAssembler<any SessionResolver>(parent: app.internalAssembler, [InboxModule()]) {
    ///     container in container.register(SessionID.self) { _ in sessionID }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - parent: The assembler of the enclosing graph: its modules are reused, and every module of this graph
    ///     resolves what it registers.
    ///   - modules: The modules to start from, and instances of modules that cannot create themselves.
    ///   - overrideBehavior: Whether default overrides and abstract placeholders are used; by default, in a
    ///     process that runs tests.
    ///   - postAssemble: Called with the root container once every module is assembled.
    public init(
        parent: ModuleAssembler? = nil, _ modules: [any ModuleAssembly],
        overrideBehavior: OverrideBehavior = .whenTesting, postAssemble: ((Container) -> Void)? = nil
    ) {
        precondition(Container() is ScopedResolver, Self.notAResolverMessage)
        let validation: (any ModuleAssembly.Type) throws -> Void = { module in
            guard module.resolverType == ScopedResolver.self else {
                throw ScopedModuleAssemblerError.incorrectTargetResolver(
                    expected: String(describing: ScopedResolver.self), actual: String(describing: module.resolverType))
            }
        }
        do {
            internalAssembler = try ModuleAssembler(
                modules, overrideBehavior: overrideBehavior, parent: parent,
                validation: validation, postAssemble: postAssemble,
                seesParent: true)
        } catch {
            print("ScopedModuleAssembler<\(ScopedResolver.self)> assembled nothing: \(error)")
            internalAssembler = ModuleAssembler(failed: error, overrideBehavior: overrideBehavior, parent: parent)
        }
    }

    private static var notAResolverMessage: String {
        "ScopedModuleAssembler<\(ScopedResolver.self)>: a Container is not a \(ScopedResolver.self). Declare "
            + "`extension Container: \(ScopedResolver.self) {}`, or use `any Resolver`."
    }
}

/// Why a module cannot be assembled by a ``ScopedModuleAssembler``: Knit's error, found in the
/// ``ModuleAssemblyError/Problem/related`` text of an ``ModuleAssemblyError/Code/assemblyValidationFailed`` problem.
public enum ScopedModuleAssemblerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The module's ``ModuleAssembly/TargetResolver`` (`actual`) is not the assembler's resolver (`expected`).
    case incorrectTargetResolver(expected: String, actual: String)

    /// What is wrong, naming both resolver types.
    public var description: String {
        switch self {
        case .incorrectTargetResolver(let expected, let actual):
            return "the module targets \(actual), but this ScopedModuleAssembler assembles modules of \(expected)"
        }
    }
}

/// A module whose dependencies were generated (by Knit's tool, or by hand): ``ModuleAssembly/dependencies`` defaults
/// to the ``generatedDependencies`` that target this module's resolver (see ``ModuleAssembly/scoped(_:)``).
///
/// ```swift
/// struct InboxModule: GeneratedModuleAssembly, AutoInitModuleAssembly {
///     typealias TargetResolver = SessionResolver
///     static var generatedDependencies: [any ModuleAssembly.Type] { [NetworkModule.self, DraftsModule.self] }
///     func assemble(container: Container) { … }
/// }
/// // InboxModule.dependencies: the ones that target SessionResolver; the parent graph provides the others
/// ```
///
/// A module that declares ``ModuleAssembly/dependencies`` itself uses its own list.
public protocol GeneratedModuleAssembly: ModuleAssembly {
    /// Every module this module uses, whichever resolver it targets.
    static var generatedDependencies: [any ModuleAssembly.Type] { get }
}

extension GeneratedModuleAssembly {
    /// The ``generatedDependencies`` that ``ModuleAssembly/scoped(_:)`` keeps.
    public static var dependencies: [any ModuleAssembly.Type] { scoped(generatedDependencies) }
}
