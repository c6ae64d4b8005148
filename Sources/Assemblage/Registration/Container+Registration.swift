extension Container {
    /// Registers how to make a service, with any number of runtime arguments.
    ///
    /// The factory receives a ``Resolver`` for the service's dependencies, followed by the runtime
    /// arguments given to `resolve`. The argument types are part of the registration's key, so registrations
    /// with different argument lists coexist:
    ///
    /// ```swift
    /// container.register(Animal.self) { _ in Cat(name: "Mimi") }
    /// container.register(Animal.self, name: "dog") { _ in Dog() }
    /// container.register(Animal.self) { (_, name: String, age: Int) in Cat(name: name, age: age) }
    ///
    /// container.resolve(Animal.self)                              // Cat Mimi
    /// container.resolve(Animal.self, name: "dog")                 // Dog
    /// container.resolve(Animal.self, arguments: "Tom", 3)         // Cat Tom, 3
    /// ```
    ///
    /// Registering again under the same key replaces the earlier registration (the last one wins, as in
    /// Swinject); the container records each replacement for diagnostics.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the factory when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - factory: Makes the service. It runs on the resolving thread, may resolve other services through
    ///     its resolver, and may throw.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @discardableResult
    public func register<Service, each Arg>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Arg) throws -> Service
    ) -> ServiceEntry<Service> {
        register(
            Service.self, name: name, arguments: repeat (each Arg).self, file: file, line: line,
            box: _FactoryBox<Service, repeat each Arg>(factory), kind: .pack)
    }

    // `register` for 0 to 3 arguments is generated: Container+RegistrationArities.swift.

    /// The registration that the `register` forms over a pack of arguments (this file's, and the main-actor and
    /// async ones of Container+Isolation.swift) make of their factory's box: keyed by `Service`, `name` and the
    /// argument types, recorded at `file`:`line`. The generated fixed-arity forms build their keys without a pack.
    func register<Service, each Arg>(
        _: Service.Type, name: String?, arguments _: repeat (each Arg).Type, file: String, line: Int,
        box: AnyObject, kind: _FactoryKind
    ) -> ServiceEntry<Service> {
        let key = ServiceKey(Service.self, name: name, argumentTypes: repeat (each Arg).self)
        return register(key, box, kind: kind, site: RegistrationSite(file: file, line: line))
    }

    func register<Service>(
        _ key: ServiceKey, _ box: AnyObject, kind: _FactoryKind,
        site: RegistrationSite
    ) -> ServiceEntry<Service> {
        register(ServiceEntry<Service>(key: key, scope: defaultObjectScope, site: site, factory: box, kind: kind))
    }

    /// Adds `entry` and tells the behaviors (the fixed-arity `register`s, inlined into their callers, make the entry
    /// there).
    @usableFromInline
    func register<Service>(_ entry: ServiceEntry<Service>) -> ServiceEntry<Service> {
        record(entry, resolvingTo: entry)
        return entry
    }

    /// Adds `added` (a registration, or a forwarder to one) to this container's registry, and tells the behaviors
    /// that its type and name now resolve to `service`.
    private func record<T, S>(_ added: ServiceEntry<T>, resolvingTo service: ServiceEntry<S>) {
        added.owner = entryOwner  // the registry owner's (a scope's view shares its owner's registry)
        // Added as an object with its key, not as `any _AnyEntry`: the existential would look up the entry's
        // generic metadata again, which with thousands of service types is a search of a large runtime cache.
        guard let behaviors = add(added, key: added.key) else { return }
        for behavior in behaviors {
            behavior.container(self, didRegisterType: T.self, toService: service, withName: added.key.name)
        }
    }

    /// Makes `type` resolve to the same registration (and instances) as `entry`.
    ///
    /// ```swift
    /// let entry = container.register(FileCache.self) { _ in FileCache() }
    /// container.forward(Cache.self, to: entry)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The additional type.
    ///   - name: The name to register it under.
    ///   - entry: The registration to forward to.
    public func forward<T, S>(_ type: T.Type, name: String? = nil, to entry: ServiceEntry<S>) {
        let key = ServiceKey(
            serviceType: T.self, argumentsType: entry.key.argumentsType, name: name,
            argumentCount: entry.key.argumentCount)
        record(ServiceEntry<T>(key: key, forwardingTo: entry, site: entry.site), resolvingTo: entry)
    }

    /// Inserts an entry under the writer lock; returns the behaviors to notify outside it, if any.
    func add(_ entry: any _AnyEntry) -> [any Behavior]? { add(entry, key: entry.key) }

    /// Inserts `entry` (a `ServiceEntry` or a `_MemoEntry`) under `key`, its key, under the writer lock; returns the
    /// behaviors to notify outside it, nil when there are none (most containers: no array to retain and release).
    func add(_ entry: AnyObject, key: ServiceKey) -> [any Behavior]? {
        var retired: [AnyObject] = []
        writer.lock()
        // The registry's fields are read and written once each (each access is checked at run time), and the key is
        // probed before growth only when the table is at its load limit (a new key then needs the room).
        var current = table
        if !current.hasRoomForOneMore, current.find(key) == nil {
            let outgrown = current
            current = outgrown.grown()
            table = current
            registry.publish(current)
            retired.append(outgrown)
        }
        if registry.lastOrder == .max { registry.lastOrder = current.renumbered() }
        registry.lastOrder += 1
        let order = registry.lastOrder
        if let earlier = current.insert(entry, key: key, order: order) {
            records.replacements[key, default: _ReplacementRecord()].add(
                replaced: (earlier as! any _AnyEntry).site,
                by: (entry as! any _AnyEntry).site)
            retired.append(earlier)
        }
        let behaviors = registry.behaviors.isEmpty ? nil : registry.behaviors
        writer.unlock()
        // Unpublished above; released once no read section can still be using them.
        if !retired.isEmpty { _Reclaimer.retire(retired) }
        return behaviors
    }

    /// Gives an empty registry a table with room for `count` registrations, so that filling it does not grow the
    /// table step by step (a module assembler's fallback index, sized for its modules' registrations).
    func reserveTable(for count: Int) {
        var capacity = _RegistrationTable.initialCapacity
        while capacity / 2 < count { capacity *= 2 }
        let outgrown: _RegistrationTable? = writer.withLock {
            guard table.count == 0, table.capacity < capacity else { return nil }
            let old = table
            table = _RegistrationTable(capacity: capacity)
            registry.publish(table)
            return old
        }
        // Unpublished above; released once no read section can still be using it.
        if let outgrown { _Reclaimer.retire(outgrown) }
    }

    /// Removes every registration, collection element and decorator, and drops the instances they kept
    /// (singletons included).
    ///
    /// Fallback containers are untouched.
    public func removeAll() {
        let (removed, oldTable): ([any _AnyEntry], _RegistrationTable) = writer.withLock {
            let removed =
                table.liveEntries.map(\.entry)
                + records.collectionElements.values.flatMap { $0.map(\.entry as (_CollectionElement) -> any _AnyEntry) }
            return (removed, emptyRegistrationsLocked())
        }
        for entry in removed { entry._reset(matching: nil, includingSingletons: true) }
        // Unpublished above; released once no read section can still be using them.
        _Reclaimer.retire([oldTable as AnyObject] + removed.map { $0 as AnyObject })
    }

    /// Replaces the table with an empty one and forgets the registration records (call under the writer lock);
    /// returns the old table, which the caller retires.
    private func emptyRegistrationsLocked() -> _RegistrationTable {
        let old = table
        let empty = _RegistrationTable(capacity: _RegistrationTable.initialCapacity)
        table = empty
        registry.publish(empty)
        registry.lastOrder = 0
        records.replacements = [:]
        records.decorators.removeAll()
        records.collectionElements.removeAll()
        return old
    }

    /// Discards the instances kept for registrations in `objectScope`, here and in the fallback containers.
    ///
    /// The next resolve makes new instances. Objects that others still hold stay alive; the container just
    /// stops holding them. ``ObjectScope/singleton`` instances are never discarded.
    ///
    /// ```swift
    /// container.resetObjectScope(.container)
    /// ```
    ///
    /// - Parameter objectScope: The scope to clear.
    public func resetObjectScope(_ objectScope: ObjectScope) {
        resetObjectScope(objectScope, where: { _ in true })
    }

    /// Discards the instances kept for registrations in `objectScope` (any ``ObjectScopeProtocol``).
    ///
    /// - Parameter objectScope: The scope to clear.
    public func resetObjectScope(_ objectScope: any ObjectScopeProtocol) {
        guard let scope = objectScope as? ObjectScope else { return }
        resetObjectScope(scope)
    }

    /// Discards the instances kept for registrations of `serviceType` in `objectScope`.
    ///
    /// - Parameters:
    ///   - objectScope: The scope to clear.
    ///   - serviceType: Only registrations of this type are cleared.
    public func resetObjectScope(_ objectScope: ObjectScope, serviceType: Any.Type) {
        resetObjectScope(objectScope, where: { $0.serviceType == serviceType })
    }

    /// Discards the instances kept for registrations of `serviceType` in `objectScope`.
    ///
    /// - Parameters:
    ///   - objectScope: The scope to clear.
    ///   - serviceType: Only registrations of this type are cleared.
    public func resetObjectScope(_ objectScope: any ObjectScopeProtocol, serviceType: Any.Type) {
        guard let scope = objectScope as? ObjectScope else { return }
        resetObjectScope(scope, serviceType: serviceType)
    }

    func resetObjectScope(_ scope: ObjectScope, where matches: (ServiceKey) -> Bool) {
        guard scope.kind != .singleton else { return }
        // Another module's instances are its own: a module assembler resets them (`reset(_:)`), not its dependents.
        let home = registryOwner
        for container in lookupChain() where !container.isModuleScope(otherThan: home) {
            let live = container.writer.withLock {
                container.liveEntriesLocked() + container.records.collectionElements.values.flatMap { $0.map(\.entry) }
            }
            for entry in live where matches(entry.key) { entry._reset(matching: scope, includingSingletons: false) }
        }
    }

    /// Whether a registration of `serviceType` with `name` exists here or in a fallback container,
    /// under any argument list.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name (`nil` for the unnamed registration).
    /// - Returns: `true` when such a registration exists.
    public func hasAnyRegistration<Service>(of serviceType: Service.Type = Service.self, name: String? = nil) -> Bool {
        let type = ObjectIdentifier(serviceType)
        return lookupChain().contains { container in
            container.writer.withLock { container.keysLocked(ofType: type).contains { $0.name == name } }
        }
    }

    /// Whether any registration exists here or in a fallback container.
    public var hasAnyRegistration: Bool {
        lookupChain().contains { container in container.writer.withLock { container.currentTable.count > 0 } }
    }

    /// Returns a view of this container whose resolves run one at a time, as Swinject's does.
    ///
    /// Every Assemblage container is already safe to use from any thread without it. Call it when the
    /// factories themselves are not thread-safe (they touch shared state without a lock, as code written
    /// for Swinject's `synchronize()` may): resolves through the view (`resolve`, `require`, and the nested
    /// resolves of their factories, which receive the view) hold one recursive lock, so no two of its
    /// factories run at once. The view is a child container: it sees this container's registrations, and
    /// registrations made into it stay in it.
    ///
    /// ```swift
    /// let serial = container.synchronize()
    /// DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = serial.resolve(Report.self) }
    /// ```
    ///
    /// - Returns: The synchronized view, a ``Container`` (as in Swinject 2.10), typed as a ``Resolver``.
    public func synchronize() -> any Resolver {
        Container(
            parent: self, defaultObjectScope: defaultObjectScope, behaviors: [],
            label: .text("\(label) (synchronized)"),
            serialization: serialization ?? _Lock(recursive: true), registeringClosure: { _ in })
    }

    /// Runs `body` under the lock of a synchronized view (see ``synchronize()``); directly for every other
    /// container. `Lazy` and `Provider` made in a view resolve through it later, so they take its lock too.
    func serializing<R>(_ body: () throws -> R) rethrows -> R {
        guard let serialization else { return try body() }
        return try serialization.withLock(body)
    }

    // MARK: Fallbacks

    /// Adds a container to search after this one and its earlier fallbacks.
    ///
    /// Lookup is depth-first and the first match wins: this container's own registrations, then the first
    /// fallback (and its fallbacks), then the next. Factories found in a fallback still receive the resolver
    /// where the resolution started, so an overlay in front of a base container overrides nested dependencies
    /// too. A named lookup never falls back to the unnamed registration.
    ///
    /// ```swift
    /// let mock = Container(parent: main)          // searched: mock, then main
    /// main.addFallback(featureA)                  // main, then featureA
    /// ```
    ///
    /// - Parameter fallback: The container to search.
    /// - Throws: ``ContainerError`` with code ``ContainerError/Code/fallbackCycle`` when `fallback` is this
    ///   container or already falls back (directly or not) to it; nothing changes in that case.
    public func addFallback(_ fallback: Container) throws(ContainerError) {
        // Check and add under one process-wide lock: two containers added to each other at the same moment
        // would otherwise both pass the check and make lookup loop.
        let added = Container.fallbackChanges.withLock { () -> Bool in
            if fallback === self || fallback.reaches(self) { return false }
            appendFallback(fallback)
            return true
        }
        if !added {
            throw ContainerError(
                code: .fallbackCycle,
                message: "Adding \(fallback.label) as a fallback of \(label) would make lookup loop: "
                    + "\(fallback.label) already reaches \(label).")
        }
    }

    /// Serialises cycle checks with the fallback additions they guard.
    private static let fallbackChanges = _Lock()

    func appendFallback(_ fallback: Container) { appendFallbacks([fallback]) }

    /// Appends several fallbacks in one publication (a module's dependencies, a module assembler's root), so that
    /// wiring n fallbacks copies the list once instead of n times.
    ///
    /// With `index`, the first `indexedCount` of `added` (which must be the first fallbacks) are searched
    /// through it (see ``_FallbackIndex``). With `ownLookupsOnly`, lookups that reach this container from another
    /// one do not search `added` (see ``_Fallbacks/searchedFromElsewhere``).
    func appendFallbacks(
        _ added: [Container], index: _FallbackIndex? = nil, indexedCount: Int = 0, ownLookupsOnly: Bool = false
    ) {
        guard !added.isEmpty else { return }
        let replaced: _Fallbacks? = writer.withLock {
            let previous = fallbackList
            precondition(index == nil || previous == nil, "a fallback index covers the first fallbacks only")
            let list =
                previous?.appending(added, ownLookupsOnly: ownLookupsOnly)
                ?? _Fallbacks(added, index: index, indexedCount: indexedCount, ownLookupsOnly: ownLookupsOnly)
            fallbackList = list
            words.storeUnowned(1, list)
            previous?.disownContainers()
            return previous
        }
        if let replaced { _Reclaimer.retire(replaced) }
    }

    /// Drops this container's registrations, collection elements, decorators and fallbacks, telling no one: for a
    /// validation sandbox's mirrors once the run is over (see `_Sandbox.dismantle()`), so that containers that refer
    /// to one another are not freed one from inside another's deinit.
    func detachForTeardown() {
        let dropped: [AnyObject] = writer.withLock {
            let list = fallbackList
            fallbackList = nil
            words.storeUnowned(1, nil)
            return [emptyRegistrationsLocked()] + (list.map { [$0] } ?? [])
        }
        // Unpublished above; released once no read section can still be using them.
        _Reclaimer.retire(dropped)
    }

    /// Whether lookup from this container can reach `target`.
    func reaches(_ target: Container) -> Bool {
        lookupChain().contains { $0 === target }
    }
}

