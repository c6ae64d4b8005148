/// One registration: how a service is made, in which scope its instances live, and what runs after it is made.
///
/// ``Container/register(_:name:file:line:factory:)-954wu`` returns the entry so that you can configure it by chaining:
///
/// ```swift
/// container.register(Database.self) { _ in SQLiteDatabase(path: ":memory:") }
///     .inObjectScope(.container)
///     .initCompleted { r, database in database.logger = r.resolve(Logger.self) }
///     .implements(Storage.self)
/// ```
///
/// An entry is safe to configure from any thread; a resolution running at the same moment sees the
/// configuration from before or after the change, never a mixture.
public final class ServiceEntry<Service>: @unchecked Sendable {
    // @unchecked Sendable: the words are atomics; `stored` is only touched under the creation coordinator's
    // lock; everything else is immutable.

    /// The key the entry is registered under.
    ///
    /// The first stored property, which a registration table reads in place (see `_RegistrationTable`): keep it
    /// first.
    public let key: ServiceKey
    /// The entry's own block of atomic words (see ``_EntryWord``), in place: the second stored property, at a fixed
    /// offset, which ``words`` addresses (ServiceEntry+State.swift). No code reads or writes it as a property after
    /// `init` but the check of that offset: every access is a C11 atomic operation through ``words``, as
    /// swift-atomics' `ManagedAtomic` keeps its storage. (A `Mirror` of an entry, e.g. `dump(entry)`, reads it
    /// plainly: debugging output only.)
    var _wordStorage: (UInt, UInt, UInt) = (0, 0, 0)

    /// The registered service type.
    public var serviceType: Any.Type { key.serviceType }
    /// The type of the runtime arguments (`Void` when there are none).
    public var argumentsType: Any.Type { key.argumentsType }

    /// Which bit of a resolving thread's and a scope's 64-bit filters stands for this entry (see ``filterBit``).
    @usableFromInline let filterShift: UInt8
    /// Which box ``factory`` is (see ``_FactoryKind``).
    @usableFromInline let factoryKind: _FactoryKind
    /// Whether the service type is a class, so that a scope holds its instances as plain references (see
    /// ``_ScopeInstance``); decided once here, where a runtime type test costs nothing that matters.
    @usableFromInline let servesObjects: Bool
    /// The line of ``site`` (in the same word as the two above).
    private let siteLine: Int32
    /// The factory of a registration without runtime arguments (``_FactoryKind/arity0``), the common case: held
    /// here rather than in a box, so that registering allocates one object fewer and looks up no box type.
    @usableFromInline let factory0: (@Sendable (any Resolver) throws -> Service)?
    /// The factory of any other registration, held +1 (released by `deinit`) and read without reference-count
    /// traffic: `_Factory1<Service, A>` … `_Factory3<Service, A, B, C>` for one to three arguments (specialised,
    /// pack-free resolve paths), `_FactoryBox<Service, repeat each Arg>` for more, the isolated boxes; the key
    /// guarantees the types. For ``_FactoryKind/scopedForwarding``, the ``_ModuleExportEntry`` that ``forwarded``
    /// holds, not retained here.
    @usableFromInline let factoryAddress: _Unowned<AnyObject>?
    /// The factory box (see ``factoryAddress``), or nil for a factory without arguments and for a forwarder.
    var factory: AnyObject? { ownedFactory?.object }
    /// ``factoryAddress`` when the entry holds it (+1): every kind but ``_FactoryKind/scopedForwarding``.
    private var ownedFactory: _Unowned<AnyObject>? { factoryKind == .scopedForwarding ? nil : factoryAddress }
    /// Set when this entry forwards to another registration (``implements(_:name:)``).
    @usableFromInline let forwarded: (any _AnyEntry)?
    /// The token of the container that owns the registration (see ``_EntryOwner``): one strong reference,
    /// where a weak reference to the container itself would cost each registration the runtime's weak-reference
    /// bookkeeping.
    var owner: _EntryOwner?
    /// The container that owns the registration, while it exists.
    var container: Container? {
        get { owner?.container }
        set { owner = newValue?.entryOwner }
    }
    /// The file of ``site``.
    private let siteFile: String
    /// Where the registration was made, for diagnostics.
    public var site: RegistrationSite { RegistrationSite(file: siteFile, line: Int(siteLine)) }

