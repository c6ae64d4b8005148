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
    /// Makes `container` (a validation sandbox's mirror) the owner of this sandbox copy, so that the instances it
    /// makes are disposed when the sandbox shuts down.
    func _adoptIntoSandbox(_ container: Container)
    /// What a lookup that started in another container resolves instead of this registration of a module's scope:
    /// a forwarder that resolves it in `scope` (or, when nil, in the container that owns it), made once and kept
    /// (see ``ServiceEntry/_exportForwarder(in:)``). An entry that is never in a module's table returns itself.
    func _exportForwarder(in scope: Container?) -> AnyObject
    /// The forwarder ``_exportForwarder(in:)`` made for this registration, if it made one.
    var madeExportForwarder: AnyObject? { get }
    /// The container that owns the registration, while it exists (nil for a forwarder no container owns).
    var owningContainer: Container? { get }
}

extension ServiceEntry: _AnyEntry {
    @usableFromInline var isForwarding: Bool { forwarded != nil }

    @usableFromInline var hasSharedInstance: Bool {
        if let forwarded { return forwarded.hasSharedInstance }
        if words.isSet(.sharedInstance) { return true }
        return _Coordinator.shared.withLock {
            guard let stored else { return false }
            return stored.weakInstance != nil || stored.storage?.instance != nil || !stored.multiton.isEmpty
        }
    }

    /// Sets the scope. A custom scope's storage is made now, as in Swinject, so that resetting the scope reaches
    /// a registration that was never resolved (its storage may have been filled from outside).
    @usableFromInline func _setScope(_ scope: ObjectScope) {
        let replaced = _Coordinator.shared.withLock {
            if scope.kind == .custom {
                storedInstances.storage = scope.makeStorage()
            } else {
                stored?.storage = nil
            }
            return words.exchangeScope(scope)
        }
        guard let old = replaced as? ObjectScope else { return }
        // A built-in scope is one of ObjectScope's static constants, which keep it alive for the life of the
        // process: released at once, it stays valid for a resolve reading it now. This is the common case (a
        // registration's default scope replaced by `inObjectScope`), and it costs no reclamation.
        if old.kind != .custom { return }
        // A resolve running now may be reading the old custom scope: it is released once no read section can.
        _Reclaimer.retire(old)
    }

    @usableFromInline func _reset(matching scope: ObjectScope?, includingSingletons: Bool) {
        guard forwarded == nil else { return }
        let current = objectScope
        if let scope, scope !== current { return }
        if current.kind == .singleton, !includingSingletons { return }
        words.withdrawShared(.sharedInstance)
        container?.existingDisposals?.forget(entry: identity)
        let dropped: [Any?] = _Coordinator.shared.withLock {
            guard let stored else { return [] }
            let held: [Any?] =
                [stored.weakInstance as Any?, stored.storage?.instance] + stored.multiton.values.map { $0 }
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

    /// This entry as an `any _AnyEntry`, made from the entry's own type (its isa) rather than by looking up
    /// `ServiceEntry<Service>`'s metadata, which unspecialised code does at each conversion (a search of a runtime
    /// cache as large as the number of service types).
    @inline(never)
    var erased: any _AnyEntry { self }

    @usableFromInline func _adoptIntoSandbox(_ container: Container) { self.container = container }

    @usableFromInline var owningContainer: Container? { container }

    @usableFromInline func _sandboxCopy(forwardingTo target: (any _AnyEntry)?) -> any _AnyEntry {
        if let target { return ServiceEntry(key: key, forwardingTo: target, site: site) }
        let copy = ServiceEntry(
            key: key, scope: objectScope, site: site, factory: factory, kind: factoryKind, factory0: factory0)
        if let steps = words.object(.completions, as: AnyObject.self) {
            copy.words.exchangeRetained(.completions, steps)
        }
        return copy
    }
}
