/// Holds registrations and resolves services with their dependencies injected.
///
/// Register how each service is made, then resolve it; the factory receives a ``Resolver`` to resolve
/// what the service depends on:
///
/// ```swift
/// let container = Container()
/// container.register(Clock.self) { _ in SystemClock() }.inObjectScope(.container)
/// container.register(Greeter.self) { r in Greeter(clock: r.resolve(Clock.self)!) }
///
/// let greeter = container.resolve(Greeter.self)!           // optional API, as in Swinject
/// let same = try container.require(Greeter.self)            // throwing API with a full diagnosis
/// ```
///
/// ## Thread safety
/// A container is `Sendable`: register, resolve and reset from any thread at any time, with no lock of
/// your own and no `synchronize()` call. Resolution takes no lock: registrations live in a table that
/// readers load atomically; a `.container` or `.singleton` instance is created once even when many threads
/// ask for it at the same moment (the others wait for it), and a hit on it is one atomic load.
///
/// ## Parents and fallbacks
/// A container created with `Container(parent:)` resolves from its own registrations first and then from its
/// parent's. Instances of a parent's `.container` registrations are shared with its children; a child's
/// registrations are never visible to the parent. ``addFallback(_:)`` adds more containers to search, in order.
///
/// - Note: Factories are `@Sendable` (they may run on any thread) and may throw. This is the one place where
///   Assemblage is stricter than Swinject: a factory that captures non-`Sendable` state must capture it
///   through a `Sendable` wrapper.
public class Container: @unchecked Sendable {
    // Not final only so that ``Scope`` can be one; every member is final, so nothing is dispatched dynamically.
    // @unchecked Sendable: the registry guards its own state (atomics and its writer lock); the rest is
    // immutable.

    /// What this container holds: its registrations, fallbacks, behaviors and owned instances, and the lock and
    /// atomic words that guard them (see ``_Registry``). A scope's view shares its container's.
    @usableFromInline final let registry: _Registry
    /// The registry's atomic words, copied here so that the inlined lookup loads them from the container itself
    /// (one dependent load fewer per lookup than going through `registry`).
    @usableFromInline final let words: _AtomicWords
    /// A container, a synchronized view or a scope's view (see ``_ContainerRole``).
    @usableFromInline final let role: _ContainerRole
    /// The scope registrations get when they do not choose one.
    public final let defaultObjectScope: ObjectScope
    /// A name for this container in diagnostics (`"main"`, a module's name, …).
    public final var label: String { labelStorage.text }
    /// ``label``, or for a module's scope the module's type, whose name ``label`` spells when asked (diagnostics):
    /// assembling a module then makes no string.
    final let labelStorage: _ContainerLabel
    /// Whether this container is a module's scope (see Modules/ModuleExporter.swift): a lookup that starts in another
    /// container and finds one of its registrations resolves it here, through the registration's export forwarder,
    /// rather than in the container where the lookup started. Immutable, so that the fallback search reads it with
    /// one plain load.
    @usableFromInline final let isModuleScope: Bool

    /// Whether this container is a module's scope other than `home` (the registry owner a lookup or walk started
    /// from): its registrations and collection elements are then that module's, resolved through their forwarders
    /// and reset by their module, not by the walk.
    final func isModuleScope(otherThan home: Container) -> Bool { isModuleScope && self !== home }

    /// Creates a container.
    ///
    /// ```swift
    /// let app = Container()
    /// let screen = Container(parent: app)   // sees app's registrations; app does not see screen's
    /// ```
    ///
    /// - Parameters:
    ///   - parent: A container to fall back to when this one has no matching registration.
    ///   - defaultObjectScope: The scope of registrations that do not set one (``ObjectScope/graph``).
    ///   - behaviors: Objects notified of each registration.
    ///   - label: A name for this container in diagnostics.
    ///   - registeringClosure: Registers services into the new container.
    public convenience init(
        parent: Container? = nil, defaultObjectScope: ObjectScope = .graph,
        behaviors: [any Behavior] = [], label: String = "container",
        registeringClosure: (Container) -> Void = { _ in }
    ) {
        self.init(
            parent: parent, defaultObjectScope: defaultObjectScope, behaviors: behaviors, label: .text(label),
            serialization: nil, registeringClosure: registeringClosure)
    }

    /// The designated initializer; `serialization` is the lock of a synchronized view (see `synchronize()`);
    /// `checkingObservers` false when the caller knows that no behavior is a ``ContainerObserver``.
    init(
        parent: Container?, defaultObjectScope: ObjectScope, behaviors: [any Behavior], label: _ContainerLabel,
        isModuleScope: Bool = false, serialization: _Lock?, checkingObservers: Bool = true,
        registeringClosure: (Container) -> Void
    ) {
        role = serialization.map { .synchronizedView($0) } ?? .container
        registry = _Registry(behaviors: behaviors, checkingObservers: checkingObservers)
        words = registry.words
        self.defaultObjectScope = defaultObjectScope
        labelStorage = label
        self.isModuleScope = isModuleScope
        // A synchronized view sends every resolve to the out-of-line lookup, which hands it to the locked path.
        if serialization != nil { setUsesSlowLookup(true) }
        if let parent { appendFallback(parent) }
        registeringClosure(self)
    }

