/// An ``Assembly`` that declares which other modules it needs, so that a ``ModuleAssembler`` can build the
/// whole module graph from a few roots.
///
/// A module registers the services of one part of an app (a feature, the network layer, storage) and names
/// the modules whose services it uses. ``ModuleAssembler`` walks those declarations from the modules you
/// pass it, creates the missing ones (see ``AutoInitModuleAssembly``), substitutes replacements (see
/// ``replaces``), and assembles every module after its dependencies:
///
/// ```swift
/// struct NetworkModule: AutoInitModuleAssembly {
///     static var dependencies: [any ModuleAssembly.Type] { [] }
///     func assemble(container: Container) {
///         container.register(HTTPClient.self) { _ in URLSessionHTTPClient() }.inObjectScope(.container)
///     }
/// }
///
/// struct FeedModule: AutoInitModuleAssembly {
///     static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
///     func assemble(container: Container) {
///         container.register(FeedService.self) { r in FeedService(http: try r.require(HTTPClient.self)) }
///     }
/// }
///
/// let assembler = try ModuleAssembler([FeedModule()])   // NetworkModule is created and assembled first
/// ```
///
/// ## Scope
/// Each module registers into a container of its own, which falls back to its dependencies' containers.
/// A module's factories therefore see only what the module and its dependencies (transitively) register:
/// a dependency that is used but not declared fails at once, rather than working by accident.
///
/// Declare ``dependencies`` and ``replaces`` as computed properties (`{ [...] }`): Swift 6 rejects a
/// `static let` array of metatypes, because metatypes are not `Sendable`.
public protocol ModuleAssembly: Assembly {
    /// The resolver this module registers for, when an app builds several module graphs, one per resolver (an
    /// app-wide graph, and a graph per user session whose assembler has the app's as its parent). Defaults to
    /// `any Resolver`; a module for one graph names that graph's resolver protocol:
    ///
    /// ```swift
    /// protocol SessionResolver: Resolver {}
    /// extension Container: SessionResolver {}
    ///
    /// struct InboxModule: AutoInitModuleAssembly {
    ///     typealias TargetResolver = SessionResolver
    ///     static var dependencies: [any ModuleAssembly.Type] { [] }
    ///     func assemble(container: Container) { … }
    /// }
    ///
    /// let session = ScopedModuleAssembler<any SessionResolver>(parent: app, [InboxModule()])
    /// ```
    ///
    /// `ScopedModuleAssembler` checks that every module it assembles targets its resolver; ``ModuleAssembler``
    /// ignores the type.
    associatedtype TargetResolver = any Resolver

    /// The module's ``TargetResolver`` as a value (provided for you).
    ///
    /// ```swift
    /// InboxModule.resolverType == (any SessionResolver).self   // true
    /// ```
    static var resolverType: TargetResolver.Type { get }

    /// The modules of `dependencies` that target a resolver this module's graph can see: by default, those whose
    /// ``resolverType`` is this module's. `GeneratedModuleAssembly` filters its generated dependencies with it;
    /// implement it to let a module see the modules of another resolver (a session module, the app's).
    ///
    /// ```swift
    /// static var dependencies: [any ModuleAssembly.Type] { scoped([NetworkModule.self, InboxModule.self]) }
    /// ```
    ///
    /// - Parameter dependencies: Module types.
    /// - Returns: The ones this module's graph can see, in order.
    static func scoped(_ dependencies: [any ModuleAssembly.Type]) -> [any ModuleAssembly.Type]

    /// The modules whose registrations this module uses, in the order its container searches them.
    ///
    /// ```swift
    /// static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, StorageModule.self] }
    /// ```
    static var dependencies: [any ModuleAssembly.Type] { get }

    /// The modules this module stands in for, wherever they are needed (default: none).
    ///
    /// A replacement must register what the modules it replaces register; the replaced modules are
    /// not assembled. Typical use is a fake for tests, kept in a test-support target:
    ///
    /// ```swift
    /// struct InMemoryStorageModule: AutoInitModuleAssembly {
    ///     static var dependencies: [any ModuleAssembly.Type] { [] }
    ///     static var replaces: [any ModuleAssembly.Type] { [StorageModule.self] }
    ///     func assemble(container: Container) {
    ///         container.register(Storage.self) { _ in InMemoryStorage() }.inObjectScope(.container)
    ///     }
    /// }
    /// ```
    static var replaces: [any ModuleAssembly.Type] { get }

    /// The module made with `init()` when it is an ``AutoInitModuleAssembly``, else `nil`. Provided for you;
    /// do not implement it.
    ///
    /// A requirement with default implementations rather than a cast (`as? any AutoInitModuleAssembly.Type`),
    /// because the first cast of each type scans every protocol conformance in the process: with a thousand
    /// modules that was most of the assembler's first run.
    @_documentation(visibility: internal)
    static func _makeIfAutoInit() -> (any ModuleAssembly)?

