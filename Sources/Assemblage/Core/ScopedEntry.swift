// A forwarder into a fixed container: how a module's export resolves in the module's own scope (Modules), and
// what the typed forwarding path of ServiceEntry recognises.

/// A registration resolved in a fixed container (its module's scope), whichever container found it.
@usableFromInline
final class _ScopedEntry: _AnyEntry, @unchecked Sendable {  // @unchecked: immutable.
    let target: any _AnyEntry
    let scope: Container
    /// `target` and `scope`, unretained (this object holds them), for the typed forwarding path.
    @usableFromInline let targetAddress: UnsafeMutableRawPointer
    @usableFromInline let unmanagedScope: Unmanaged<Container>

    init(target: any _AnyEntry, scope: Container) {
        self.target = target
        self.scope = scope
        targetAddress = Unmanaged.passUnretained(target as AnyObject).toOpaque()
        unmanagedScope = Unmanaged.passUnretained(scope)
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
        try target._resolveAny(scope, repeat each arguments)
    }

    @usableFromInline var forwardTarget: (any _AnyEntry)? { target }

    /// Never in a table itself; validation re-creates it around the copies (see `_Sandbox`).
    @usableFromInline func _adoptIntoSandbox(_ container: Container) {}
    @usableFromInline func _sandboxCopy(forwardingTo target: (any _AnyEntry)?) -> any _AnyEntry {
        _ScopedEntry(target: target ?? self.target, scope: scope)
    }
}