    /// The instances of the weak, custom and multiton scopes, made on first use, so that entries of the other
    /// scopes do not carry their fields (guarded by the coordinator; kept in a word of the entry's second block,
    /// as most registrations never have any).
    var stored: _StoredInstances<Service>? {
        get { words.object(.storedInstances, as: _StoredInstances<Service>.self) }
        set { words.exchangeRetained(.storedInstances, newValue) }
    }

    /// ``stored``, made if needed (under the coordinator's lock).
    var storedInstances: _StoredInstances<Service> {
        if let stored { return stored }
        let made = _StoredInstances<Service>()
        stored = made
        return made
    }

    @usableFromInline
    init(
        key: ServiceKey, scope: ObjectScope, site: RegistrationSite, factory: AnyObject?, kind: _FactoryKind,
        factory0: consuming (@Sendable (any Resolver) throws -> Service)? = nil
    ) {
        self.key = key
        filterShift = Self.nextFilterShift()
        self.factory0 = consume factory0
        self.factoryAddress = factory.map(_Unowned.init(retaining:))
        self.factoryKind = kind
        self.servesObjects = _ScopeInstance.holdsObjects(of: Service.self)
        self.forwarded = nil
        siteFile = site.file
        siteLine = Int32(clamping: site.line)
        checkWordStorage()
        words.storeFirstScope(scope)
        if scope.kind == .custom { _Coordinator.shared.withLock { storedInstances.storage = scope.makeStorage() } }
    }

    /// A registration whose factory takes no runtime arguments.
    @usableFromInline convenience init(
        key: ServiceKey, scope: ObjectScope, site: RegistrationSite,
        factory0: consuming @escaping @Sendable (any Resolver) throws -> Service
    ) {
        self.init(key: key, scope: scope, site: site, factory: nil, kind: .arity0, factory0: factory0)
    }

    /// A forwarding entry. When `target` is a ``_ModuleExportEntry`` around a `ServiceEntry<Service>` (a module's
    /// export of its own registration), the entry forwards with its type known: ``_FactoryKind/scopedForwarding``,
    /// whose resolve paths call the target's typed paths directly instead of the type-erased ones.
    convenience init(key: ServiceKey, forwardingTo target: any _AnyEntry, site: RegistrationSite) {
        let scoped = target as? _ModuleExportEntry
        self.init(
            key: key, forwardingTo: target, site: site,
            typedExport: scoped.flatMap { $0.target is ServiceEntry<Service> ? $0 : nil })
    }

    /// A forwarding entry; `typedExport` is `target` when it is a ``_ModuleExportEntry`` around a
    /// `ServiceEntry<Service>` (a module exporting its own registration under its own type, which the exporter knows
    /// without the dynamic casts).
    init(
        key: ServiceKey, forwardingTo target: any _AnyEntry, site: RegistrationSite,
        typedExport: _ModuleExportEntry?
    ) {
        self.key = key
        filterShift = Self.nextFilterShift()
        self.factory0 = nil
        if let typedExport {
            self.factoryAddress = _Unowned(typedExport)
            self.factoryKind = .scopedForwarding
        } else {
            self.factoryAddress = nil
            self.factoryKind = .forwarding
        }
        self.servesObjects = _ScopeInstance.holdsObjects(of: Service.self)
        self.forwarded = target
        siteFile = site.file
        siteLine = Int32(clamping: site.line)
        checkWordStorage()
        words.storeFirstScope(target.objectScope)
    }

    deinit {
        // Instances the owner would have disposed are the owner's no more: whoever holds them owns them.
        if words.isSet(.sharedInstance) || words.isSet(.storedInstances) {
            container?.existingDisposals?.forget(entry: identity)
        }
        words.releaseEntryWords()
        ownedFactory?.release()
    }

    // MARK: Configuration

    /// The scope instances of this registration live in.
    public var objectScope: ObjectScope {
        if let forwarded { return forwarded.objectScope }
        // In a read section: a concurrent `inObjectScope` retires the old scope, which must not be freed
        // before this reference to it is retained.
        return _withReadSection { words.object(.scope, as: ObjectScope.self) ?? .graph }
    }

    /// Sets the scope that instances of this registration live in.
    ///
    /// ```swift
    /// container.register(Clock.self) { _ in SystemClock() }.inObjectScope(.container)
    /// ```
    ///
    /// - Parameter objectScope: The scope, e.g. ``ObjectScope/container`` or a custom one.
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func inObjectScope(_ objectScope: ObjectScope) -> Self {
        if let forwarded {
            forwarded._setScope(objectScope)
        } else {
            _setScope(objectScope)
        }
        return self
    }