    /// Whether the module only declares abstract registrations (Knit's `AbstractAssembly`): when it is replaced,
    /// its declarations are still checked against the module replacing it. Provided for you; do not implement it.
    @_documentation(visibility: internal)
    static var _declaresOnlyAbstractRegistrations: Bool { get }
}

extension ModuleAssembly {
    /// ``TargetResolver``'s metatype.
    public static var resolverType: TargetResolver.Type { TargetResolver.self }

    /// The modules of `dependencies` whose ``resolverType`` is this module's.
    ///
    /// - Parameter dependencies: Module types.
    /// - Returns: Those that target the same resolver, in order.
    public static func scoped(_ dependencies: [any ModuleAssembly.Type]) -> [any ModuleAssembly.Type] {
        dependencies.filter { $0.resolverType == resolverType }
    }

    /// No replacements.
    public static var replaces: [any ModuleAssembly.Type] { [] }

    /// Not an ``AutoInitModuleAssembly`` (as far as this conformance knows).
    @_documentation(visibility: internal)
    public static func _makeIfAutoInit() -> (any ModuleAssembly)? { nil }

    /// Not an abstract-only module (as far as this conformance knows).
    @_documentation(visibility: internal)
    public static var _declaresOnlyAbstractRegistrations: Bool { false }
}

/// A module that ``ModuleAssembler`` can create by itself when it is needed but was not passed in.
///
/// Conform by default. Opt out only when the module needs a value from the app (a configuration, a key)
/// to exist; the app then passes an instance to ``ModuleAssembler/init(_:overrideBehavior:parent:)``.
/// Test fakes should always conform, so that tests need not build them by hand.
///
/// ```swift
/// struct AnalyticsModule: AutoInitModuleAssembly {
///     static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
///     func assemble(container: Container) { … }
/// }
/// ```
public protocol AutoInitModuleAssembly: ModuleAssembly {
    /// Creates the module with no arguments.
    init()
}

extension AutoInitModuleAssembly {
    /// A new module, made with `init()`.
    @_documentation(visibility: internal)
    public static func _makeIfAutoInit() -> (any ModuleAssembly)? { Self() }
}

/// A module with a standard replacement (usually a fake) that is used when default overrides are enabled.
///
/// When a ``ModuleAssembler`` uses default overrides (by default in a process that runs tests, see
/// ``OverrideBehavior/whenTesting``; or with ``OverrideBehavior/useDefaultOverrides``), a module that conforms
/// to this protocol is replaced by its ``OverrideType`` wherever it is needed, unless a replacement for it, or
/// the module itself, was passed in explicitly. ``OverrideType`` must list the module in its
/// ``ModuleAssembly/replaces``; otherwise assembling fails with ``ModuleAssemblyError/Code/invalidDefaultOverride``.
///
/// ```swift
/// extension StorageModule: DefaultModuleAssemblyOverride {
///     typealias OverrideType = InMemoryStorageModule    // which declares `replaces: [StorageModule.self]`
/// }
///
/// let app = try ModuleAssembler([AppModule()])   // real storage in the app, in-memory storage in its tests
/// let real = try ModuleAssembler([AppModule()], overrideBehavior: .disableDefaultOverrides)   // real storage
/// ```
public protocol DefaultModuleAssemblyOverride: ModuleAssembly {
    /// The module used in place of this one when default overrides are enabled.
    associatedtype OverrideType: AutoInitModuleAssembly
}

/// A module that other modules can add registrations to: a hub of interfaces whose implementations live
/// elsewhere.
///
/// A dynamic module is assembled like any other module. In addition, any module of the same
/// ``ModuleAssembler`` can contribute registrations to it with
/// ``Container/contribute(into:_:)`` from its ``Assembly/assemble(container:)``. A contributed factory
/// runs in the contributor's scope, so it resolves its own dependencies from the contributor's container.
/// Modules that depend on the dynamic module resolve the contributions through it.
///
/// Contributions come only from modules in the graph: leave a contributor out and its contributions
/// simply do not exist, so resolve what may be contributed with the optional API (`resolve`):
///
/// ```swift
/// struct InterfacesModule: DynamicModuleAssembly, AutoInitModuleAssembly {
///     static var dependencies: [any ModuleAssembly.Type] { [] }
///     func assemble(container: Container) {}
/// }
///
/// struct PaymentsModule: AutoInitModuleAssembly {
///     static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
///     func assemble(container: Container) {
///         container.contribute(into: InterfacesModule.self) { interfaces in
///             interfaces.register(PaymentsAPI.self) { r in Payments(http: try r.require(HTTPClient.self)) }
///         }
///     }
/// }
///
/// // In a module that depends on InterfacesModule:
/// let payments = resolver.resolve(PaymentsAPI.self)   // nil when PaymentsModule is not in the graph
/// ```
public protocol DynamicModuleAssembly: ModuleAssembly {}

