extension ModuleAssembler {
    /// Makes a request scope over every module of the graph: `.scoped` registrations of any module resolve through
    /// it, each in its own module, and share the request's instances (see ``resolver``).
    ///
    /// ```swift
    /// let scope = assembler.makeScope(label: "request")
    /// try scope.provide(request)
    /// let feed = try scope.require(FeedViewModel.self)
    /// try await scope.end()   // disposes every module's scoped instances, newest first
    /// ```
    ///
    /// Prefer ``withScope(label:isolation:_:)``, which cannot forget to end it.
    ///
    /// - Parameter label: The scope's name in diagnostics.
    /// - Returns: The scope.
    public func makeScope(label: String = "scope") -> Scope { root.makeScope(label: label) }

    /// Runs `body` in a new request scope over every module of the graph and ends it afterwards, also when `body`
    /// throws (see ``Container/withScope(label:isolation:_:)``).
    ///
    /// ```swift
    /// let page = try await assembler.withScope(label: "request") { scope in
    ///     try scope.provide(request)
    ///     return try await scope.require(FeedViewModel.self).page()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - label: The scope's name in diagnostics.
    ///   - isolation: The caller's actor, inferred.
    ///   - body: The unit of work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``DisposalError`` when `body` succeeded and a disposer failed.
    public func withScope<R>(
        label: String = "scope", isolation: isolated (any Actor)? = #isolation,
        _ body: (Scope) async throws -> R
    ) async throws -> R {
        try await root.withScope(label: label, isolation: isolation, body)
    }

    /// Runs `body` in a new request scope over every module of the graph and ends it synchronously afterwards
    /// (see ``Container/withSynchronousScope(label:_:)``).
    ///
    /// ```swift
    /// let total = try assembler.withSynchronousScope { scope in try scope.require(Invoice.self).total }
    /// ```
    ///
    /// - Parameters:
    ///   - label: The scope's name in diagnostics.
    ///   - body: The unit of work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``DisposalError`` when `body` succeeded and a disposer failed or needed
    ///   `await`.
    @available(*, noasync, message: "in an async context, use `try await withScope`, which awaits async disposers")
    public func withSynchronousScope<R>(label: String = "scope", _ body: (Scope) throws -> R) throws -> R {
        try root.withSynchronousScope(label: label, body)
    }

    /// One module's view of the graph: its own registrations and its dependencies', transitively.
    ///
    /// This is the resolver the module's factories and its `loaded` hook receive. Use it to check what a
    /// module can see, or to resolve from a part of the app in isolation:
    ///
    /// ```swift
    /// let network = try assembler.resolver(for: NetworkModule.self)
    /// network.resolve(FeedService.self)   // nil: NetworkModule does not depend on FeedModule
    /// ```
    ///
    /// A replaced module answers with its replacement's view; a module of the parent with the parent's.
    ///
    /// - Parameter module: A module type in the graph.
    /// - Returns: The module's scope, as a ``Resolver``.
    /// - Throws: ``ModuleAssemblyError`` with ``ModuleAssemblyError/Code/moduleNotInGraph`` when neither
    ///   `module` nor a replacement of it is in this graph or the parent's.
    public func resolver(for module: any ModuleAssembly.Type) throws(ModuleAssemblyError) -> any Resolver {
        try requireRecord(module).container
    }

    /// Drops the instances that `module`'s own registrations keep, so that the next resolve makes new ones.
    ///
    /// Clears every scope that keeps instances (`.container`, `.weak`, custom scopes) except
    /// `.singleton`, and only in this module: its dependencies keep theirs (use ``resetAll(_:)`` for
    /// those). Objects that others still hold stay alive; the module just stops holding them.
    ///
    /// ```swift
    /// try assembler.reset(SessionModule.self)   // on log-out: a new session next time
    /// ```
    ///
    /// - Parameter module: A module type in the graph.
    /// - Throws: ``ModuleAssemblyError`` with ``ModuleAssemblyError/Code/moduleNotInGraph`` when the
    ///   module is not in this graph or the parent's; nothing is reset then.
    public func reset(_ module: any ModuleAssembly.Type) throws(ModuleAssemblyError) {
        try requireRecord(module).container._resetOwnInstances()
    }

    /// Drops the instances kept by `module` and by every module it depends on, transitively.
    ///
    /// Each module is reset once, even when several paths lead to it. As with ``reset(_:)``,
    /// `.singleton` instances survive. Dependencies assembled by a parent assembler are reset too (they
    /// are the same modules).
    ///
    /// ```swift
    /// try assembler.resetAll(FeedModule.self)   // FeedModule, NetworkModule, StorageModule, …
    /// ```
    ///
    /// - Parameter module: A module type in the graph.
    /// - Throws: ``ModuleAssemblyError`` with ``ModuleAssemblyError/Code/moduleNotInGraph`` when the
    ///   module is not in this graph or the parent's; nothing is reset then.
    public func resetAll(_ module: any ModuleAssembly.Type) throws(ModuleAssemblyError) {
        var stack = [try requireRecord(module)]
        var visited = Set<ObjectIdentifier>()
        while let record = stack.popLast() {
            guard visited.insert(ObjectIdentifier(record)).inserted else { continue }
            record.container._resetOwnInstances()
            stack.append(contentsOf: record.dependencies.reversed())
        }
    }

    func requireRecord(_ module: any ModuleAssembly.Type) throws(ModuleAssemblyError) -> _ModuleRecord {
        if let record = record(for: _IdentityKey(module)) { return record }
        let name = _ModuleType(module).name
        var known: [String] = []
        var assembler: ModuleAssembler? = self
        while let current = assembler {
            known.append(contentsOf: current.records.map(\.name))
            assembler = current.parent
        }
        throw ModuleAssemblyError([.init(.moduleNotInGraph, module: name, path: [name], related: known)])
    }
}
