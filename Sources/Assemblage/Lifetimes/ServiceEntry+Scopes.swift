// The `.scoped` object scope and disposal tracking on the entry's creation paths (none of it is on the path of a
// shared hit or of a resolve outside a scope).

extension ServiceEntry {
    /// The `onDispose` closure, if any (unretained: the entry holds it).
    var _disposer: (any _AnyDisposer)? {
        // Tested first: naming `_Disposer<Service>` costs a search of the runtime's metadata cache in unspecialised
        // code, and most registrations have no closure.
        guard words.isSet(.disposer) else { return nil }
        return words.object(.disposer, as: _Disposer<Service>.self)
    }

    func _setDisposer(_ disposer: _Disposer<Service>) -> Self {
        let target = (forwarded as? ServiceEntry<Service>) ?? self
        let replaced = target.words.exchangeRetained(.disposer, disposer)
        // A creation running now may be reading the old closure: it is released once no read section can.
        if let replaced { _Reclaimer.retire(replaced) }
        return self
    }

    /// How `instance` is disposed: the registration's closure, else its type's conformance (looked up once per
    /// type and kept in ``_EntryWord/disposalCache`` when `caching`), else not at all.
    ///
    /// The common case (no closure, and the cache holds the instance's type) is inlined, so that it specialises for
    /// the service type in the caller; the rest is ``_disposerSlow(for:caching:)``.
    @inlinable @inline(__always)
    func _disposer(for instance: Service, caching: Bool = true) -> (any _AnyDisposer)? {
        if !words.isSet(.disposer), let cached = words.unowned(.disposalCache, as: _DisposalCache.self) {
            let type = _disposalType(of: instance)
            let hit: (any _AnyDisposer)?? = cached.with {
                $0.type == type ? .some($0.disposer) : .none
            }
            if let hit { return hit }
        }
        return _disposerSlow(for: instance, caching: caching)
    }

    /// The type a disposal cache is keyed by: the instance's dynamic type.
    @inlinable @inline(__always)
    func _disposalType(of instance: Service) -> ObjectIdentifier { ObjectIdentifier(_dynamicType(of: instance)) }

    /// The instance's dynamic type, whose conformances say how it is disposed. A class instance's class is one load;
    /// any other value is asked as an `Any`, so that a protocol existential gives the type inside it (`type(of:)` of
    /// a `Service` that is an existential gives the existential type: a registration of `any P` whose instances
    /// are of several types would share one disposer).
    @inlinable @inline(__always)
    func _dynamicType(of instance: Service) -> Any.Type {
        if servesObjects { return Swift.type(of: _assumeObject(instance)) }
        return Swift.type(of: instance as Any)
    }

    /// ``_disposer(for:caching:)`` past its cache: the registration's closure, or the conformance of the instance's
    /// type, looked up in the process-wide table and, when `caching`, kept in the registration's cache.
    @usableFromInline @inline(never)
    func _disposerSlow(for instance: Service, caching: Bool) -> (any _AnyDisposer)? {
        if let closure = _disposer { return closure.isNone ? nil : closure }
        let type = _dynamicType(of: instance)
        let found = _DisposalCache.find(for: type)
        guard caching else { return found }
        let replaced = words.exchangeRetained(
            .disposalCache, _DisposalCache(type: ObjectIdentifier(type), disposer: found))
        if let replaced { _Reclaimer.retire(replaced) }
        return found
    }

    /// Whether ``Container/registerScopedValue(_:name:validationValue:file:line:)`` made this registration.
    var isScopedValueDeclaration: Bool { words.isSet(.scopedValueMarker) }

    func _markScopedValueDeclaration() {
        words.exchangeRetained(.scopedValueMarker, _ScopedValueMarker.shared)
    }