/// Whether a ``ModuleAssembler`` substitutes the standard overrides declared with
/// ``DefaultModuleAssemblyOverride``.
///
/// The default is ``whenTesting``: default overrides are on in a process that runs tests (XCTest or Swift
/// Testing is loaded) and off otherwise, so an app gets its real modules and its tests get the standard fakes.
/// Pass ``useDefaultOverrides`` or ``disableDefaultOverrides`` to decide yourself; an explicit behaviour always
/// wins over the detection.
///
/// ```swift
/// let assembler = try ModuleAssembler([AppModule()], overrideBehavior: .disableDefaultOverrides)  // real modules
/// ```
public struct OverrideBehavior: Sendable, Hashable, CustomStringConvertible {
    /// Whether modules with a default override are replaced by it.
    public let usesDefaultOverrides: Bool

    /// Whether abstract registrations that no module provides are registered as placeholders rather than failing
    /// the assembly (see `Container.registerAbstract(_:name:file:line:)`).
    ///
    /// A placeholder fails with ``ResolutionError/Code/abstractRegistrationNotProvided`` when it is resolved (an
    /// optional one resolves to `nil`), so a test can assemble part of an app and fail only where it uses what is
    /// missing.
    public let usesAbstractPlaceholders: Bool

    /// Creates a behaviour that uses abstract placeholders exactly when it uses default overrides, as the static
    /// behaviours do.
    ///
    /// ```swift
    /// let behavior = OverrideBehavior(usesDefaultOverrides: isRunningUITests)
    /// ```
    ///
    /// - Parameter usesDefaultOverrides: Whether modules with a default override are replaced by it, and abstract
    ///   registrations no module provides are placeholders.
    public init(usesDefaultOverrides: Bool) {
        self.init(usesDefaultOverrides: usesDefaultOverrides, usesAbstractPlaceholders: usesDefaultOverrides)
    }

    /// Creates a behaviour.
    ///
    /// ```swift
    /// let strict = OverrideBehavior(usesDefaultOverrides: true, usesAbstractPlaceholders: false)  // fakes, no gaps
    /// ```
    ///
    /// - Parameters:
    ///   - usesDefaultOverrides: Whether modules with a default override are replaced by it.
    ///   - usesAbstractPlaceholders: Whether abstract registrations that no module provides are placeholders
    ///     rather than an error of the assembly.
    public init(usesDefaultOverrides: Bool, usesAbstractPlaceholders: Bool) {
        self.usesDefaultOverrides = usesDefaultOverrides
        self.usesAbstractPlaceholders = usesAbstractPlaceholders
    }

    /// Replace every ``DefaultModuleAssemblyOverride`` module by its ``DefaultModuleAssemblyOverride/OverrideType``,
    /// unless a replacement for it, or the module itself, was passed in; abstract registrations no module provides
    /// are placeholders.
    public static let useDefaultOverrides = OverrideBehavior(usesDefaultOverrides: true)

    /// Use modules as declared; default overrides are ignored, and every abstract registration must be provided.
    public static let disableDefaultOverrides = OverrideBehavior(usesDefaultOverrides: false)

    /// ``useDefaultOverrides`` in a process that runs tests, ``disableDefaultOverrides`` otherwise. The default of
    /// ``ModuleAssembler``.
    ///
    /// A process runs tests when XCTest or Swift Testing is loaded into it, which `swift test`, `xcodebuild test`
    /// and Xcode do on Linux and Apple platforms alike; an app never loads either. The answer is found once per
    /// process.
    ///
    /// ```swift
    /// let assembler = try ModuleAssembler([AppModule()], overrideBehavior: .whenTesting)   // the same as omitting it
    /// ```
    public static var whenTesting: OverrideBehavior {
        _TestProcess.isRunningTests ? .useDefaultOverrides : .disableDefaultOverrides
    }

    /// Whether this process runs tests: XCTest or Swift Testing is loaded into it. ``whenTesting`` follows it.
    public static var isRunningTests: Bool { _TestProcess.isRunningTests }

    /// `useDefaultOverrides` or `disableDefaultOverrides`, with the placeholder setting when it differs from theirs.
    public var description: String {
        let base = usesDefaultOverrides ? "useDefaultOverrides" : "disableDefaultOverrides"
        guard usesAbstractPlaceholders != usesDefaultOverrides else { return base }
        return base + (usesAbstractPlaceholders ? " with abstract placeholders" : " without abstract placeholders")
    }
}
