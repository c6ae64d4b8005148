// A forwarder into a fixed container: how a module's export resolves in the module's own scope (Modules), and
// what the typed forwarding path of ServiceEntry recognises. Found through a request scope's view, it resolves in a
// view of the fixed container in the same request scope (one `Scope` allocated per module boundary crossed; the
// path outside a scope is unchanged).

/// A registration resolved in a fixed container (its module's scope), whichever container found it.
///
/// A module's registration found by a lookup from another container is reached through one: its export forwarder
/// (``ServiceEntry/_exportForwarder(in:)``), which the registration keeps, and which refers back to the registration
/// and its module's scope unowned (both outlive it: the registration owns it, and the scope owns the registration).
/// Made by other means (an abstract registration's forwarder, a validation sandbox's copy), it holds both.
@usableFromInline
final class _ModuleExportEntry: _AnyEntry, @unchecked Sendable {  // @unchecked: immutable.
    unowned let target: any _AnyEntry
    unowned let scope: Container
    /// `target` and `scope`, when this entry keeps them (see the type's description).
    private let held: (target: any _AnyEntry, scope: Container)?
    /// `target` and `scope`, unretained, for the typed forwarding path.
    @usableFromInline let unownedTarget: _Unowned<AnyObject>
    @usableFromInline let unownedScope: _Unowned<Container>

    /// A forwarder that keeps `target` and `scope`.
    init(target: any _AnyEntry, scope: Container) {
        self.target = target
        self.scope = scope
        held = (target, scope)
        unownedTarget = _Unowned(target as AnyObject)
        unownedScope = _Unowned(scope)
    }

    /// The forwarder `target` keeps for lookups from other containers (see the type's description).
    init(exporting target: any _AnyEntry, from scope: Container) {
        self.target = target
        self.scope = scope
        held = nil
        unownedTarget = _Unowned(target as AnyObject)
        unownedScope = _Unowned(scope)
    }

    @usableFromInline var key: ServiceKey { target.key }
    @usableFromInline var objectScope: ObjectScope { target.objectScope }
    @usableFromInline var site: RegistrationSite { target.site }
    @usableFromInline var hasInitCompleted: Bool { target.hasInitCompleted }
    @usableFromInline var isForwarding: Bool { true }
    @usableFromInline var hasSharedInstance: Bool { target.hasSharedInstance }
    @usableFromInline func _setScope(_ scope: ObjectScope) { target._setScope(scope) }
    /// Instances belong to the target; resets reach it through its own container.
    @usableFromInline func _reset(matching scope: ObjectScope?, includingSingletons: Bool) {}

    @usableFromInline func _resolveAny<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Any {
        try target._resolveAny(resolver(for: container), repeat each arguments)
    }

    /// The container the target resolves in when `container` found it: the fixed one, or when `container` is a
    /// request scope's view, a view of the fixed one in that request's scope, so that `.scoped` registrations and
    /// declared values of the module are the request's.
    @inline(__always)
    func resolver(for container: Container) -> Container {
        guard let storage = container.scopeStorage else { return scope }
        return view(of: storage, from: container)
    }

    /// ``scope`` viewed in the request scope whose storage is `storage`; `container` (that scope's view, which found
    /// this entry) itself when it already is one of ``scope``.
    @inline(never)
    func view(of storage: _ScopeStorage, from container: Container) -> Container {
        if container.registryOwner === scope { return container }
        return Scope(storage: storage, over: scope, label: container.label)
    }

    @usableFromInline var forwardTarget: (any _AnyEntry)? { target }

    /// Never in a table itself; validation re-creates it around the copies (see `_Sandbox`).
    @usableFromInline func _adoptIntoSandbox(_ container: Container) {}
    @usableFromInline var owningContainer: Container? { nil }
    /// Never in a module's table.
    @usableFromInline func _exportForwarder(in scope: Container?) -> AnyObject { self }
    @usableFromInline var madeExportForwarder: AnyObject? { nil }
    @usableFromInline func _sandboxCopy(forwardingTo target: (any _AnyEntry)?) -> any _AnyEntry {
        _ModuleExportEntry(target: target ?? self.target, scope: scope)
    }
}

extension _ModuleExportEntry: _IsolatedEntry, _AsyncEntry {
    /// The target's isolation (through the forwarders a validation sandbox wraps it in).
    var isolation: ServiceIsolation {
        var current: any _AnyEntry = target
        while true {
            if !current.isForwarding, let isolated = current as? any _IsolatedEntry { return isolated.isolation }
            guard let next = current.forwardTarget else { return .nonisolated }
            current = next
        }
    }

    /// The target resolved asynchronously in its container, or in the request's scope of it (as
    /// ``_resolveAny(_:_:)``).
    func _resolveAnyAsync<each Arg>(
        _ container: Container, _ context: _AsyncContext?,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Any>
    {
        try await (target as! any _AsyncEntry)._resolveAnyAsync(resolver(for: container), context, arguments)
    }
}
