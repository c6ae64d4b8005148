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

    /// The forwarder that resolves this registration of a module in `scope` (its module's scope; nil: the container
    /// that owns the registration), for lookups that find it from another container: a dependent module's scope,
    /// the module assembler's resolver, a request scope of either. Made the first time one does, kept in the
    /// entry's ``_EntryWord/exportForwarder`` word, so that a module pays for the forwarders of the registrations
    /// other modules resolve, not for one per registration. Without a scope (an entry no container owns), the entry
    /// itself.
    @usableFromInline func _exportForwarder(in scope: Container?) -> AnyObject {
        if let made = madeExportForwarder { return made }
        guard let scope = scope ?? container else { return self }
        let export = _ModuleExportEntry(exporting: self, from: scope)
        return words.publishOnce(
            .exportForwarder, ServiceEntry(key: key, forwardingTo: export, site: site, typedExport: export))
    }

    /// The forwarder ``_exportForwarder(in:)`` made, if any.
    @usableFromInline var madeExportForwarder: AnyObject? { words.object(.exportForwarder, as: AnyObject.self) }
}
