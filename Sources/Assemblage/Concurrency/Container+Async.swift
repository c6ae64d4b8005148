// Asynchronous resolution: `try await resolver.resolveAsync(…)` resolves any registration.
//
// Why not `resolve`: an `async` overload named `resolve` would be preferred by the compiler in every
// asynchronous context, so an existing `container.resolve(T.self)` inside an `async` function or a task
// would stop compiling ("expression is 'async' but is not marked with 'await'"). The async forms take their
// own name so that no synchronous call changes meaning.

// MARK: - Public API

extension Resolver {
    /// Resolves `serviceType` from an asynchronous context: any registration, synchronous, main-actor or
    /// `async`.
    ///
    /// - A synchronous factory runs right here, with no suspension, unless the call is nested inside an
    ///   async factory (then it joins that resolution's graph).
    /// - A main-actor factory runs on the main actor (at once when the caller is already there).
    /// - An `async` factory is awaited; a `.container` or `.singleton` one is created once even when many
    ///   tasks ask together (the others await that creation, no thread blocks), and a failed creation is
    ///   not kept.
    ///
    /// ```swift
    /// container.register(Database.self) { _ in try await Database.open(path: "app.sqlite") }
    ///     .inObjectScope(.container)
    /// container.register(ProfileViewModel.self, mainActorFactory: { r in ProfileViewModel() })
    ///
    /// let database = try await container.resolveAsync(Database.self)
    /// let model = try await container.resolveAsync(ProfileViewModel.self)
    /// ```
    ///
    /// Inside an async factory, resolve dependencies with `resolveAsync` on the resolver it receives: they
    /// then share the graph (one `.graph` instance per top-level `resolveAsync`, child tasks included), and
    /// an async factory that awaits itself — directly, through others, or through another task waiting on
    /// the same creation — fails with ``ResolutionError/Code/cycle`` instead of hanging.
    ///
    /// A task that awaits a creation another task is running waits until that creation ends, even when it
    /// is cancelled itself (as `Task.value` does); cancelling the creating task reaches the factory, which
    /// may throw. Tasks escaping a factory (`Task { }` inside it) keep its graph; `Task.detached` starts a
    /// new top-level resolution.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the context when omitted.
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - isolation: The caller's actor, inferred: resolution starts there, so nothing needs to be
    ///     `Sendable` to be returned to the caller.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``, as ``require(_:name:)`` does (a factory's error is wrapped with code
    ///   ``ResolutionError/Code/factoryFailed``, the factory's own `CancellationError` included).
    public func resolveAsync<Service>(
        _ serviceType: Service.Type = Service.self, name: String? = nil,
        isolation: isolated (any Actor)? = #isolation
    )
        async throws(ResolutionError) -> Service
    {
        try await _requireContainer(for: "resolveAsync")._resolveAsync(Service.self, name: name, isolation: isolation)
    }

    /// Resolves a registration that takes one runtime argument, from an asynchronous context.
    ///
    /// ```swift
    /// let model = try await resolver.resolveAsync(ProfileViewModel.self, argument: 42)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the context when omitted.
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - argument: The argument passed to the factory.
    ///   - isolation: The caller's actor, inferred.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``.
    public func resolveAsync<Service, Arg1>(
        _ serviceType: Service.Type = Service.self, name: String? = nil,
        argument: Arg1, isolation: isolated (any Actor)? = #isolation
    )
        async throws(ResolutionError) -> Service
    {
        try await _requireContainer(for: "resolveAsync")._resolveAsync(
            Service.self, name: name, argument, isolation: isolation)
    }