    /// Sets the scope from any ``ObjectScopeProtocol`` value.
    ///
    /// A scope that is not an ``ObjectScope`` is wrapped in a custom scope that uses its storage.
    ///
    /// - Parameter objectScope: The scope.
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func inObjectScope(_ objectScope: any ObjectScopeProtocol) -> Self {
        if let scope = objectScope as? ObjectScope { return inObjectScope(scope) }
        return inObjectScope(
            ObjectScope(
                storageFactory: objectScope.makeStorage,
                description: String(describing: type(of: objectScope))))
    }

    /// Adds a step that runs after an instance is made and stored in its scope: property injection.
    ///
    /// Because the instance is already stored when the step runs, two services that refer to each other
    /// through a step (rather than through their initialisers) resolve to each other in one graph:
    ///
    /// ```swift
    /// container.register(Parent.self) { r in Parent(child: r.resolve(Child.self)!) }
    /// container.register(Child.self) { _ in Child() }
    ///     .initCompleted { r, child in child.parent = r.resolve(Parent.self) }
    /// ```
    ///
    /// Steps run in the order they were added. A step that throws fails the resolution.
    ///
    /// - Parameter completed: Receives the resolver and the new instance.
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func initCompleted(_ completed: @escaping @Sendable (any Resolver, Service) throws -> Void) -> Self {
        let replaced: AnyObject? = _Coordinator.shared.withLock {
            let old = words.object(.completions, as: _Completions<Service>.self)
            let steps = (old?.steps ?? _AppendOnlyList()).appending(completed)
            return words.exchangeRetained(.completions, _Completions(steps))
        }
        // A resolve running now may be reading the old list: it is released once no read section can.
        if let replaced { _Reclaimer.retire(replaced) }
        return self
    }

    /// Whether any ``initCompleted(_:)`` step is registered.
    public var hasInitCompleted: Bool { words.isSet(.completions) }

    /// How many ``initCompleted(_:)`` steps are registered.
    var initCompletedCount: Int {
        _Coordinator.shared.withLock {
            words.object(.completions, as: _Completions<Service>.self)?.steps.count ?? 0
        }
    }

    /// Registers this entry under another type as well, so that resolving `type` gives the same instance.
    ///
    /// ```swift
    /// container.register(FileCache.self) { _ in FileCache() }
    ///     .inObjectScope(.container)
    ///     .implements(Cache.self)
    /// container.resolve(Cache.self) === container.resolve(FileCache.self)   // true
    /// ```
    ///
    /// - Parameters:
    ///   - type: Another type the service conforms to or inherits from.
    ///   - name: The name to register it under.
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func implements<T>(_ type: T.Type, name: String? = nil) -> Self {
        container?.forward(type, name: name, to: self)
        return self
    }

    /// Registers this entry under several other types at once.
    ///
    /// ```swift
    /// container.register(FileCache.self) { _ in FileCache() }.implements(Cache.self, Purgeable.self)
    /// ```
    ///
    /// - Parameters:
    ///   - first: A type the service conforms to or inherits from.
    ///   - second: Another such type.
    ///   - more: Any further types.
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func implements<T1, T2, each T>(_ first: T1.Type, _ second: T2.Type, _ more: repeat (each T).Type) -> Self {
        implements(first, name: nil)
        implements(second, name: nil)
        for type in repeat each more { implements(type, name: nil) }
        return self
    }

    // MARK: Resolution (hot path)

    /// The entry's identity, by which a thread's frames and graph, a scope's slots and the creation coordinator
    /// know it.
    @inlinable @inline(__always)
    var identity: ObjectIdentifier { ObjectIdentifier(self) }

    @inlinable @inline(__always)
    var scopeKind: ObjectScope.Kind {
        guard let scope = words.unowned(.scope, as: ObjectScope.self) else { return .graph }
        return scope.with { $0.kind }
    }

    // `_resolve0…3`, the resolve paths for 0 to 3 runtime arguments, are generated: ServiceEntry+Arities.swift.

    /// The shared instance, when the scope keeps one and it exists.
    @inlinable @inline(__always)
    func _sharedInstanceIfShared() -> Service? {
        let kind = scopeKind
        guard kind == .container || kind == .singleton else { return nil }
        return _sharedInstance()
    }

    /// Resolves with any number of runtime arguments: forwarders, factories with four or more arguments, and
    /// any entry reached through a path of another arity form (the box is converted once and kept).
    @usableFromInline
    func _resolvePack<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Service {
        if forwarded != nil { return try _resolveForwarded(container, repeat each arguments) }
        if factoryKind.isIsolated { return try _resolveIsolated(container, repeat each arguments) }
        if let shared = _sharedInstanceIfShared() { return shared }
        let box = _Unowned(_packBox())
        return try _resolve(container, _MakePack<repeat each Arg>(box: box, arguments: (repeat each arguments)))
    }

