import _AssemblageShims

/// One registration: how a service is made, in which scope its instances live, and what runs after it is made.
///
/// ``Container/register(_:name:file:line:factory:)-8bujr`` returns the entry so that you can configure it by chaining:
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
    public let key: ServiceKey
    /// The registered service type.
    public var serviceType: Any.Type { key.serviceType }
    /// The type of the runtime arguments (`Void` when there are none).
    public var argumentsType: Any.Type { key.argumentsType }

    /// The factory: `_Factory0<Service>` … `_Factory3<Service, A, B, C>` for up to three arguments (specialised,
    /// pack-free resolve paths), `_FactoryBox<Service, repeat each Arg>` for more; the key guarantees the types.
    @usableFromInline let factory: AnyObject?
    /// ``factory``'s address, unretained (the entry holds it): the hot path reaches the box with no
    /// reference-count traffic.
    @usableFromInline let factoryAddress: UnsafeMutableRawPointer?
    /// Which box ``factory`` is: 0…3 for the fixed-arity boxes, ``packKind`` for a pack box,
    /// ``forwardingKind`` when the entry forwards.
    @usableFromInline let factoryKind: Int8
    @usableFromInline static var packKind: Int8 { -1 }
    @usableFromInline static var forwardingKind: Int8 { -2 }
    /// A forwarder into a module's scope whose target has this entry's service type (``factoryAddress`` is
    /// the ``_ScopedEntry``). ``forwarded`` is set too, so every type-erased path treats it as a forwarder.
    @usableFromInline static var scopedKind: Int8 { -5 }
    /// Set when this entry forwards to another registration (``implements(_:name:)``).
    @usableFromInline let forwarded: (any _AnyEntry)?
    /// 0: the scope (a retained `ObjectScope`); 1: the shared instance (a retained `_InstanceBox<Service>`);
    /// 2: the `initCompleted` steps (a retained `_Completions<Service>`, or nil); 3: the factory converted to a
    /// pack box, made on demand when a fixed-arity factory is resolved through the variadic path; 4: the
    /// `onDispose` closure (a retained `_Disposer<Service>`, or nil); 5: set (to a retained marker) on the
    /// registration `registerScopedValue` makes; 6: the `_DisposalCache` of the last type made, or nil.
    @usableFromInline let words: _AtomicWords
    /// The container that owns the registration.
    weak var container: Container?
    /// Where the registration was made, for diagnostics.
    public let site: RegistrationSite

    /// The instances of the weak, custom and multiton scopes, made on first use, so that entries of the other
    /// scopes do not carry their fields (guarded by the coordinator).
    private var stored: _StoredInstances<Service>?

    /// ``stored``, made if needed (under the coordinator's lock).
    private var storedInstances: _StoredInstances<Service> {
        if let stored { return stored }
        let made = _StoredInstances<Service>()
        stored = made
        return made
    }

    init(key: ServiceKey, scope: ObjectScope, site: RegistrationSite, factory: AnyObject, kind: Int8) {
        self.key = key
        self.factory = factory
        self.factoryAddress = Unmanaged.passUnretained(factory).toOpaque()
        self.factoryKind = kind
        self.forwarded = nil
        self.site = site
        words = _AtomicWords(count: Self.wordCount)
        words.storeRelease(0, Unmanaged.passRetained(scope).toOpaque())
        if scope.kind == .custom { _Coordinator.shared.withLock { storedInstances.storage = scope.makeStorage() } }
    }

    /// A forwarding entry. When `target` is a ``_ScopedEntry`` around a `ServiceEntry<Service>` (a module's
    /// export of its own registration), the entry forwards with its type known: ``scopedKind``, whose resolve
    /// paths call the target's typed paths directly instead of the type-erased ones.
    init(key: ServiceKey, forwardingTo target: any _AnyEntry, site: RegistrationSite) {
        self.key = key
        self.factory = nil
        if let scoped = target as? _ScopedEntry, scoped.target is ServiceEntry<Service> {
            self.factoryAddress = Unmanaged.passUnretained(scoped).toOpaque()
            self.factoryKind = Self.scopedKind
        } else {
            self.factoryAddress = nil
            self.factoryKind = Self.forwardingKind
        }
        self.forwarded = target
        self.site = site
        words = _AtomicWords(count: Self.wordCount)
        words.storeRelease(0, Unmanaged.passRetained(target.objectScope).toOpaque())
    }

    static var wordCount: Int { 7 }

    deinit {
        // Instances the owner would have disposed are the owner's no more: whoever holds them owns them.
        if words.loadAcquire(1) != nil || stored != nil, let owner = container {
            owner.writer.withLock { owner.disposalList }?.forget(entry: pointer)
        }
        for index in 0..<Self.wordCount {
            if let pointer = words.exchange(index, nil) { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        words.deallocate()
    }

    // MARK: Configuration

    /// The scope instances of this registration live in.
    public var objectScope: ObjectScope {
        if let forwarded { return forwarded.objectScope }
        // In a read section: a concurrent `inObjectScope` retires the old scope, which must not be freed
        // before this reference to it is retained.
        return _withReadSection { Unmanaged<ObjectScope>.fromOpaque(words.loadAcquire(0)!).takeUnretainedValue() }
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
    public func inObjectScope(_ objectScope: ObjectScopeProtocol) -> Self {
        if let scope = objectScope as? ObjectScope { return inObjectScope(scope) }
        return inObjectScope(ObjectScope(storageFactory: objectScope.makeStorage,
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
    public func initCompleted(_ completed: @escaping @Sendable (Resolver, Service) throws -> Void) -> Self {
        let replaced: AnyObject? = _Coordinator.shared.withLock {
            let old = words.loadAcquire(2).map { Unmanaged<_Completions<Service>>.fromOpaque($0).takeUnretainedValue() }
            let steps = (old?.steps ?? _AppendOnlyList()).appending(completed)
            let new = Unmanaged.passRetained(_Completions(steps)).toOpaque()
            return words.exchange(2, new).map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
        }
        // A resolve running now may be reading the old list: it is released once no read section can.
        if let replaced { _Reclaimer.retire(replaced) }
        return self
    }

    /// Whether any ``initCompleted(_:)`` step is registered.
    public var hasInitCompleted: Bool { words.loadAcquire(2) != nil }

    /// How many ``initCompleted(_:)`` steps are registered.
    var initCompletedCount: Int {
        _Coordinator.shared.withLock {
            words.loadAcquire(2).map { Unmanaged<_Completions<Service>>.fromOpaque($0).takeUnretainedValue().steps.count } ?? 0
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

    @inlinable @inline(__always)
    var pointer: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    @inlinable @inline(__always)
    var scopeKind: ObjectScope.Kind {
        Unmanaged<ObjectScope>.fromOpaque(words.loadAcquire(0).unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.kind }
    }

    /// Resolves with no runtime arguments.
    ///
    /// A shared instance is returned before the factory is touched. The factory is reached through a maker
    /// that holds the box unretained, so a resolve retains nothing but the instance it returns.
    @inlinable @inline(__always)
    func _resolve0(_ container: Container) throws -> Service {
        guard factoryKind == 0 else {
            if factoryKind == Self.scopedKind { return try _resolveScoped0() }
            return try _resolvePack(container)
        }
        if let shared = _sharedInstanceIfShared() { return shared }
        return try _resolve(container, _Make0(box: UnsafeRawPointer(factoryAddress.unsafelyUnwrapped)))
    }

    /// Resolves with one runtime argument.
    @inlinable @inline(__always)
    func _resolve1<A>(_ container: Container, _ a: A) throws -> Service {
        guard factoryKind == 1 else {
            if factoryKind == Self.scopedKind { return try _resolveScoped1(a) }
            return try _resolvePack(container, a)
        }
        if let shared = _sharedInstanceIfShared() { return shared }
        return try _resolve(container, _Make1(box: UnsafeRawPointer(factoryAddress.unsafelyUnwrapped), a: a))
    }

    /// Resolves with two runtime arguments.
    @inlinable @inline(__always)
    func _resolve2<A, B>(_ container: Container, _ a: A, _ b: B) throws -> Service {
        guard factoryKind == 2 else {
            if factoryKind == Self.scopedKind { return try _resolveScoped2(a, b) }
            return try _resolvePack(container, a, b)
        }
        if let shared = _sharedInstanceIfShared() { return shared }
        return try _resolve(container, _Make2(box: UnsafeRawPointer(factoryAddress.unsafelyUnwrapped), a: a, b: b))
    }

    /// Resolves with three runtime arguments.
    @inlinable @inline(__always)
    func _resolve3<A, B, C>(_ container: Container, _ a: A, _ b: B, _ c: C) throws -> Service {
        guard factoryKind == 3 else {
            if factoryKind == Self.scopedKind { return try _resolveScoped3(a, b, c) }
            return try _resolvePack(container, a, b, c)
        }
        if let shared = _sharedInstanceIfShared() { return shared }
        return try _resolve(container, _Make3(box: UnsafeRawPointer(factoryAddress.unsafelyUnwrapped), a: a, b: b, c: c))
    }

    /// Runs `body` with the target of a ``scopedKind`` forwarder and the module scope it resolves in.
    @inlinable @inline(__always)
    func _withScopedTarget<R>(_ body: (ServiceEntry<Service>, Container) throws -> R) rethrows -> R {
        try Unmanaged<_ScopedEntry>.fromOpaque(UnsafeRawPointer(factoryAddress.unsafelyUnwrapped))
            ._withUnsafeGuaranteedRef { scoped in
                try Unmanaged<ServiceEntry<Service>>.fromOpaque(scoped.targetAddress)._withUnsafeGuaranteedRef { target in
                    try scoped.unmanagedScope._withUnsafeGuaranteedRef { try body(target, $0) }
                }
            }
    }

    /// A module export resolved in its module's scope, with no runtime arguments (out of line: one call per
    /// module boundary).
    @inlinable @inline(never)
    func _resolveScoped0() throws -> Service {
        try _withScopedTarget { target, scope in try target._resolve0(scope) }
    }

    @inlinable @inline(never)
    func _resolveScoped1<A>(_ a: A) throws -> Service {
        try _withScopedTarget { target, scope in try target._resolve1(scope, a) }
    }

    @inlinable @inline(never)
    func _resolveScoped2<A, B>(_ a: A, _ b: B) throws -> Service {
        try _withScopedTarget { target, scope in try target._resolve2(scope, a, b) }
    }

    @inlinable @inline(never)
    func _resolveScoped3<A, B, C>(_ a: A, _ b: B, _ c: C) throws -> Service {
        try _withScopedTarget { target, scope in try target._resolve3(scope, a, b, c) }
    }

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
        if factoryKind < Self.forwardingKind { return try _resolveIsolated(container, repeat each arguments) }
        if let shared = _sharedInstanceIfShared() { return shared }
        let box = UnsafeRawPointer(Unmanaged.passUnretained(_packBox()).toOpaque())
        return try _resolve(container, _MakePack<repeat each Arg>(box: box, arguments: (repeat each arguments)))
    }

    /// The factory as a pack box (converting a fixed-arity box once, under the coordinator's lock).
    @usableFromInline
    func _packBox() -> AnyObject {
        if factoryKind == Self.packKind { return factory.unsafelyUnwrapped }
        if let made = words.loadAcquire(3) { return Unmanaged<AnyObject>.fromOpaque(made).takeUnretainedValue() }
        return _Coordinator.shared.withLock {
            if let made = words.loadAcquire(3) { return Unmanaged<AnyObject>.fromOpaque(made).takeUnretainedValue() }
            let made = (factory as! any _PackBoxMaking).makePackBox()
            words.storeRelease(3, Unmanaged.passRetained(made).toOpaque())
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
        return try Unmanaged<_ResolutionState>.fromOpaque(_ResolutionState.current)._withUnsafeGuaranteedRef { state in
            switch kind {
            case .transient, .graph:
                let graph = kind == .graph
                if graph, state.graphMayHold(pointer), let instance = state.graphInstance(pointer) {
                    return instance as! Service
                }
                let instance = try _construct(state, container, graph: graph, maker)
                // Made through a scope: the scope disposes it when it ends.
                if let scope = container.scopeStorage { _trackInScope(instance, scope) }
                return instance
            case .scoped:
                return try _createScoped(state, container, maker)
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
    func _resolve(_ container: Container, _ arguments: () -> [Any],
                  _ make: (Resolver) throws -> Service) throws -> Service {
        try withoutActuallyEscaping(arguments) { arguments in
            try withoutActuallyEscaping(make) { make in
                try _resolve(container, _MakeClosure(arguments: arguments, make: make))
            }
        }
    }

    /// Reads the shared instance without a lock. The caller is inside a read section, which keeps the entry
    /// alive; the box is guarded by this thread's hazard word, so that a reset can release the instance at once
    /// (its `deinit` runs before `resetObjectScope` returns) unless a thread is copying it out at that moment.
    ///
    /// Publish the box in the hazard word, check that the slot still holds it, copy the instance out, clear the
    /// word with an opaque call (the copy is retained before it).
    @inlinable @inline(__always)
    func _sharedInstance() -> Service? {
        guard let box = words.loadAcquire(1) else { return nil }
        let hazard = _asm_thread_hazard()
        _asm_publish_hazard(hazard, box)
        guard _asm_load_seqcst(words.base + MemoryLayout<UnsafeRawPointer>.stride) == box else {
            _asm_clear_hazard(hazard)
            return nil
        }
        let instance = Unmanaged<_InstanceBox<Service>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
        _asm_clear_hazard(hazard)
        return instance
    }

    /// Runs the factory inside a frame (cycle detection, error path) and the `initCompleted` steps.
    @inlinable @inline(__always)
    func _construct<M: _Maker>(_ state: _ResolutionState, _ container: Container, graph: Bool,
                               _ make: M) throws -> Service {
        // `enter` reports a nearly used-up stack (only deep in a chain); that rare case runs out of line, so
        // that the common path keeps its shape.
        if try state.enter(pointer) { return try _constructWithRoom(state, container, graph: graph, make) }
        let instance: Service
        do {
            instance = try _invoke(state, container, make)  // the error carries this frame's path
        } catch {
            state.leave()
            throw error
        }
        // The common case: no re-entry in this graph, no initCompleted steps, no decorators in the process.
        if state.reentries == 0, words.loadAcquire(2) == nil, !_Decorators.anyRegistered {
            if graph, state.graphIsObserved { state.storeGraphInstance(instance, for: pointer) }
            state.leave()
            return instance
        }
        return try _finishEntered(instance, state, container, graph: graph)
    }

    /// The rest of `_construct` when steps, decorators or a re-entry are involved (still inside the frame,
    /// which it leaves).
    @usableFromInline @inline(never)
    func _finishEntered(_ instance: Service, _ state: _ResolutionState, _ container: Container,
                        graph: Bool) throws -> Service {
        defer { state.leave() }
        if state.reentries != 0, graph, let superseding = state.graphInstance(pointer) {
            return superseding as! Service  // made by a re-entrant run reached through initCompleted
        }
        return try _finishConstruction(instance, state, container, graph: graph)
    }

    /// Stores a new instance in the graph when it may be asked for again, runs its `initCompleted` steps and
    /// applies decorators.
    @inlinable @inline(__always)
    func _finishConstruction(_ instance: Service, _ state: _ResolutionState, _ container: Container,
                             graph: Bool) throws -> Service {
        let completions = words.loadAcquire(2)
        let stored = graph && (completions != nil || state.graphIsObserved)
        if stored { state.storeGraphInstance(instance, for: pointer) }
        if let completions {
            // Only a stored instance closes a cycle through its steps (see `checkReentry`): when `graph` is
            // set, `stored` is too, since there are steps.
            if stored { state.markCompleting() }
            try _complete(instance, Unmanaged<_Completions<Service>>.fromOpaque(completions), container, state)
        }
        if _Decorators.anyRegistered {
            return try _decorate(instance, container, state, replacingInGraph: stored)
        }
        return instance
    }

    /// Calls the factory; a failure that is not already a `ResolutionError` is wrapped with this key and path.
    @inlinable @inline(__always)
    func _invoke<M: _Maker>(_ state: _ResolutionState, _ container: Container,
                            _ make: M) throws -> Service {
        do {
            return try make.make(container, as: Service.self)
        } catch {
            throw state.factoryFailure(error, key)
        }
    }

    /// `_construct` (already entered) with the factory run on a thread with stack to spare: the cold path of a
    /// deep chain, out of line so that the common path stays as it is.
    @usableFromInline @inline(never)
    func _constructWithRoom<M: _Maker>(_ state: _ResolutionState, _ container: Container, graph: Bool,
                                       _ make: M) throws -> Service {
        let instance: Service
        do {
            instance = try _StackGuard.runWithRoom(state, key) { try _invoke(state, container, make) }
        } catch {
            state.leave()
            throw error
        }
        return try _finishEntered(instance, state, container, graph: graph)
    }

    @usableFromInline
    func _complete(_ instance: Service, _ completions: Unmanaged<_Completions<Service>>, _ container: Container,
                   _ state: _ResolutionState) throws {
        let steps = completions.takeUnretainedValue().steps
        for index in 0..<steps.count {
            let step = steps[index]
            do {
                try step(container, instance)
            } catch {
                throw state.factoryFailure(error, key)
            }
        }
    }

    // MARK: Resolution (creation paths: once per shared instance, not hot)

    @usableFromInline
    func _createShared<M: _Maker>(_ state: _ResolutionState, _ container: Container,
                                  _ make: M) throws -> Service {
        // Being made by this thread right now (an initCompleted step reached it again): the graph has it.
        if let instance = state.graphInstance(pointer) { return instance as! Service }
        let reentry = try state.checkReentry(pointer)
        if !reentry {
            let statePointer = UnsafeRawPointer(Unmanaged.passUnretained(state).toOpaque())
            if let ready = try _Coordinator.shared.begin(pointer, key: key, state: statePointer, path: state.path,
                                                         isReady: { _sharedInstance() }) {
                state.endRestoredGraph()
                return ready
            }
        }
        defer { if !reentry { _Coordinator.shared.end(pointer) } }
        let instance = try state.whileMakingLongLived(pointer) { try _construct(state, container, graph: true, make) }
        if let published = _sharedInstance() { return published }  // a re-entrant run published first
        let box = Unmanaged.passRetained(_InstanceBox(instance)).toOpaque()
        if let previous = words.exchange(1, box) { _Reclaimer.retireBox(previous) }
        _trackInOwner(instance)
        return instance
    }

    @usableFromInline
    func _createStored<M: _Maker>(_ state: _ResolutionState, _ container: Container, _ kind: ObjectScope.Kind,
                                  _ make: M) throws -> Service {
        if let instance = state.graphInstance(pointer) { return instance as! Service }
        let graphID = state.currentGraphID
        let reentry = try state.checkReentry(pointer)
        if !reentry {
            let statePointer = UnsafeRawPointer(Unmanaged.passUnretained(state).toOpaque())
            if let ready = try _Coordinator.shared.begin(pointer, key: key, state: statePointer, path: state.path,
                                                         isReady: { storedInstance(kind, graphID) }) {
                state.endRestoredGraph()
                return ready
            }
        }
        defer { if !reentry { _Coordinator.shared.end(pointer) } }
        let instance = try state.whileMakingLongLived(pointer) { try _construct(state, container, graph: true, make) }
        _Coordinator.shared.withLock {
            if kind == .weak {
                storedInstances.weakInstance = instance as AnyObject
            } else {
                let storage = customStorage()
                storage.setInstance(instance, inGraph: graphID)
                // At top level the graph has already ended (in `_construct`): finish it for this storage now
                // rather than leave the storage (and its instance) on this thread until its next resolution.
                // A `withObjectGraph` scope's graph goes on, and finishes its storages when it ends.
                if state.isTopLevel, !state.graphIsScoped {
                    storage._finishGraph(graphID)
                } else {
                    state.touchedStorages.append(storage)
                }
            }
        }
        return instance
    }

    @usableFromInline
    func _createMultiton<M: _Maker>(_ state: _ResolutionState, _ container: Container, _ arguments: [Any],
                                    _ make: M) throws -> Service {
        var values: [AnyHashable] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments {
            guard let value = argument as? AnyHashable else {
                throw ResolutionError(code: .argumentsNotHashable, key: key, path: state.path + [key],
                                      underlying: _NotHashable(type: type(of: argument)))
            }
            values.append(value)
        }
        let reentry = try state.checkReentry(pointer)
        if !reentry {
            let statePointer = UnsafeRawPointer(Unmanaged.passUnretained(state).toOpaque())
            if let ready = try _Coordinator.shared.begin(pointer, key: key, state: statePointer, path: state.path,
                                                         isReady: { stored?.multiton[values] }) {
                state.endRestoredGraph()
                return ready
            }
        }
        defer { if !reentry { _Coordinator.shared.end(pointer) } }
        let instance = try state.whileMakingLongLived(pointer) { try _construct(state, container, graph: false, make) }
        _Coordinator.shared.withLock { storedInstances.multiton[values] = instance }
        _trackInOwner(instance)
        return instance
    }

    /// Applies the decorators registered for this service type and name, farthest container first.
    @usableFromInline
    func _decorate(_ instance: Service, _ container: Container, _ state: _ResolutionState,
                   replacingInGraph: Bool) throws -> Service {
        let decorators = container.decorators(for: Service.self, name: key.name)
        guard !decorators.isEmpty else { return instance }
        var result = instance
        for decorator in decorators {
            do {
                result = try unsafeDowncast(decorator, to: _DecoratorBox<Service>.self).call(container, result)
            } catch {
                throw state.factoryFailure(error, key)
            }
        }
        if replacingInGraph { state.replaceGraphInstance(result, for: pointer) }
        return result
    }

    /// Must be called under the coordinator's lock.
    private func storedInstance(_ kind: ObjectScope.Kind, _ graphID: GraphIdentifier) -> Service? {
        if kind == .weak { return stored?.weakInstance as? Service }
        return customStorage().instance(inGraph: graphID) as? Service
    }

    /// The instance a weak or custom scope keeps, if any (the async creation path checks it before awaiting).
    func _storedInstance(_ kind: ObjectScope.Kind) -> Service? {
        _Coordinator.shared.withLock { storedInstance(kind, GraphIdentifier()) }
    }

    /// Must be called under the coordinator's lock.
    private func customStorage() -> InstanceStorage {
        let instances = storedInstances
        if let storage = instances.storage { return storage }
        let made = objectScope.makeStorage()
        instances.storage = made
        return made
    }

    @usableFromInline
    func _resolveForwarded<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Service {
        let instance = try forwarded.unsafelyUnwrapped._resolveAny(container, repeat each arguments)
        guard let service = instance as? Service else {
            throw ResolutionError(code: .typeMismatch, key: key, path: [key])
        }
        return service
    }
}

// MARK: - Type-erased entry operations (slow paths)

/// What the container does with entries without knowing their service type.
@usableFromInline
protocol _AnyEntry: AnyObject, Sendable {
    var key: ServiceKey { get }
    var objectScope: ObjectScope { get }
    var site: RegistrationSite { get }
    var hasInitCompleted: Bool { get }
    var isForwarding: Bool { get }
    var hasSharedInstance: Bool { get }
    func _setScope(_ scope: ObjectScope)
    /// Drops stored instances whose scope is `scope` (any scope when `nil`); singletons only when asked.
    func _reset(matching scope: ObjectScope?, includingSingletons: Bool)
    func _resolveAny<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Any
    /// A copy with the same key, factory, scope and steps but empty instance storage (for validation).
    /// A forwarder forwards to `target`.
    func _sandboxCopy(forwardingTo target: (any _AnyEntry)?) -> any _AnyEntry
    /// The entry this one forwards to.
    var forwardTarget: (any _AnyEntry)? { get }
}

extension ServiceEntry: _AnyEntry {
    @usableFromInline var isForwarding: Bool { forwarded != nil }

    @usableFromInline var hasSharedInstance: Bool {
        if let forwarded { return forwarded.hasSharedInstance }
        if words.loadAcquire(1) != nil { return true }
        return _Coordinator.shared.withLock {
            guard let stored else { return false }
            return stored.weakInstance != nil || stored.storage?.instance != nil || !stored.multiton.isEmpty
        }
    }

    /// Sets the scope. A custom scope's storage is made now, as in Swinject, so that resetting the scope reaches
    /// a registration that was never resolved (its storage may have been filled from outside).
    @usableFromInline func _setScope(_ scope: ObjectScope) {
        let new = Unmanaged.passRetained(scope).toOpaque()
        let replaced = _Coordinator.shared.withLock {
            if scope.kind == .custom {
                storedInstances.storage = scope.makeStorage()
            } else {
                stored?.storage = nil
            }
            return words.exchange(0, new)
        }
        // A resolve running now may be reading the old scope: it is released once no read section can.
        if let replaced { _Reclaimer.retire(Unmanaged<AnyObject>.fromOpaque(replaced).takeRetainedValue()) }
    }

    @usableFromInline func _reset(matching scope: ObjectScope?, includingSingletons: Bool) {
        guard forwarded == nil else { return }
        let current = objectScope
        if let scope, scope !== current { return }
        if current.kind == .singleton, !includingSingletons { return }
        if let previous = words.exchange(1, nil) { _Reclaimer.retireBox(previous) }
        if let owner = container { owner.writer.withLock { owner.disposalList }?.forget(entry: pointer) }
        let dropped: [Any?] = _Coordinator.shared.withLock {
            guard let stored else { return [] }
            let held: [Any?] = [stored.weakInstance as Any?, stored.storage?.instance] + stored.multiton.values.map { $0 }
            stored.weakInstance = nil
            stored.storage?.instance = nil
            stored.multiton.removeAll()
            return held
        }
        _ = dropped  // released here, outside the lock: a deinit may resolve again
    }

    @usableFromInline func _resolveAny<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Any {
        try _withReadSection { try _resolvePack(container, repeat each arguments) }
    }

    @usableFromInline var forwardTarget: (any _AnyEntry)? { forwarded }

    @usableFromInline func _sandboxCopy(forwardingTo target: (any _AnyEntry)?) -> any _AnyEntry {
        if let target { return ServiceEntry(key: key, forwardingTo: target, site: site) }
        let copy = ServiceEntry(key: key, scope: objectScope, site: site, factory: factory.unsafelyUnwrapped,
                                kind: factoryKind)
        if let steps = words.loadAcquire(2) {
            copy.words.storeRelease(2, Unmanaged<AnyObject>.fromOpaque(steps).retain().toOpaque())
        }
        return copy
    }
}

// MARK: - Boxes

/// Holds a factory with any number of arguments, with its exact function type.
@usableFromInline
final class _FactoryBox<Service, each Arg>: @unchecked Sendable {  // @unchecked: an immutable @Sendable closure.
    @usableFromInline let call: @Sendable (Resolver, repeat each Arg) throws -> Service
    init(_ call: @escaping @Sendable (Resolver, repeat each Arg) throws -> Service) { self.call = call }
}

/// A fixed-arity factory box that can make the equivalent pack box, for resolves through the variadic path.
protocol _PackBoxMaking: AnyObject {
    func makePackBox() -> AnyObject
}

/// Holds a factory with no arguments.
@usableFromInline
final class _Factory0<Service>: _PackBoxMaking, @unchecked Sendable {  // @unchecked: an immutable @Sendable closure.
    @usableFromInline let call: @Sendable (Resolver) throws -> Service
    init(_ call: @escaping @Sendable (Resolver) throws -> Service) { self.call = call }
    func makePackBox() -> AnyObject { _FactoryBox<Service>(call) }
}

/// Holds a factory with one argument.
@usableFromInline
final class _Factory1<Service, A>: _PackBoxMaking, @unchecked Sendable {  // @unchecked: an immutable @Sendable closure.
    @usableFromInline let call: @Sendable (Resolver, A) throws -> Service
    init(_ call: @escaping @Sendable (Resolver, A) throws -> Service) { self.call = call }
    func makePackBox() -> AnyObject { _FactoryBox<Service, A>(call) }
}

/// Holds a factory with two arguments.
@usableFromInline
final class _Factory2<Service, A, B>: _PackBoxMaking, @unchecked Sendable {  // @unchecked: an immutable @Sendable closure.
    @usableFromInline let call: @Sendable (Resolver, A, B) throws -> Service
    init(_ call: @escaping @Sendable (Resolver, A, B) throws -> Service) { self.call = call }
    func makePackBox() -> AnyObject { _FactoryBox<Service, A, B>(call) }
}

/// Holds a factory with three arguments.
@usableFromInline
final class _Factory3<Service, A, B, C>: _PackBoxMaking, @unchecked Sendable {  // @unchecked: immutable closure.
    @usableFromInline let call: @Sendable (Resolver, A, B, C) throws -> Service
    init(_ call: @escaping @Sendable (Resolver, A, B, C) throws -> Service) { self.call = call }
    func makePackBox() -> AnyObject { _FactoryBox<Service, A, B, C>(call) }
}

/// The instances a weak, custom or multiton registration keeps (guarded by the coordinator's lock).
final class _StoredInstances<Service> {
    var storage: InstanceStorage?
    weak var weakInstance: AnyObject?
    var multiton: [[AnyHashable]: Service] = [:]
}

/// Holds a shared (`.container`/`.singleton`) instance; immutable once published.
@usableFromInline
final class _InstanceBox<T>: @unchecked Sendable {  // @unchecked: immutable after publication.
    @usableFromInline let value: T
    @usableFromInline init(_ value: T) { self.value = value }
}

/// The `initCompleted` steps of one registration; immutable, replaced when a step is added. Versions share
/// append-only storage, so adding n steps costs O(n) in all, and the version a step replaces is retired.
@usableFromInline
final class _Completions<Service>: @unchecked Sendable {  // @unchecked: immutable.
    typealias Step = @Sendable (Resolver, Service) throws -> Void
    let steps: _AppendOnlyList<Step>
    init(_ steps: _AppendOnlyList<Step>) { self.steps = steps }
}

// MARK: - Makers

/// How a resolve calls its factory: the box (unretained; the entry holds it) and the runtime arguments, as a
/// value, so that the resolve path specialises for it and never allocates or retains a closure context.
///
/// Makers are generic over the argument types only, not the service type (the service type is a parameter
/// of ``make(_:as:)``): code that runs unspecialised, such as a generic registration helper over thousands
/// of types, then needs no maker metadata per service type.
@usableFromInline
protocol _Maker {
    /// Runs the factory, whose box makes `Service` (the entry's factory kind guarantees it).
    func make<Service>(_ resolver: Resolver, as: Service.Type) throws -> Service
    /// The runtime arguments as a list (the `.multiton` scope's key).
    func arguments() -> [Any]
}

@usableFromInline @frozen
struct _Make0: _Maker {
    @usableFromInline let box: UnsafeRawPointer
    @inlinable init(box: UnsafeRawPointer) { self.box = box }
    @inlinable @inline(__always)
    func make<Service>(_ resolver: Resolver, as: Service.Type) throws -> Service {
        try Unmanaged<_Factory0<Service>>.fromOpaque(box)._withUnsafeGuaranteedRef { try $0.call(resolver) }
    }
    @inlinable func arguments() -> [Any] { [] }
}

@usableFromInline @frozen
struct _Make1<A>: _Maker {
    @usableFromInline let box: UnsafeRawPointer
    @usableFromInline let a: A
    @inlinable init(box: UnsafeRawPointer, a: A) {
        self.box = box
        self.a = a
    }
    @inlinable @inline(__always)
    func make<Service>(_ resolver: Resolver, as: Service.Type) throws -> Service {
        try Unmanaged<_Factory1<Service, A>>.fromOpaque(box)._withUnsafeGuaranteedRef { try $0.call(resolver, a) }
    }
    @inlinable func arguments() -> [Any] { [a] }
}

@usableFromInline @frozen
struct _Make2<A, B>: _Maker {
    @usableFromInline let box: UnsafeRawPointer
    @usableFromInline let a: A
    @usableFromInline let b: B
    @inlinable init(box: UnsafeRawPointer, a: A, b: B) {
        self.box = box
        self.a = a
        self.b = b
    }
    @inlinable @inline(__always)
    func make<Service>(_ resolver: Resolver, as: Service.Type) throws -> Service {
        try Unmanaged<_Factory2<Service, A, B>>.fromOpaque(box)._withUnsafeGuaranteedRef { try $0.call(resolver, a, b) }
    }
    @inlinable func arguments() -> [Any] { [a, b] }
}

@usableFromInline @frozen
struct _Make3<A, B, C>: _Maker {
    @usableFromInline let box: UnsafeRawPointer
    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline let c: C
    @inlinable init(box: UnsafeRawPointer, a: A, b: B, c: C) {
        self.box = box
        self.a = a
        self.b = b
        self.c = c
    }
    @inlinable @inline(__always)
    func make<Service>(_ resolver: Resolver, as: Service.Type) throws -> Service {
        try Unmanaged<_Factory3<Service, A, B, C>>.fromOpaque(box)._withUnsafeGuaranteedRef {
            try $0.call(resolver, a, b, c)
        }
    }
    @inlinable func arguments() -> [Any] { [a, b, c] }
}

@usableFromInline
struct _MakePack<each Arg>: _Maker {
    @usableFromInline let box: UnsafeRawPointer
    @usableFromInline let values: (repeat each Arg)
    @usableFromInline init(box: UnsafeRawPointer, arguments: (repeat each Arg)) {
        self.box = box
        values = arguments
    }
    @usableFromInline
    func make<Service>(_ resolver: Resolver, as: Service.Type) throws -> Service {
        try Unmanaged<_FactoryBox<Service, repeat each Arg>>.fromOpaque(box)._withUnsafeGuaranteedRef {
            try $0.call(resolver, repeat each values)
        }
    }
    @usableFromInline func arguments() -> [Any] { _argumentList(repeat each values) }
}

/// A maker over closures (paths that are not hot: isolated and async registrations).
struct _MakeClosure<Made>: _Maker {
    let argumentList: () -> [Any]
    let call: (Resolver) throws -> Made
    init(arguments: @escaping () -> [Any], make: @escaping (Resolver) throws -> Made) {
        argumentList = arguments
        call = make
    }
    func make<Service>(_ resolver: Resolver, as: Service.Type) throws -> Service {
        try call(resolver) as! Service  // Made is Service: the entry's closure path makes its own type
    }
    func arguments() -> [Any] { argumentList() }
}

/// Runtime arguments as a list, for the multiton scope's key.
func _argumentList<each Arg>(_ arguments: repeat each Arg) -> [Any] {
    var list: [Any] = []
    for argument in repeat each arguments { list.append(argument) }
    return list
}

/// Describes an argument that cannot key a multiton.
struct _NotHashable: Error, CustomStringConvertible {
    let type: Any.Type
    var description: String { "\(type) is not Hashable" }
}

/// Where a registration was made: file and line, for diagnostics.
public struct RegistrationSite: Sendable, Hashable, CustomStringConvertible {
    /// The source file (`#fileID`).
    public let file: String
    /// The line in ``file``.
    public let line: Int

    /// Creates a site.
    ///
    /// - Parameters:
    ///   - file: The source file.
    ///   - line: The line.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `Module/File.swift:42`.
    public var description: String { "\(file):\(line)" }
}
