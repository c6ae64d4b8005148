extension Container {
    // The entry points for 0 to 3 arguments, `_resolve(_:name:…)`, are generated: Container+ResolutionArities.swift.

    /// Any number of arguments (the path for four or more, and for type-erased callers).
    @inlinable
    func _resolvePack<Service, each Arg>(
        _ serviceType: Service.Type, name: String?,
        _ arguments: repeat each Arg
    ) throws -> Service {
        try _withReadSection {
            let key = ServiceKey(Service.self, name: name, argumentTypes: repeat (each Arg).self)
            guard let entry = _lookupFast(key) else {
                return try _resolveMissing(key, Service.self, repeat each arguments)
            }
            return try entry.assuming(ServiceEntry<Service>.self).with {
                try $0._resolvePack(self, repeat each arguments)
            }
        }
    }

    /// No registration matched: `GraphIdentifier` is the current graph's, while one is resolved; `[T]` and
    /// `[String: T]` are `T`'s collection; `Optional`, `Lazy` and `Provider` wrap the registration of what they
    /// wrap; anything else is a `notRegistered` error with the path and near misses.
    @usableFromInline
    func _resolveMissing<Service, each Arg>(
        _ key: ServiceKey, _: Service.Type,
        _ arguments: repeat each Arg
    ) throws -> Service {
        if isShutDown { throw _shutDownFailure(key, path: _ResolutionState.existing?.path ?? []) }
        if let serialization, let entry = _lookupRecording(key) {
            // A synchronized view: its lock is held for the whole resolve (recursive: nested resolves re-enter).
            return try serialization.withLock {
                try entry.assuming(ServiceEntry<Service>.self).with {
                    try $0._resolvePack(self, repeat each arguments)
                }
            }
        }
        // `GraphIdentifier` (unregistered, no name, no arguments) is the graph being resolved, as in Swinject.
        if Service.self == GraphIdentifier.self, !key.hasArguments, key.name == nil,
            let graph = _ResolutionState.identifiedGraph()
        {
            return graph as! Service
        }
        // `Scope` (unregistered, no name, no arguments) is the scope resolving, for a factory that keeps it.
        if Service.self == Scope.self, !key.hasArguments, key.name == nil, let scope = self as? Scope {
            return scope as! Service
        }
        if !key.hasArguments, key.name == nil, let collection = Service.self as? any _CollectionResolvable.Type,
            let made = try collection._resolveCollection(in: self), let service = made as? Service
        {
            return service
        }
        if let wrapper = Service.self as? any _InstanceWrapper.Type,
            let made = try wrapper._wrap(in: self, name: key.name, repeat each arguments),
            let service = made as? Service
        {
            return service
        }
        reportResolutionFailure(Service.self, key)
        throw notRegistered(key)
    }

    /// The error for a key with no registration, with the path being resolved on this thread.
    func notRegistered(_ key: ServiceKey) -> ResolutionError {
        let path = _ResolutionState.existing?.path ?? []
        let error = ResolutionError(
            code: .notRegistered, key: key, path: path + [key], nearMisses: nearMisses(for: key),
            suggestions: suggestions(for: key))
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

    /// Sentences naming the fix for a missing `key` (failure path only): registrations of a type that is a
    /// `key.serviceType` but is not registered as one, `[T]` asked for while `T` has only plain
    /// registrations, and what behaviors add (a module's scope names the module that registers `key`).
    func suggestions(for key: ServiceKey) -> [String] {
        var result: [String] = []
        let requested = _typeName(key.serviceType, qualified: false)
        if let collection = key.serviceType as? any _CollectionResolvable.Type, !key.hasArguments, key.name == nil {
            let element = collection._elementType
            let plain = lookupChain().flatMap { container in
                container.writer.withLock { container.keysLocked(ofType: ObjectIdentifier(element)) }
            }.uniqued { $0 }
            if !plain.isEmpty {
                let elementName = _typeName(element, qualified: false)
                result.append(
                    "\(requested) is the collection of \(elementName), which has no elements, but "
                        + "\(elementName) has plain registrations (\(plain.map(\.description).joined(separator: ", "))). "
                        + "Resolve \(elementName) itself, contribute elements with "
                        + "registerIntoCollection(\(elementName).self), or register \(requested) itself.")
            }
        }
        let matcher = _KindMatcher(key.serviceType)
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(key.serviceType)]
        for container in lookupChain() {
            let entries = container.writer.withLock { container.table.liveEntries.map(\.entry) }
            for entry in entries
            where seen.insert(ObjectIdentifier(entry.key.serviceType)).inserted
                && matcher.matches(entry.key.serviceType)
            {
                let concrete = _typeName(entry.key.serviceType, qualified: false)
                result.append(
                    "\(entry.key) registered at \(entry.site) is a \(requested), but it is registered as "
                        + "\(concrete) only: add `.implements(\(requested).self)` to that registration, or register "
                        + "it as `register(\(requested).self) { … }`.")
            }
        }
        let hints = behaviors(adopting: (any _MissingRegistrationHints).self)
        for hint in hints { result += hint.hints(forMissing: key, in: self) }
        return result
    }

    /// Whether a registration for `key` exists here or in a fallback.
    func isRegistered(_ key: ServiceKey) -> Bool { _withReadSection { _lookupRecording(key) != nil } }

    /// The entry for `key` here or in a fallback, retained (for paths that keep it past a read section).
    func _lookupRetained(_ key: ServiceKey) -> (any _AnyEntry)? {
        _withReadSection {
            _lookupRecording(key).map { $0.object as! any _AnyEntry }
        }
    }
}

/// Whether values of a registered type are values of `target` (failure path only): a subclass of a class, or
/// a type that conforms to every protocol of an existential (`any P`, `any P & Q`).
///
/// No instance is made. A class is checked by casting the candidate's metatype to `target`'s. An
/// existential's metatype `(any P).Type` says nothing about conformances, so the existential metatype
/// `any P.Type` is looked up once by mangled name (`_typeByName` of `target`'s mangled name with the
/// existential-metatype suffix) and each candidate's metatype is cast to it, which is the runtime's own
/// conformance check. When that name cannot be formed (parameterized existentials, compositions with a
/// class, `Any`, some local types), nothing matches: a suggestion is left out, never made up.
struct _KindMatcher {
    let target: Any.Type
    let existentialMetatype: Any.Type?

    init(_ target: Any.Type) {
        self.target = target
        // Only a protocol existential (`any P`, `any P & Q`: mangled names ending in `p`; not `Any` nor
        // `any Sendable`, `yp`, which every type is) has an existential metatype worth asking about.
        if let mangled = _mangledTypeName(target), mangled.hasSuffix("p"), !mangled.hasSuffix("yp") {
            existentialMetatype = _typeByName(mangled + "Xp")
        } else {
            existentialMetatype = nil
        }
    }

    func matches(_ candidate: Any.Type) -> Bool {
        guard ObjectIdentifier(candidate) != ObjectIdentifier(target) else { return false }
        func isMetatype<T>(of _: T.Type) -> Bool { (candidate as Any) is T.Type }
        if isMetatype(of: target) { return true }
        guard let existentialMetatype else { return false }
        func isValue<M>(of _: M.Type) -> Bool { (candidate as Any) is M }
        return isValue(of: existentialMetatype)
    }
}
