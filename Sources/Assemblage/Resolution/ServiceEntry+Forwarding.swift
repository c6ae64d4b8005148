// Resolution through a forwarder into a module's scope (``_FactoryKind/scopedForwarding``): one out-of-line call per
// module boundary.

extension ServiceEntry {
    /// Runs `body` with the target of a ``scopedKind`` forwarder and the module scope it resolves in (outside a
    /// request scope: through one, `_resolveScoped0…3` take the type-erased path, ``_ModuleExportEntry`` making the view).
    @inlinable @inline(__always)
    func _withScopedTarget<R>(_ body: (ServiceEntry<Service>, Container) throws -> R) rethrows -> R {
        try Unmanaged<_ModuleExportEntry>.fromOpaque(UnsafeRawPointer(factoryAddress!))
            ._withUnsafeGuaranteedRef { scoped in
                try Unmanaged<ServiceEntry<Service>>.fromOpaque(scoped.targetAddress)._withUnsafeGuaranteedRef {
                    target in
                    try scoped.unmanagedScope._withUnsafeGuaranteedRef { try body(target, $0) }
                }
            }
    }

    // `_resolveScoped0…3`, which call it, are generated: ServiceEntry+Arities.swift.
}