    /// The view a ``Scope`` resolves through: it shares the registry of `owner` (the container the scope was made
    /// from, or a module's container that a request scope's resolution reached), so lookups through it are that
    /// container's, at the same cost; making a scope allocates the view and the storage and nothing else. A view
    /// of a validation sandbox's container records its lookups as the container does.
    init(scopeOf storage: _ScopeStorage, over owner: borrowing Container, label: String) {
        role = .scopeView(storage)
        registry = owner.registry
        words = owner.words
        defaultObjectScope = owner.defaultObjectScope
        labelStorage = .text(label)
        isModuleScope = owner.isModuleScope
    }

    /// The current table (under the writer lock, or where no writer can run).
    final var currentTable: _RegistrationTable { table }

    /// Whether this container itself (not a fallback) has a registration under `key`.
    final func registersOwn(_ key: ServiceKey) -> Bool { writer.withLock { table.find(key) != nil } }

    /// This container's own entry for `key`, if any.
    final func ownEntry(for key: ServiceKey) -> (any _AnyEntry)? { writer.withLock { table.entry(for: key) } }

    /// The containers searched after this one, in order (for a scope, after the container it was made from,
    /// whose registrations it resolves as its own).
    public final var fallbacks: [Container] {
        writer.withLock { fallbackList?.containers ?? [] }
    }

    /// The entries that are registered now, in registration order.
    final var currentEntries: [any _AnyEntry] {
        writer.withLock { liveEntriesLocked() }
    }

    /// The entries registered now, in registration order (call under the writer lock).
    final func liveEntriesLocked() -> [any _AnyEntry] {
        table.liveEntries.sorted { $0.order < $1.order }.map(\.entry)
    }

    /// The keys of the live registrations of one service type, in registration order (call under the writer
    /// lock). A scan of the live registrations: only diagnostics, `hasAnyRegistration(of:)` and decorator
    /// checks need it, and keeping an index instead cost every registration an array.
    final func keysLocked(ofType type: ObjectIdentifier) -> [ServiceKey] {
        table.liveEntries.filter { ObjectIdentifier($0.entry.key.serviceType) == type }
            .sorted { $0.order < $1.order }.map(\.entry.key)
    }

    /// This container and every container lookup reaches from it, in lookup order (depth-first, in the order
    /// fallbacks were added, each container once; of a container reached through another, the fallbacks a lookup
    /// from elsewhere searches, see ``_Fallbacks/searchedFromElsewhere``). Every walk of the fallback graph goes
    /// through it.
    ///
    /// - Complexity: O(containers + fallback links), iterative at any depth.
    package final func lookupChain() -> [Container] {
        var result: [Container] = [self]
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        // Depth-first with an explicit stack: each level is a fallback list and the position reached in it.
        var stack: [(containers: [Container], position: Int)] = [(fallbacks, 0)]
        while let top = stack.last {
            guard top.position < top.containers.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].position += 1
            let next = top.containers[top.position]
            guard visited.insert(ObjectIdentifier(next)).inserted else { continue }
            result.append(next)
            let deeper = next.writer.withLock { next.fallbackList?.containersSearchedFromElsewhere ?? [] }
            if !deeper.isEmpty { stack.append((deeper, 0)) }
        }
        return result
    }
}

/// The replacements of one key in one container: each distinct (replaced, replacing) pair of sites, in the
/// order first seen, and how many replacements there were. Re-registering from the same line a million
/// times keeps one pair.
struct _ReplacementRecord {
    private(set) var pairs: [(replaced: RegistrationSite, by: RegistrationSite)] = []
    private var seen: Set<[RegistrationSite]> = []
    /// Every replacement, repeated pairs included.
    private(set) var count = 0

    mutating func add(replaced: RegistrationSite, by: RegistrationSite) {
        count += 1
        if seen.insert([replaced, by]).inserted { pairs.append((replaced, by)) }
    }
}

/// What a container knows about its registrations besides the table readers probe (guarded by its writer lock).
struct _RegistrationRecords {
    // Registrations are numbered by the registry's `lastOrder`, to order the live ones (the table keeps each
    // entry's number). A replaced or removed entry leaves the table and is retired, so the container holds what is
    // registered, not its history.

    /// What replaced what, per key, for diagnostics: the distinct pairs of sites, not the entries.
    var replacements: [ServiceKey: _ReplacementRecord] = [:]
    /// Decorators registered here, by service type.
    var decorators: [ObjectIdentifier: [_DecoratorRecord]] = [:]
    /// Collection contributions registered here, by element type, in registration order.
    var collectionElements: [ObjectIdentifier: [_CollectionElement]] = [:]
}

/// A container's label: its text, or a type whose name is the text (a module's scope), spelled when asked.
enum _ContainerLabel: Sendable {
    case text(String)
    case typeName(Any.Type)

    var text: String {
        switch self {
        case .text(let text): text
        case .typeName(let type): _typeName(type, qualified: false)
        }
    }
}