extension Container: CustomStringConvertible, CustomDebugStringConvertible {
    /// The registrations, one a line, sorted, in Swinject's exact format (so that output and tests written
    /// against Swinject read the same):
    ///
    /// ```text
    /// [
    ///     { Service: Animal, Name: "cat", Factory: Resolver -> Animal, ObjectScope: container },
    ///     { Service: Animal, Factory: (Resolver, String) -> Animal, ObjectScope: graph, InitCompleted: Specified 1 closures }
    /// ]
    /// ```
    ///
    /// ``debugDescription`` adds each registration's site, collection elements and decorators.
    public var description: String {
        let lines = currentEntries.compactMap { entry in
            (entry as? any ServiceEntryProtocol).map { "\n    { \($0.describe(with: entry.key)) }" }
        }
        return "[" + lines.sorted().joined(separator: ",") + "\n]"
    }

    /// The container's label and registration count, then one line a registration with its scope and the file
    /// and line that registered it, then collection elements (`[Type] element …`) and decorators
    /// (`decorator Type …`).
    ///
    /// ```text
    /// notes: 1 registration
    ///   Storage — scope: container — MyApp/Notes.swift:12
    /// ```
    public var debugDescription: String {
        let lines = currentEntries.map { entry in
            "  \(entry.key) — scope: \(entry.objectScope)\(entry.isForwarding ? ", forwarded" : "") — \(entry.site)"
        }
        let (elements, decorators) = writer.withLock {
            (records.collectionElements.values.flatMap { $0 }, records.decorators.values.flatMap { $0 })
        }
        let elementLines = elements.sorted { $0.entry.site.description < $1.entry.site.description }.map { element in
            "  [\(_typeName(element.entry.key.serviceType, qualified: false))] element"
                + (element.name.map { " \"\($0)\"" } ?? "")
                + (element.priority != 0 ? " (priority \(element.priority))" : "")
                + " — scope: \(element.entry.objectScope) — \(element.entry.site)"
        }
        let decoratorLines = decorators.sorted { $0.site.description < $1.site.description }.map { record in
            "  decorator \(_typeName(record.serviceType, qualified: false))"
                + (record.name.map { " (name: \"\($0)\")" } ?? "") + " — \(record.site)"
        }
        let all = lines + elementLines + decoratorLines
        let count = lines.count == 1 ? "1 registration" : "\(lines.count) registrations"
        return "\(label): \(count)" + (all.isEmpty ? "" : "\n" + all.joined(separator: "\n"))
    }
}
