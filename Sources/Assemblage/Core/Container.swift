import _AssemblageShims

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
public final class Container: @unchecked Sendable {
    // @unchecked Sendable: `words` are atomics that follow a publication protocol; every other mutable
    // property is guarded by `writer`. Behaviors are not Sendable; they are called on the registering thread.

    /// 0: the current `_RegistrationTable` (unretained; `tables` owns it).
    /// 1: the current `_Fallbacks` (unretained; `fallbackLists` owns it), or nil.
    @usableFromInline let words: _AtomicWords
    let writer = _Lock()
    /// Every table this container published; the last is current. Older ones stay for in-flight readers.
    var tables: [_RegistrationTable]
    /// Every fallback list this container published; the last is current.
    var fallbackLists: [_Fallbacks] = []
    /// Every entry ever registered, in registration order (owns them; removed ones stay for in-flight readers).
    var entries: [any _AnyEntry] = []
    /// Registrations that replaced an earlier one under the same key: (earlier, later).
    var replacements: [(replaced: any _AnyEntry, by: any _AnyEntry)] = []
    var behaviors: [Behavior] = []
    /// Decorators registered here, by service type.
    var decoratorRecords: [ObjectIdentifier: [_DecoratorRecord]] = [:]
    /// Collection contributions registered here, by element type, in registration order.
    var collectionElements: [ObjectIdentifier: [_CollectionElement]] = [:]
    /// Set on the containers of a validation sandbox only: records every lookup and failure.
    @exclusivity(unchecked) var recorder: _Recorder? {
        didSet { isRecording = recorder != nil }
    }
    /// Whether ``recorder`` is set: the inlined lookup leaves recording containers to ``_lookup(_:)``.
    @exclusivity(unchecked) @usableFromInline var isRecording = false
    /// Properties applied to this container (its fallbacks' are merged beneath them when read).
    var ownProperties = Properties()

    /// The scope registrations get when they do not choose one.
    public let defaultObjectScope: ObjectScope
    /// A name for this container in diagnostics (`"main"`, a module's name, …).
    public let label: String

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
    public init(parent: Container? = nil, defaultObjectScope: ObjectScope = .graph, behaviors: [Behavior] = [],
                label: String = "container", registeringClosure: (Container) -> Void = { _ in }) {
        self.defaultObjectScope = defaultObjectScope
        self.label = label
        let table = _RegistrationTable(capacity: 16)
        tables = [table]
        words = _AtomicWords(count: 2)
        words.storeRelease(0, Unmanaged.passUnretained(table).toOpaque())
        self.behaviors = behaviors
        if let parent { appendFallback(parent) }
        registeringClosure(self)
    }

    deinit {
        words.deallocate()
    }

    // MARK: Lookup

    /// ``_lookup(_:)`` with its common case inlined: `key` in its home slot of this container's table.
    @inlinable @inline(__always)
    func _lookupFast(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        let table = Unmanaged<_RegistrationTable>.fromOpaque(UnsafeRawPointer(words.loadAcquire(0).unsafelyUnwrapped))
        if let entry = table._withUnsafeGuaranteedRef({ $0.findAtHome(key) }), !isRecording { return entry }
        return _lookup(key)
    }

    /// The entry for `key` in this container or its fallbacks (depth-first, in order), unretained.
    ///
    /// A validation sandbox records the lookup (one nil check for every other container).
    @usableFromInline
    func _lookup(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        let found = _lookupLocal(key)
        if let recorder, let found { recorder.recordLookup(of: key, found: found) }
        return found
    }

    /// `_lookup` without recording: also what fallbacks are searched with.
    @inline(__always)
    func _lookupLocal(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        let table = Unmanaged<_RegistrationTable>.fromOpaque(words.loadAcquire(0).unsafelyUnwrapped)
        if let entry = table._withUnsafeGuaranteedRef({ $0.find(key) }) { return entry }
        guard let fallbacks = words.loadAcquire(1) else { return nil }
        return Unmanaged<_Fallbacks>.fromOpaque(fallbacks)._withUnsafeGuaranteedRef { $0.find(key) }
    }

    /// The current table (under or outside the writer lock; the table object stays alive with the container).
    var currentTable: _RegistrationTable {
        Unmanaged<_RegistrationTable>.fromOpaque(words.loadAcquire(0).unsafelyUnwrapped).takeUnretainedValue()
    }

    /// The containers searched after this one, in order.
    public var fallbacks: [Container] {
        writer.withLock { fallbackLists.last?.containers ?? [] }
    }

    /// The entries that are registered now, in registration order.
    var currentEntries: [any _AnyEntry] {
        writer.withLock { liveEntriesLocked() }
    }

    /// The entries registered now, in registration order (call under the writer lock).
    func liveEntriesLocked() -> [any _AnyEntry] {
        let live = currentTable.liveAddresses
        return entries.filter { live.contains(Unmanaged.passUnretained($0 as AnyObject).toOpaque()) }
    }