    /// The factory as a pack box (converting a fixed-arity box once, under the coordinator's lock).
    @usableFromInline
    func _packBox() -> AnyObject {
        if factoryKind == .pack { return factory! }
        if let made = words.object(.packBox, as: AnyObject.self) { return made }
        return _Coordinator.shared.withLock {
            if let made = words.object(.packBox, as: AnyObject.self) { return made }
            let made = factory0.map { _FactoryBox<Service>($0) } ?? (factory as! any _PackBoxMaking).makePackBox()
            words.exchangeRetained(.packBox, made)
            return made
        }
    }

    /// Makes an instance in its scope with `maker` (callers have already returned a shared instance if any).
    ///
    /// Generic over the maker, so that it specialises fully in the caller's module.
    @inlinable @inline(never)
    func _resolve<M: _Maker>(_ container: Container, _ maker: M) throws -> Service {
        let kind = scopeKind
        // Borrowed, not retained: the state lives as long as its thread. (Out of line, so that `self` and the
        // state stay borrowed here; inlined into a caller's loop, the optimiser retains them.)
        return try _ResolutionState.withCurrent { state in
            switch kind {
            case .transient, .graph:
                let graph = kind == .graph
                if graph, state.graphMayHold(identity), let instance = state.graphInstance(identity) {
                    return instance as! Service
                }
                let instance = try _construct(state, container, graph: graph, maker)
                // Made through a scope: the scope disposes it when it ends.
                if let scope = container.scopeStorage, !_trackInScope(instance, scope) {
                    throw _scopedFailure(state, .scopeEnded)
                }
                return instance
            case .scoped:
                return try _createScoped(state, container, maker)
            // A shared instance is made with the resolver of the container a scope was made from, whichever
            // scope asked first (see `_sharedResolver(for:)`): what it keeps can never reach a scope's instances.
            case .container, .singleton:
                return try _createShared(state, container, maker)
            case .weak, .custom:
                return try _createStored(state, container, kind, maker)
            case .multiton:
                return try _createMultiton(state, container, maker.arguments(), maker)
            }
        }
    }

    /// Makes an instance in its scope with a closure (the isolated and async paths, which are not hot).
    func _resolve(
        _ container: Container, _ arguments: () -> [Any],
        _ make: (any Resolver) throws -> Service
    ) throws -> Service {
        try withoutActuallyEscaping(arguments) { arguments in
            try withoutActuallyEscaping(make) { make in
                try _resolve(container, _MakeClosure(arguments: arguments, make: make))
            }
        }
    }

    /// Reads the shared instance without a lock (the caller is inside a read section; see
    /// ``_AtomicWords/sharedInstance(_:as:)``).
    @inlinable @inline(__always)
    func _sharedInstance() -> Service? {
        words.sharedInstance(.sharedInstance, as: Service.self, asObject: servesObjects)
    }

    /// Runs the factory inside a frame (cycle detection, error path) and the `initCompleted` steps.
    ///
    /// `inSlot`: the instance goes to a scope's slot, where the rest of the graph finds it; the common path then
    /// stores it in the graph only when the graph is kept (its own `initCompleted` steps, or a re-entry, still
    /// find it there through the rare path).
    @inlinable @inline(__always)
    func _construct<M: _Maker>(
        _ state: _ResolutionState, _ container: Container, graph: Bool,
        inSlot: Bool = false, _ make: M
    ) throws -> Service {
        // `enter` reports a nearly used-up stack (only deep in a chain); that rare case runs out of line, so
        // that the common path keeps its shape. So do decorators and a creation hook (the profiler), which one
        // flag of the process tells, read before the factory rather than after it.
        if try state.enter(identity, bit: filterBit) || _Shim.constructionIsObserved {
            return try _constructWithRoom(state, container, graph: graph, make)
        }
        let instance: Service
        do {
            instance = try _invoke(state, container, make)  // the error carries this frame's path
        } catch {
            state.leave()
            throw error
        }
        // The common case: no re-entry in this graph, no initCompleted steps (no decorators: tested above).
        if state.reentries == 0, !words.isSet(.completions) {
            if graph, inSlot ? state.keepsGraph : state.graphIsObserved {
                state.storeGraphInstance(instance, for: identity)
            }
            state.leave()
            return instance
        }
        return try _finishEntered(instance, state, container, graph: graph)
    }

