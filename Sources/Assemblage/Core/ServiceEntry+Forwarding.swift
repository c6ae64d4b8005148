// Resolution through a forwarder into a module's scope (``ServiceEntry/scopedKind``): one out-of-line call per
// module boundary.

extension ServiceEntry {
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
}