    /// Resolves a registration that takes any number of runtime arguments, from an asynchronous context.
    ///
    /// ```swift
    /// let report = try await resolver.resolveAsync(Report.self, arguments: user, period)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the context when omitted.
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - arguments: The arguments passed to the factory, in the order it declares them.
    ///   - isolation: The caller's actor, inferred.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError``.
    public func resolveAsync<Service, each Arg>(
        _ serviceType: Service.Type = Service.self, name: String? = nil,
        arguments: repeat each Arg,
        isolation: isolated (any Actor)? = #isolation
    )
        async throws(ResolutionError) -> Service
    {
        try await _requireContainer(for: "resolveAsync")._resolveAsync(
            Service.self, name: name, repeat each arguments, isolation: isolation)
    }
}

// MARK: - Container

extension Container {
    /// Looks the key up, resolves synchronously when no hop or await is needed, and otherwise hands over to
    /// the entry's asynchronous path (off the caller's actor, with arguments and result handed across).
    func _resolveAsync<Service, each Arg>(
        _: Service.Type, name: String?, _ arguments: repeat each Arg,
        isolation: isolated (any Actor)?
    ) async throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name, argumentTypes: repeat (each Arg).self)
        let context = _AsyncContext.current
        // Before an async factory runs: the synchronous check comes only once it has made its instance.
        if isShutDown { throw _shutDownFailure(key, path: context?.frame?.pathKeys ?? []) }
        // Retained: the entry is used across suspension points, outside any read section.
        guard let found = _lookupRetained(key) else {
            return try _resolveMissingAsync(key, Service.self, context, repeat each arguments)
        }
        let entry = found as! ServiceEntry<Service>
        if context == nil {
            let isolation = entry.isolation
            if isolation == .nonisolated || (isolation == .mainActor && _MainActorCheck.isOnMainActor) {
                do {
                    return try _withReadSection { try entry._resolvePack(self, repeat each arguments) }
                } catch {
                    throw _asResolutionError(error)
                }
            }
        }
        let passed = _UncheckedSendable((repeat each arguments))
        return try await entry._resolveAsync(self, context, passed).value
    }

    /// No registration: `Optional`, `Lazy` and `Provider` of a registered type are made as the synchronous
    /// path makes them; anything else is `notRegistered`, with the async path and near misses.
    func _resolveMissingAsync<Service, each Arg>(
        _ key: ServiceKey, _: Service.Type, _ context: _AsyncContext?,
        _ arguments: repeat each Arg
    ) throws(ResolutionError) -> Service {
        if Service.self is any _InstanceWrapper.Type {
            return try _syncStep(context) { try self._resolveMissing(key, Service.self, repeat each arguments) }
        }
        let path = context?.frame?.pathKeys ?? []
        throw ResolutionError(
            code: .notRegistered, key: key, path: path + [key], nearMisses: nearMisses(for: key),
            suggestions: suggestions(for: key))
    }
}

/// Runs synchronous resolution work from an asynchronous resolution, in its graph.
///
/// Nested inside an async factory, the thread's (empty) synchronous graph is seeded with the async graph,
/// the innermost async factory is pushed as the outer frame (so that errors show the whole path and the
/// instances made are kept), and the graph instances made are merged back afterwards. At the top level, or
/// when the thread is already inside a synchronous resolution, `body` simply runs.
func _syncStep<T>(_ context: _AsyncContext?, _ body: () throws -> T) throws(ResolutionError) -> T {
    try _withReadSection { () throws(ResolutionError) -> T in try _syncStepInSection(context, body) }
}

/// ``_syncStep(_:_:)`` inside its read section.
private func _syncStepInSection<T>(_ context: _AsyncContext?, _ body: () throws -> T) throws(ResolutionError) -> T {
    guard let context, let marker = context.frame?.liveChain.first else {
        do { return try body() } catch { throw _asResolutionError(error) }
    }
    let state = _ResolutionState.currentState
    guard state.isTopLevel, state.graphCount == 0 else {
        do { return try body() } catch { throw _asResolutionError(error) }
    }
    for item in context.graph.snapshot { state.storeGraphInstance(item.instance, for: item.entry) }
    do {
        try state.enter(marker.entry, bit: marker.filterBit)
    } catch {
        state.clearGraph()
        throw error
    }
    defer {
        context.graph.merge(state.graphSnapshot)
        state.leave()
    }
    do {
        return try body()
    } catch {
        // The thread's path starts at the marker; put the async factories around it in front.
        throw _asResolutionError(error).prefixingPath(marker.parent?.pathKeys ?? [])
    }
}