    /// The rest of `_construct` when steps, decorators or a re-entry are involved (still inside the frame,
    /// which it leaves).
    @usableFromInline @inline(never)
    func _finishEntered(
        _ instance: Service, _ state: _ResolutionState, _ container: Container,
        graph: Bool
    ) throws -> Service {
        defer { state.leave() }
        if state.reentries != 0, graph, let superseding = state.graphInstance(identity) {
            return superseding as! Service  // made by a re-entrant run reached through initCompleted
        }
        return try _finishConstruction(instance, state, container, graph: graph)
    }

    /// Stores a new instance in the graph when it may be asked for again, runs its `initCompleted` steps and
    /// applies decorators.
    @inlinable @inline(__always)
    func _finishConstruction(
        _ instance: Service, _ state: _ResolutionState, _ container: Container,
        graph: Bool
    ) throws -> Service {
        let completions = words.unowned(.completions, as: _Completions<Service>.self)
        let stored = graph && (completions != nil || state.graphIsObserved)
        if stored { state.storeGraphInstance(instance, for: identity) }
        if let completions {
            // Only a stored instance closes a cycle through its steps (see `checkReentry`): when `graph` is
            // set, `stored` is too, since there are steps.
            if stored { state.markCompleting() }
            try _complete(instance, completions, container, state)
        }
        if _Shim.anyDecorators {
            return try _decorate(instance, container, state, replacingInGraph: stored)
        }
        return instance
    }

    /// Calls the factory; a failure that is not already a `ResolutionError` is wrapped with this key and path.
    @inlinable @inline(__always)
    func _invoke<M: _Maker>(
        _ state: _ResolutionState, _ container: Container,
        _ make: M
    ) throws -> Service {
        do {
            return try make.make(container, entry: self)
        } catch {
            throw state.factoryFailure(error, key)
        }
    }

    /// `_construct` (already entered) out of line: the factory run on a thread with stack to spare (the cold path
    /// of a deep chain), decorators, and the creation hook, so that the common path stays as it is.
    @usableFromInline @inline(never)
    func _constructWithRoom<M: _Maker>(
        _ state: _ResolutionState, _ container: Container, graph: Bool,
        _ make: M
    ) throws -> Service {
        guard let hook = _CreationHooks.current else { return try _constructOutOfLine(state, container, graph, make) }
        return try hook.observe(_creation(container), thread: ObjectIdentifier(state)) {
            try _constructOutOfLine(state, container, graph, make)
        }
    }

    /// ``_constructWithRoom(_:_:graph:_:)`` inside the creation hook, if any.
    func _constructOutOfLine<M: _Maker>(
        _ state: _ResolutionState, _ container: Container, _ graph: Bool,
        _ make: M
    ) throws -> Service {
        let instance: Service
        do {
            if _Shim.stackIsLow {
                instance = try _StackGuard.runWithRoom(state, key) { try _invoke(state, container, make) }
            } else {
                instance = try _invoke(state, container, make)
            }
        } catch {
            state.leave()
            throw error
        }
        return try _finishEntered(instance, state, container, graph: graph)
    }

    @usableFromInline
    func _complete(
        _ instance: Service, _ completions: _Unowned<_Completions<Service>>, _ container: Container,
        _ state: _ResolutionState
    ) throws {
        let steps = completions.object.steps
        for index in 0..<steps.count {
            let step = steps[index]
            do {
                try step(container, instance)
            } catch {
                throw state.factoryFailure(error, key)
            }
        }
    }

    @usableFromInline
    func _resolveForwarded<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Service {
        let instance = try forwarded!._resolveAny(container, repeat each arguments)
        guard let service = instance as? Service else {
            throw ResolutionError(code: .typeMismatch, key: key, path: [key])
        }
        return service
    }
}

extension ServiceEntry {
    /// The entry's bit in the filters of the entries a thread is constructing and of those a scope holds. Taken
    /// from a process-wide count of entries made, not from the entry's address: entries registered one after
    /// another (a chain, a request's services) get different bits whatever addresses the allocator gives them,
    /// so how often a filter answers "maybe" (and a scan runs) does not depend on the heap's layout.
    @inlinable @inline(__always)
    var filterBit: UInt { 1 &<< UInt(filterShift) }

    /// The next entry's ``filterShift``.
    static func nextFilterShift() -> UInt8 { UInt8(truncatingIfNeeded: _Counter.nextEntry() & 63) }
}
