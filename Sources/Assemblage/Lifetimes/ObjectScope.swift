/// A type that can make instance storage for an object scope.
///
/// Swinject-compatible. Most code uses ``ObjectScope`` directly; conform to this protocol only to
/// build a scope whose storage is computed differently.
public protocol ObjectScopeProtocol: AnyObject, Sendable {
    /// Makes the storage that keeps instances of one registration in this scope.
    func makeStorage() -> any InstanceStorage
}

/// How long a resolved instance lives, and who shares it.
///
/// | scope | instances |
/// |---|---|
/// | ``transient`` | a new one on every resolve |
/// | ``graph`` (default) | shared within one top-level resolution, so a graph of objects that needs the same dependency twice gets one |
/// | ``container`` | one per registration, shared with child containers; cleared by ``Container/resetObjectScope(_:)-(ObjectScope)`` |
/// | ``weak`` | shared while someone else holds it strongly |
/// | ``singleton`` | one per registration for the life of the program; never cleared by a reset |
/// | ``multiton`` | one per distinct value of the runtime arguments (which must be `Hashable`); cleared by a reset |
/// | ``scoped`` | one per ``Scope`` (a request, a job), disposed when the scope ends |
///
/// Custom scopes keep instances in storage you provide, and are cleared with
/// ``Container/resetObjectScope(_:)-(ObjectScope)``:
///
/// ```swift
/// extension ObjectScope {
///     static let session = ObjectScope(storageFactory: PermanentStorage.init, description: "session")
/// }
/// container.register(Cart.self) { _ in Cart() }.inObjectScope(.session)
/// // on log-out:
/// container.resetObjectScope(.session)
/// ```
public final class ObjectScope: ObjectScopeProtocol, CustomStringConvertible, @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable; the storage factory is only called
    // under Assemblage's creation lock.

    @usableFromInline
    enum Kind: UInt8, Sendable {
        case transient, graph, container, weak, singleton, custom, multiton, scoped
    }

    /// A short name for the scope, used in descriptions and diagnostics.
    public let description: String
    @usableFromInline let kind: Kind
    /// A custom scope's storage factory; nil for the built-in scopes, whose instances live in the registration
    /// itself (its atomic words, a multiton table, a request scope's slots), never in an `InstanceStorage`.
    private let storageFactory: (() -> any InstanceStorage)?
    private let parent: (any ObjectScopeProtocol)?

    /// Creates a custom scope whose instances live in storage that `storageFactory` makes, one per registration.
    ///
    /// - Parameters:
    ///   - storageFactory: Makes the storage for one registration (for example `PermanentStorage.init`).
    ///   - description: A short name shown in diagnostics.
    ///   - parent: A scope whose storage is consulted too (as Swinject's `.weak` consults `.graph`).
    public init(
        storageFactory: @escaping () -> any InstanceStorage, description: String = "",
        parent: (any ObjectScopeProtocol)? = nil
    ) {
        self.storageFactory = storageFactory
        self.description = description
        self.parent = parent
        self.kind = .custom
    }

    private init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
        self.storageFactory = nil
        self.parent = nil
    }

    /// Makes the storage for one registration in this scope.
    ///
    /// A custom scope's registrations keep their instances in this storage. The built-in scopes do not use one
    /// (their instances live in the registration); for them this returns a storage with the same rule — it keeps
    /// the instance for `.container`, `.singleton` and `.multiton`, keeps it per graph for `.graph`, weakly for
    /// `.weak` and not at all for `.transient` and `.scoped` — which is what a custom scope whose `parent` is a
    /// built-in one composes with.
    ///
    /// - Returns: The scope's storage, composed with its parent's when it has one.
    public func makeStorage() -> any InstanceStorage {
        let own = storageFactory?() ?? Self.storageWithTheRule(of: kind)
        if let parent { return _StorageChain([own, parent.makeStorage()]) }
        return own
    }

    private static func storageWithTheRule(of kind: Kind) -> any InstanceStorage {
        switch kind {
        case .transient, .scoped: _RuleStorage(.keepNothing)
        case .graph: _RuleStorage(.keepPerGraph)
        case .weak: _RuleStorage(.keepWeakly)
        case .container, .singleton, .multiton, .custom: _RuleStorage(.keep)
        }
    }

    /// A new instance on every resolve.
    public static let transient = ObjectScope(kind: .transient, description: "transient")

    /// One instance per top-level resolution: the default, as in Swinject.
    ///
    /// Inside one call to `resolve`, every request for the registration gets the same instance,
    /// which is what makes property-injection cycles (see ``ServiceEntry/initCompleted(_:)``) close.
    public static let graph = ObjectScope(kind: .graph, description: "graph")

    /// One instance per registration, shared with child containers, until ``Container/resetObjectScope(_:)-(ObjectScope)``.
    public static let container = ObjectScope(kind: .container, description: "container")

    /// Shared while something else holds a strong reference to it; shared within one resolution, too.
    public static let weak = ObjectScope(kind: .weak, description: "weak")

    /// One instance per registration for the life of the program, created once and never cleared by
    /// ``Container/resetObjectScope(_:)-(ObjectScope)`` or a module reset.
    public static let singleton = ObjectScope(kind: .singleton, description: "singleton")

    /// One instance per distinct value of the registration's runtime arguments, kept until a reset.
    ///
    /// ```swift
    /// container.register(Connection.self) { (_, host: String) in Connection(host: host) }.inObjectScope(.multiton)
    /// container.resolve(Connection.self, argument: "a") === container.resolve(Connection.self, argument: "a")  // true
    /// container.resolve(Connection.self, argument: "a") === container.resolve(Connection.self, argument: "b")  // false
    /// ```
    ///
    /// Every argument must be `Hashable` at run time; one that is not fails the resolve with
    /// ``ResolutionError/Code/argumentsNotHashable``. A registration without arguments keeps one instance.
    /// Hits take a lock (unlike `.container`), so prefer `.container` when there are no arguments.
    public static let multiton = ObjectScope(kind: .multiton, description: "multiton")

    /// One instance per ``Scope``: the unit of work a server handles (a request, a job, a task).
    ///
    /// A scoped registration is resolved through a scope (``Container/withScope(label:isolation:_:)`` or
    /// ``Container/makeScope(label:)``); each scope makes its own instance, keeps it until it ends and then
    /// disposes it (see ``Disposable``). Resolving it through a container that is not a scope fails with
    /// ``ResolutionError/Code/noActiveScope``, and a longer-lived instance that would capture it
    /// (a `.container` or `.singleton` service whose factory resolves it) fails with
    /// ``ResolutionError/Code/captiveDependency``: never a silent leak of one request's data into
    /// the next.
    ///
    /// ```swift
    /// container.register(UnitOfWork.self) { r in UnitOfWork(db: try r.require(Database.self)) }
    ///     .inObjectScope(.scoped)
    /// try await container.withScope { scope in
    ///     let work = try scope.require(UnitOfWork.self)   // the same instance within this scope
    ///     try await work.commit()
    /// }   // disposed here
    /// ```
    public static let scoped = ObjectScope(kind: .scoped, description: "scoped")

    /// How long instances in this scope live, from shortest to longest; used to find captive dependencies.
    var lifetimeRank: Int {
        switch kind {
        case .transient: 0
        case .graph: 1
        case .scoped: 2
        case .weak: 2
        case .custom: 3
        case .container, .multiton: 4
        case .singleton: 5
        }
    }
}
