import _AssemblageShims

extension Container {
    /// The resolution entry points behind every `resolve` and `require`: one key, one probe, one call.
    ///
    /// Each runs in a read section (see ``_Reclaimer``), so what it reaches unretained cannot be freed under it.
    /// The key is built from constant type metadata; the probe reads the registration table without a lock;
    /// the entry is reached unretained and cast without a check, because the key guarantees its type. Up to
    /// three arguments have their own pack-free paths, so that they specialise fully in the caller.
    @inlinable @inline(__always)
    func _resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        try _withReadSection {
            let key = ServiceKey(serviceType: Service.self, argumentsType: Void.self, name: name, argumentCount: 0)
            guard let entry = _lookupFast(key) else { return try _resolveMissing(key, Service.self) }
            return try Unmanaged<ServiceEntry<Service>>.fromOpaque(entry)._withUnsafeGuaranteedRef { try $0._resolve0(self) }
        }
    }

    @inlinable @inline(__always)
    func _resolve<Service, A>(_ serviceType: Service.Type, name: String?, _ a: A) throws -> Service {
        try _withReadSection {
            let key = ServiceKey(serviceType: Service.self, argumentsType: A.self, name: name, argumentCount: 1)
            guard let entry = _lookupFast(key) else { return try _resolveMissing(key, Service.self, a) }
            return try Unmanaged<ServiceEntry<Service>>.fromOpaque(entry)._withUnsafeGuaranteedRef { try $0._resolve1(self, a) }
        }
    }

    @inlinable @inline(__always)
    func _resolve<Service, A, B>(_ serviceType: Service.Type, name: String?, _ a: A, _ b: B) throws -> Service {
        try _withReadSection {
            let key = ServiceKey(serviceType: Service.self, argumentsType: (A, B).self, name: name, argumentCount: 2)
            guard let entry = _lookupFast(key) else { return try _resolveMissing(key, Service.self, a, b) }
            return try Unmanaged<ServiceEntry<Service>>.fromOpaque(entry)._withUnsafeGuaranteedRef {
                try $0._resolve2(self, a, b)
            }
        }
    }

    @inlinable @inline(__always)
    func _resolve<Service, A, B, C>(_ serviceType: Service.Type, name: String?, _ a: A, _ b: B,
                                    _ c: C) throws -> Service {
        try _withReadSection {
            let key = ServiceKey(serviceType: Service.self, argumentsType: (A, B, C).self, name: name, argumentCount: 3)
            guard let entry = _lookupFast(key) else { return try _resolveMissing(key, Service.self, a, b, c) }
            return try Unmanaged<ServiceEntry<Service>>.fromOpaque(entry)._withUnsafeGuaranteedRef {
                try $0._resolve3(self, a, b, c)
            }
        }
    }

    /// Any number of arguments (the path for four or more, and for type-erased callers).
    @inlinable
    func _resolvePack<Service, each Arg>(_ serviceType: Service.Type, name: String?,
                                         _ arguments: repeat each Arg) throws -> Service {
        try _withReadSection {
            let key = ServiceKey(Service.self, name: name, argumentTypes: repeat (each Arg).self)
            guard let entry = _lookupFast(key) else { return try _resolveMissing(key, Service.self, repeat each arguments) }
            return try Unmanaged<ServiceEntry<Service>>.fromOpaque(entry)._withUnsafeGuaranteedRef {
                try $0._resolvePack(self, repeat each arguments)
            }
        }
    }

    /// No registration matched: `[T]` and `[String: T]` are `T`'s collection; `Optional`, `Lazy` and `Provider`
    /// wrap the registration of what they wrap; anything else is a `notRegistered` error with the path and near
    /// misses.
    @usableFromInline
    func _resolveMissing<Service, each Arg>(_ key: ServiceKey, _: Service.Type,
                                            _ arguments: repeat each Arg) throws -> Service {
        if !key.hasArguments, key.name == nil, let collection = Service.self as? any _CollectionResolvable.Type,
           let service = try collection._resolveCollection(in: self) as? Service {
            return service
        }
        if let wrapper = Service.self as? any _InstanceWrapper.Type,
           let made = try wrapper._wrap(in: self, name: key.name, repeat each arguments),
           let service = made as? Service {
            return service
        }
        throw notRegistered(key)
    }

    /// The error for a key with no registration, with the path being resolved on this thread.
    func notRegistered(_ key: ServiceKey) -> ResolutionError {
        var path: [ServiceKey] = []
        if let state = _asm_thread_state() {
            path = Unmanaged<_ResolutionState>.fromOpaque(state).takeUnretainedValue().path
        }
        let error = ResolutionError(code: .notRegistered, key: key, path: path + [key], nearMisses: nearMisses(for: key))
        recorder?.recordFailure(error)
        return error
    }

    /// Registrations of the same service type under other names or argument lists, here and in fallbacks.
    func nearMisses(for key: ServiceKey) -> [ServiceKey] {
        var result: [ServiceKey] = []
        var seen: Set<ServiceKey> = [key]
        for container in lookupChain() {
            let keys = container.writer.withLock { container.keysLocked(ofType: ObjectIdentifier(key.serviceType)) }
            for candidate in keys where seen.insert(candidate).inserted { result.append(candidate) }
        }
        return result
    }

    /// Whether a registration for `key` exists here or in a fallback.
    func isRegistered(_ key: ServiceKey) -> Bool { _withReadSection { _lookup(key) != nil } }

    /// The entry for `key` here or in a fallback, retained (for paths that keep it past a read section).
    func _lookupRetained(_ key: ServiceKey) -> (any _AnyEntry)? {
        _withReadSection {
            _lookup(key).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() as! any _AnyEntry }
        }
    }
}