    /// Makes, or finds, this registration's instance in the scope `container` is the view of.
    ///
    /// Inlinable, so that it specialises for the service type in the caller's module (unspecialised, it would box
    /// the instance and copy slots through value witnesses on every creation); never inlined into `_resolve`,
    /// whose other cases it would crowd and slow down, the unscoped ones included.
    @inlinable @inline(never)
    func _createScoped<M: _Maker>(_ state: _ResolutionState, _ container: Container, _ make: M) throws -> Service {
        // Being made by this thread right now (an initCompleted step reached it again): the graph has it.
        if state.graphMayHold(identity), let instance = state.graphInstance(identity) { return instance as! Service }
        // A longer-lived instance being made is the diagnosis, whatever it resolves through (its own container,
        // since shared instances are made there): one error for a captive dependency on every path.
        if !state.longLived.isEmpty || state.asyncLongLived.isSet(0) { try _checkCaptive(state) }
        // Unretained: the view keeps its storage, and the caller keeps the view.
        guard let storage = container.scopeStorage.map({ _Unowned($0) }) else {
            throw _scopedFailure(state, .noActiveScope)
        }
        if try state.checkReentry(identity, bit: filterBit) {
            // An allowed re-entry through initCompleted: the outer creation stores what this one makes.
            return try _construct(state, container, graph: true, make)
        }
        switch try storage.with({
            try $0.claim(self, address: identity, bit: filterBit, key: key, state: ObjectIdentifier(state))
        }) {
        case .ready(let instance):
            return instance.get(as: Service.self)  // stored for this registration: a Service
        case .create(let index):
            let instance: Service
            do {
                instance = try _construct(state, container, graph: true, inSlot: true, make)
            } catch {
                storage.with { $0.abandon(index) }
                throw error
            }
            var held = _ScopeInstance(instance, asObject: servesObjects)
            var disposer = _disposer(for: instance)
            if !storage.with({ $0.complete(index, &held, &disposer, entry: self) }) {
                throw _scopedFailure(state, .scopeEnded)
            }
            return instance
        }
    }

    /// The error of a scoped resolve that cannot go on (out of line: the error paths).
    @usableFromInline
    func _scopedFailure(_ state: _ResolutionState, _ code: ResolutionError.Code) -> ResolutionError {
        ResolutionError(code: code, key: key, path: state.path + [key])
    }

    /// Throws the captive-dependency error when a longer-lived instance is being made on this thread, or by an
    /// async factory this resolve runs inside.
    @usableFromInline
    func _checkCaptive(_ state: _ResolutionState) throws(ResolutionError) {
        if let holder = state.longLived.last {
            throw _captive(holder: _ResolutionState.key(of: UInt(bitPattern: holder)), path: state.path)
        }
        // Inside an async factory of a longer-lived registration, resolving synchronously.
        if let frame = _AsyncContext.current?.frame, let holder = frame.longLivedCreation() {
            throw _captive(holder: holder, path: frame.pathKeys + state.path)
        }
    }

    /// The captive-dependency error: `holder`, longer-lived, would keep this scoped service.
    func _captive(holder: ServiceKey, path: [ServiceKey]) -> ResolutionError {
        ResolutionError(
            code: .captiveDependency, key: key, path: path + [key], holder: holder,
            suggestions: [
                "\(holder) lives longer than any scope, so it would keep the \(key) of the first scope that made it and "
                    + "hand it to every later one. Make \(holder) .scoped too, or let \(holder) take what belongs to "
                    + "one unit of work as a call parameter: the method that needs \(key) receives the Scope (a "
                    + "Resolver) or the value, e.g. `func handle(in scope: Resolver) throws { let value = try "
                    + "scope.require(\(_typeName(key.serviceType, qualified: false)).self) … }`. A Provider or Lazy "
                    + "that \(holder) keeps resolves from its container, never from a scope."
            ])
    }

    /// Hands a transient or graph instance made through a scope to the scope, to dispose when it ends.
    ///
    /// - Returns: `false` when the scope has ended: the caller fails with `scopeEnded` instead of handing the
    ///   instance out, and a disposable one was disposed now (no one else would). (A result, not a throw: a
    ///   throwing call here costs the inlined resolve path of every transient a landing pad.)
    @usableFromInline @inline(never)
    func _trackInScope(_ instance: Service, _ scope: _ScopeStorage) -> Bool {
        // An ended scope hands out nothing, disposable or not.
        guard let disposer = _disposer(for: instance) else { return !scope.hasEnded }
        if scope.track(_ScopeInstance(instance, asObject: servesObjects), disposer, entry: self) { return true }
        do {
            try disposer.disposeSynchronously(instance)
        } catch {
            let failure = DisposalError.Failure(key: key, thrown: error)
            DisposalError.reportUnhandled(DisposalError(owner: "a scope", failures: [failure]))
        }
        return false
    }

