// Resolution through a forwarder into a module's scope (``_FactoryKind/scopedForwarding``): one out-of-line call per
// module boundary.

extension ServiceEntry {
    /// Runs `body` with the target of a ``scopedKind`` forwarder and the module scope it resolves in (outside a
    /// request scope: through one, `_resolveScoped0…3` take the type-erased path, ``_ModuleExportEntry`` making the view).
    @inlinable @inline(__always)
    func _withScopedTarget<R>(_ body: (ServiceEntry<Service>, Container) throws -> R) rethrows -> R {
        try factoryAddress!.assuming(_ModuleExportEntry.self).with { scoped in
            try scoped.unownedTarget.assuming(ServiceEntry<Service>.self).with { target in
                try scoped.unownedScope.with { try body(target, $0) }
            }
        }
    }

    // `_resolveScoped0…3`, which call it, are generated: ServiceEntry+Arities.swift.
}
