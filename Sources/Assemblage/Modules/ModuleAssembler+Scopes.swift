extension ModuleAssembler {
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
    /// - Throws: ``ModuleAssemblyError`` with ``ErrorCode/moduleNotInGraph`` when neither
    ///   `module` nor a replacement of it is in this graph or the parent's.
    public func resolver(for module: any ModuleAssembly.Type) throws(ModuleAssemblyError) -> Resolver {
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
    /// - Throws: ``ModuleAssemblyError`` with ``ErrorCode/moduleNotInGraph`` when the
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
    /// - Throws: ``ModuleAssemblyError`` with ``ErrorCode/moduleNotInGraph`` when the
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
        if let record = record(for: ObjectIdentifier(module)) { return record }
        let name = _ModuleType(module).name
        var known: [String] = []
        var assembler: ModuleAssembler? = self
        while let current = assembler {
            known.append(contentsOf: current.records.map(\.type.name))
            assembler = current.parent
        }
        throw ModuleAssemblyError([.init(.moduleNotInGraph, module: name, path: [name], related: known)])
    }
}