    /// Hands a shared instance to the container that owns the registration, to dispose when it shuts down, and
    /// tells the container's observers that it was made.
    ///
    /// `once`: the registration makes one instance per container (`.container`, `.singleton`), so its disposer is
    /// looked up without filling the registration's cache, which would cost every such registration an object that
    /// is read again only after a reset; a multiton, which makes many, keeps the cache.
    ///
    /// - Returns: `false` when that container was shut down while the instance was being made: the instance was
    ///   disposed now (it is never leaked), and the caller drops it and fails with ``_shutDownFailure``.
    func _trackInOwner(_ instance: Service, once: Bool = false) -> Bool {
        guard let owner = container else { return true }
        if let disposer = _disposer(for: instance, caching: !once) {
            let record = _OwnedInstance(key: key, entry: identity, disposer: disposer, instance: instance)
            guard owner.disposals.admit(record) else {
                _disposeRefused(record)
                return false
            }
        } else if owner.isShutDown {
            // Nothing to dispose, so nothing for the disposal list (most containers never make one), but made after
            // the container was marked shut down (which it is before its list closes): refused as that list would.
            return false
        }
        let observers = owner.observers
        if !observers.isEmpty {
            let scope = objectScope
            for observer in observers { observer.instanceCreated(key, scope: scope, container: owner.label) }
        }
        return true
    }

    /// Disposes an instance made while its container shut down (synchronously, or in a task of its own when only
    /// an asynchronous disposal will do); a failure goes to ``DisposalError/unhandledFailureHandler``.
    func _disposeRefused(_ record: _OwnedInstance) {
        let owner = "container \"\(container?.label ?? "?")\""
        let failures = _disposeSynchronously([record], owner: owner, observers: [])
        guard let failure = failures.first else { return }
        guard failure.requiresAsyncDisposal else {
            DisposalError.reportUnhandled(DisposalError(owner: owner, failures: failures))
            return
        }
        let handed = _UncheckedSendable([record])
        Task {
            let failures = await _dispose(handed, owner: owner, observers: [])
            if !failures.isEmpty { DisposalError.reportUnhandled(DisposalError(owner: owner, failures: failures)) }
        }
    }
}

/// The marker ``_EntryWord/scopedValueMarker`` holds on a scoped-value declaration.
final class _ScopedValueMarker: Sendable {
    static let shared = _ScopedValueMarker()
}

extension _ResolutionState {
    /// Runs `body`, the making of a longer-lived instance of `entry`, with `entry` on ``longLived``.
    @inline(__always)
    func whileMakingLongLived<T>(_ entry: ObjectIdentifier, _ body: () throws -> T) rethrows -> T {
        longLived.append(entry)
        defer { longLived.removeLast() }
        return try body()
    }
}

extension Container {
    /// Whether this container, or the one this scope's view belongs to, is a validation sandbox.
    var _isValidationSandbox: Bool { (scopeStorage?.parent ?? self).recorder != nil }
}

/// Counts the async factories of longer-lived registrations running now, so that a synchronous scoped creation
/// reads the task-local async context, a costly lookup, only when one may be above it.
@usableFromInline
enum _AsyncLongLived {
    private static let lock = _Lock()
    /// How many run now: changed under `lock`, read without it. Each thread's resolution state keeps a reference
    /// (``_ResolutionState/asyncLongLived``), so that a scoped creation reads it without a `swift_once`.
    static let word = _AtomicWords(count: 1)

    static func run<T>(_ body: () async throws(ResolutionError) -> T) async throws(ResolutionError) -> T {
        change(by: 1)
        defer { change(by: -1) }
        return try await body()
    }

    private static func change(by delta: Int) {
        lock.withLock {
            word.storeCount(0, word.loadCount(0) + delta)
        }
    }
}