extension ResolutionError {
    /// The same error with `outer` put in front of its path.
    func prefixingPath(_ outer: [ServiceKey]) -> ResolutionError {
        guard !outer.isEmpty, !path.starts(with: outer) else { return self }
        return ResolutionError(
            code: code, key: key, path: outer + path, cycle: cycle, nearMisses: nearMisses,
            holder: holder, suggestions: suggestions, underlying: underlying)
    }
}

// MARK: - Entries

/// An entry's asynchronous resolution, without knowing its service type (for forwarded types).
protocol _AsyncEntry: _AnyEntry {
    func _resolveAnyAsync<each Arg>(
        _ container: Container, _ context: _AsyncContext?,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Any>
}

extension ServiceEntry: _AsyncEntry {
    func _resolveAnyAsync<each Arg>(
        _ container: Container, _ context: _AsyncContext?,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Any>
    {
        _UncheckedSendable(try await _resolveAsync(container, context, arguments).value)
    }

    /// Resolves this registration from an asynchronous context, whatever its isolation.
    func _resolveAsync<each Arg>(
        _ container: Container, _ context: _AsyncContext?,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Service>
    {
        if let forwarded {
            let made = try await (forwarded as! any _AsyncEntry)._resolveAnyAsync(container, context, arguments)
            guard let service = made.value as? Service else {
                throw ResolutionError(code: .typeMismatch, key: key, path: (context?.frame?.pathKeys ?? []) + [key])
            }
            return _UncheckedSendable(service)
        }
        switch factoryKind {
        case .async:
            return try await _resolveAsyncFactory(
                container, context ?? _AsyncContext(graph: _AsyncGraph(), frame: nil),
                arguments)
        case .mainActor:
            let result: Result<_UncheckedSendable<Service>, ResolutionError> = await MainActor.run {
                do throws(ResolutionError) {
                    return .success(
                        _UncheckedSendable(
                            try _syncStep(context) {
                                try self._resolvePack(container, repeat each arguments.value)
                            }))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        default:
            return _UncheckedSendable(
                try _syncStep(context) { try self._resolvePack(container, repeat each arguments.value) })
        }
    }

    /// An `async` factory in its scope: transient runs it; graph, shared, weak and custom scopes make the
    /// instance once among concurrent tasks and keep it where the synchronous path keeps it.
    func _resolveAsyncFactory<each Arg>(
        _ container: Container, _ context: _AsyncContext,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Service>
    {
        if let cycle = context.frame?.cycle(reaching: identity, key: key) { throw cycle }
        let kind = scopeKind
        let coordinator = _AsyncCoordinator.shared
        switch kind {
        case .transient:
            return try await _constructAsync(container, context, creation: nil, arguments)
        case .graph:
            let graph = context.graph
            let entry = identity
            let made = try await coordinator.once(
                _OnceKey(graph: ObjectIdentifier(graph), entry: entry), key: key,
                frame: context.frame,
                isReady: { graph.instance(for: entry).map { $0 as! Service } },
                create: { (creation) throws(ResolutionError) -> Service in
                    let made = try await _constructAsync(container, context, creation: creation, arguments)
                    return graph.store(made.value, for: entry) as! Service
                })
            return _UncheckedSendable(made)
        case .scoped:
            if let holder = context.frame?.longLivedCreation() {
                throw _captive(holder: holder, path: context.frame?.pathKeys ?? [])
            }
            guard let scope = container.scopeStorage else {
                throw ResolutionError(code: .noActiveScope, key: key, path: (context.frame?.pathKeys ?? []) + [key])
            }
            let entry = identity
            let bit = filterBit
            let made = try await coordinator.once(
                _OnceKey(graph: ObjectIdentifier(scope), entry: entry), key: key,
                frame: context.frame,
                isReady: { scope.readyInstance(entry, bit: bit).map { $0 as! Service } },
                create: { (creation) throws(ResolutionError) -> Service in
                    try await _constructAsync(container, context, creation: creation, arguments).value
                })
            return _UncheckedSendable(made)
        case .multiton:
            // Made, then kept per argument values by the synchronous machinery: when two tasks make the same
            // key at once, both factories run and the first instance stored is the one both get. Made with the
            // owner's resolver, as every shared instance (see `_resolve`).
            let owner = try _asyncSharedResolver(for: container, context)
            return try await _AsyncLongLived.run { () async throws(ResolutionError) -> _UncheckedSendable<Service> in
                try await _constructAsync(owner, context, creation: nil, arguments)
            }
        case .container, .singleton, .weak, .custom:
            let owner = try _asyncSharedResolver(for: container, context)
            let made = try await coordinator.once(
                _OnceKey(graph: nil, entry: identity), key: key, frame: context.frame,
                isReady: {
                    kind == .container || kind == .singleton
                        ? _withReadSection { _sharedInstance() } : _storedInstance(kind)
                },
                create: { (creation) throws(ResolutionError) -> Service in
                    try await _AsyncLongLived.run { () async throws(ResolutionError) -> Service in
                        try await _constructAsync(owner, context, creation: creation, arguments).value
                    }
                })
            return _UncheckedSendable(made)
        }
    }

    /// ``_sharedResolver(for:_:)`` for the async path (its error path is the async frames'): the container that
    /// makes a shared instance asked for through `resolving`; an ended scope makes nothing.
    func _asyncSharedResolver(for resolving: Container, _ context: _AsyncContext) throws(ResolutionError) -> Container {
        if let scope = resolving.scopeStorage, scope.hasEnded {
            throw ResolutionError(code: .scopeEnded, key: key, path: (context.frame?.pathKeys ?? []) + [key])
        }
        return resolving._sharedResolver
    }

    /// Runs the factory in a new frame, then stores the instance in its scope and runs its `initCompleted`
    /// steps through the synchronous machinery (so that scopes, resets and steps behave exactly as there);
    /// inside the creation hook, when one is installed.
    func _constructAsync<each Arg>(
        _ container: Container, _ context: _AsyncContext, creation: _AsyncCreation?,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Service>
    {
        guard let hook = _CreationHooks.current else {
            return try await _runAsyncFactory(container, context, creation: creation, arguments)
        }
        return try await hook.observeAsync(_creation(container)) { () async throws(ResolutionError) in
            try await _runAsyncFactory(container, context, creation: creation, arguments)
        }
    }

    /// ``_constructAsync(_:_:creation:_:)`` inside the creation hook, if any.
    func _runAsyncFactory<each Arg>(
        _ container: Container, _ context: _AsyncContext, creation: _AsyncCreation?,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Service>
    {
        let frame = _AsyncFrame(
            registration: self, filterBit: filterBit, key: key, parent: context.frame, creation: creation)
        let box = factory as! _AsyncFactoryBox<Service, repeat each Arg>
        let made: Service
        do {
            made = try await _AsyncContext.$current.withValue(_AsyncContext(graph: context.graph, frame: frame)) {
                try await box.call(container, repeat each arguments.value)
            }
            frame.finish()
        } catch {
            let path = frame.pathKeys
            frame.finish()
            // A nested `resolveAsync` already has the whole path; a nested synchronous `require` has its own.
            if let resolution = error as? ResolutionError { throw resolution.prefixingPath(path) }
            throw ResolutionError(code: .factoryFailed, key: key, path: path, underlying: error)
        }
        let values = _argumentList(repeat each arguments.value)
        return _UncheckedSendable(try _syncStep(context) { try self._resolve(container, { values }) { _ in made } })
    }
}
