// The `.scoped` object scope and disposal tracking on the entry's creation paths (none of it is on the path of a
// shared hit or of a resolve outside a scope).

extension ServiceEntry {
    /// The `onDispose` closure, if any (unretained: the entry holds it).
    var _disposer: (any _AnyDisposer)? {
        words.loadAcquire(4).map { Unmanaged<_Disposer<Service>>.fromOpaque($0).takeUnretainedValue() }
    }

    func _setDisposer(_ disposer: _Disposer<Service>) -> Self {
        let target = (forwarded as? ServiceEntry<Service>) ?? self
        let replaced = target.words.exchange(4, Unmanaged.passRetained(disposer).toOpaque())
        // A creation running now may be reading the old closure: it is released once no read section can.
        if let replaced { _Reclaimer.retire(Unmanaged<AnyObject>.fromOpaque(replaced).takeRetainedValue()) }
        return self
    }

    /// Whether ``Container/registerScopedValue(_:name:validationValue:file:line:)`` made this registration.
    var isScopedValueDeclaration: Bool { words.loadAcquire(5) != nil }

    func _markScopedValueDeclaration() {
        if let old = words.exchange(5, Unmanaged.passRetained(_ScopedValueMarker.shared).toOpaque()) {
            Unmanaged<AnyObject>.fromOpaque(old).release()
        }
    }

    /// Makes, or finds, this registration's instance in the scope `container` is the view of.
    @usableFromInline @inline(never)
    func _createScoped<M: _Maker>(_ state: _ResolutionState, _ container: Container, _ make: M) throws -> Service {
        // Being made by this thread right now (an initCompleted step reached it again): the graph has it.
        if let instance = state.graphInstance(pointer) { return instance as! Service }
        guard let scope = container.scopeStorage else {
            throw ResolutionError(code: .noActiveScope, key: key, path: state.path + [key])
        }
        if let holder = state.longLivedCreation() {
            throw ResolutionError(code: .captiveDependency, key: key, path: state.path + [key],
                                  suggestions: [_captiveAdvice(holder: holder)])
        }
        if try state.checkReentry(pointer) {
            // An allowed re-entry through initCompleted: the outer creation stores what this one makes.
            return try _construct(state, container, graph: true, make)
        }
        let statePointer = UnsafeRawPointer(Unmanaged.passUnretained(state).toOpaque())
        switch try scope.claim(self, address: pointer, key: key, state: statePointer, path: state.path) {
        case .ready(let instance):
            return instance as! Service  // stored for this registration: a Service
        case .create(let index):
            let instance: Service
            do {
                instance = try _construct(state, container, graph: true, make)
            } catch {
                scope.abandon(index)
                throw error
            }
            try scope.complete(index, instance, _Disposal.of(instance, disposer: _disposer), key: key, path: state.path)
            return instance
        }
    }

    /// The sentence of a captive-dependency error: who would capture this scoped service, and the fix.
    func _captiveAdvice(holder: ServiceKey) -> String {
        "\(holder) lives longer than any scope, so it would keep the \(key) of the first scope that made it and hand it "
            + "to every later one. Make \(holder) .scoped too, or resolve \(key) when it is needed, through the "
            + "scope (a factory's resolver, or Provider<\(_typeName(key.serviceType, qualified: false))>)."
    }

    /// Hands a transient or graph instance made through a scope to the scope, to dispose when it ends.
    @usableFromInline @inline(never)
    func _trackInScope(_ instance: Service, _ scope: _ScopeStorage) {
        guard let disposal = _Disposal.of(instance, disposer: _disposer) else { return }
        scope.track(instance, disposal, key: key)
    }

    /// Hands a shared instance to the container that owns the registration, to dispose when it shuts down.
    func _trackInOwner(_ instance: Service) {
        guard let disposal = _Disposal.of(instance, disposer: _disposer), let owner = container else { return }
        owner.disposals.append(_OwnedInstance(key: key, entry: pointer, disposal: disposal))
    }
}

/// The marker word 5 of a scoped-value declaration holds.
final class _ScopedValueMarker: Sendable {
    static let shared = _ScopedValueMarker()
}

extension _ResolutionState {
    /// The key of a registration whose instance outlives every scope (`.container`, `.singleton`, `.multiton`,
    /// `.weak` or custom) and is being made on this thread now, or nil: a scoped instance made now would be
    /// captured by it.
    func longLivedCreation() -> ServiceKey? {
        guard depth > 0 else { return nil }
        for index in stride(from: depth - 1, through: 0, by: -1) {
            let address = frames[index] & ~Self.completingBit
            guard let pointer = UnsafeRawPointer(bitPattern: address),
                  let entry = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? any _AnyEntry else {
                continue
            }
            switch entry.objectScope.kind {
            case .container, .singleton, .multiton, .weak, .custom: return entry.key
            case .transient, .graph, .scoped: continue
            }
        }
        return nil
    }
}

extension Container {
    /// Whether this container, or the one this scope's view belongs to, is a validation sandbox.
    var _isValidationSandbox: Bool { (scopeStorage?.parent ?? self).recorder != nil }
}
