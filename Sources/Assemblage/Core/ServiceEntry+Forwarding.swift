// Resolution through a forwarder into a module's scope (``_FactoryKind/scopedForwarding``): one out-of-line call per
// module boundary.

extension ServiceEntry {
    /// Runs `body` with the target of a ``scopedKind`` forwarder and the module scope it resolves in.
    ///
    /// Found through a request scope's view (`container`), the target resolves in a view of its module's container
    /// in that request's scope (made here: the slower path, for resolutions through a scope only); found through
    /// anything else, in the module's container itself, unretained.
    @inlinable @inline(__always)
    func _withScopedTarget<R>(_ container: Container, _ body: (ServiceEntry<Service>, Container) throws -> R) rethrows -> R {
        try Unmanaged<_ScopedEntry>.fromOpaque(UnsafeRawPointer(factoryAddress!))
            ._withUnsafeGuaranteedRef { scoped in
                try Unmanaged<ServiceEntry<Service>>.fromOpaque(scoped.targetAddress)._withUnsafeGuaranteedRef { target in
                    if let storage = container.scopeStorage {
                        return try body(target, scoped.view(of: storage, from: container))
                    }
                    return try scoped.unmanagedScope._withUnsafeGuaranteedRef { try body(target, $0) }
                }
            }
    }

    // `_resolveScoped0…3`, which call it, are generated: ServiceEntry+Arities.swift.
}