    /// The keys of the live registrations of one service type, in registration order (call under the writer
    /// lock). A scan: only diagnostics, `hasAnyRegistration(of:)` and decorator checks need it, and keeping an
    /// index instead cost every registration an array.
    func keysLocked(ofType type: ObjectIdentifier) -> [ServiceKey] {
        liveEntriesLocked().compactMap { ObjectIdentifier($0.key.serviceType) == type ? $0.key : nil }
    }

    /// This container and every container lookup reaches from it, in lookup order (depth-first, in the order
    /// fallbacks were added, each container once). Every walk of the fallback graph goes through it.
    func lookupChain() -> [Container] {
        var result: [Container] = []
        var visited = Set<ObjectIdentifier>()
        func visit(_ container: Container) {
            guard visited.insert(ObjectIdentifier(container)).inserted else { return }
            result.append(container)
            for fallback in container.fallbacks { visit(fallback) }
        }
        visit(self)
        return result
    }
}

/// The containers a container falls back to, published as one immutable value.
///
/// A list may end with another list, shared (`tail`): a module's scope falls back to its own dependencies'
/// exports, then to the list of its last dependency's scope, so a chain of n modules holds n short lists
/// instead of n lists of up to n containers.
@usableFromInline
final class _Fallbacks: @unchecked Sendable {  // @unchecked: immutable.
    /// The containers of this list before its tail.
    let own: [Container]
    private let unretained: [Unmanaged<Container>]
    /// The list searched after ``own`` (shared with another container), if any.
    let tail: _Fallbacks?
    /// `tail`, unretained (this list holds it).
    private let unretainedTail: Unmanaged<_Fallbacks>?
    /// An index standing for the first `indexedCount` containers (a module assembler's exports): one probe
    /// answers for all of them, so a root over n modules does not probe n tables.
    let index: _ExportIndex?
    let indexedCount: Int
    /// `index`, unretained (this list holds it), so that a lookup touches no reference count.
    private let unretainedIndex: Unmanaged<_ExportIndex>?

    init(_ containers: [Container], index: _ExportIndex? = nil, indexedCount: Int = 0, tail: _Fallbacks? = nil) {
        own = containers
        unretained = containers.map { Unmanaged.passUnretained($0) }
        self.tail = tail
        unretainedTail = tail.map { Unmanaged.passUnretained($0) }
        precondition(tail?.index == nil, "a shared tail has no export index")
        self.index = index
        self.indexedCount = index == nil ? 0 : indexedCount
        unretainedIndex = index.map { Unmanaged.passUnretained($0) }
    }

    /// Every container, in order: ``own``, then the tail's (O(n); diagnostics and configuration only).
    var containers: [Container] {
        var result = own
        var next = tail
        while let list = next {
            result += list.own
            next = list.tail
        }
        return result
    }

    @usableFromInline
    func find(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        var start = 0
        if let index = unretainedIndex {
            if let entry = index._withUnsafeGuaranteedRef({ $0.find(key) }) { return entry }
            start = indexedCount
        }
        for position in start..<unretained.count {
            if let entry = unretained[position]._withUnsafeGuaranteedRef({ $0._lookupLocal(key) }) { return entry }
        }
        // The tails, by a loop: a chain of modules must not deepen the stack.
        var next = unretainedTail
        while let list = next {
            let (entry, after) = list._withUnsafeGuaranteedRef { $0.findInOwn(key) }
            if let entry { return entry }
            next = after
        }
        return nil
    }

    /// `key` in ``own`` (tails have no index), or this list's tail to search next.
    private func findInOwn(_ key: ServiceKey) -> (UnsafeMutableRawPointer?, Unmanaged<_Fallbacks>?) {
        for container in unretained {
            if let entry = container._withUnsafeGuaranteedRef({ $0._lookupLocal(key) }) { return (entry, nil) }
        }
        return (nil, unretainedTail)
    }
}

/// The exports of a module assembler's modules merged into one table: for each key, the export of the
/// earliest module in assembly order that exports it (the one a search of the exports in order would find
/// first). Kept current by each module's ``_ModuleScope`` as it exports a registration.
final class _ExportIndex: @unchecked Sendable {  // @unchecked: `positions` is guarded by `lock`; `table` is a container.
    /// Holds the merged entries (its table only: it has no fallbacks, and no walk of the fallback graph
    /// reaches it, so diagnostics see the exports themselves).
    private let table = Container(label: "ModuleAssembler (export index)")
    private let lock = _Lock()
    /// The assembly position of the module whose export each key holds now.
    private var positions: [ServiceKey: Int] = [:]

    func find(_ key: ServiceKey) -> UnsafeMutableRawPointer? { table._lookupLocal(key) }

    /// Records an export of the module at `position`, unless an earlier module exports the same key.
    func offer(_ entry: any _AnyEntry, position: Int) {
        lock.withLock {
            if let holder = positions[entry.key], holder < position { return }
            positions[entry.key] = position
            _ = table.add(entry)
        }
    }
}
