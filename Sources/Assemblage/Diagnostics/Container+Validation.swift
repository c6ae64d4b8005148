/// What ``Container/validate(_:)`` should also check: registrations that need runtime arguments.
///
/// A registration with runtime arguments cannot be resolved without values for them. Give validation a
/// sample resolve for each; the registrations it resolves count as checked, the others are reported as
/// not checked (never silently skipped):
///
/// ```swift
/// var options = ValidationOptions()
/// options.sample { r in _ = try r.require(ProfileViewModel.self, argument: 42) }
/// let report = container.validate(options)
/// ```
public struct ValidationOptions: Sendable {
    var samples: [@Sendable (any Resolver) throws -> Void] = []

    /// Whether registrations hidden by another under the same key in a container searched first are reported
    /// (as notes). On by default; overlays hide base registrations on purpose, so turn it off for them.
    public var reportsShadowedRegistrations = true

    /// Creates options with no samples.
    public init() {}

    /// Adds a sample resolve, run against the validation sandbox.
    ///
    /// - Parameter resolve: Resolves one or more registrations with sample arguments.
    public mutating func sample(_ resolve: @escaping @Sendable (any Resolver) throws -> Void) {
        samples.append(resolve)
    }
}

extension Container {
    /// Resolves every registration visible from this container in a sandbox and reports every problem at once.
    ///
    /// ```swift
    /// let report = container.validate()
    /// guard report.isValid else { fatalError("\(report)") }   // or fail a test, or log at start-up
    /// ```
    ///
    /// ## What it checks
    /// - registrations that cannot be resolved: a missing dependency (with the path to it and near misses), a
    ///   cycle that nothing breaks, a factory, step or decorator that throws;
    /// - captive dependencies: a `.container`, `.singleton`, `.multiton` or custom-scoped service that depends,
    ///   on any path, on a `.transient`, `.graph` or `.weak` one (it keeps one instance of something meant to be
    ///   short-lived);
    /// - registrations that replaced an earlier one under the same key, and (as notes) registrations hidden
    ///   by one in a container searched first;
    /// - decorators that match nothing;
    /// - registrations that need runtime arguments: resolved with the samples in `options`, or reported as
    ///   not checked.
    ///
    /// ## The sandbox
    /// Validation mirrors this container and its fallbacks into throw-away containers that share the factories
    /// but not the instances: nothing it makes is kept, and no scoped instance of the real containers is made
    /// or touched. The factories do run, so keep side effects out of them (or validate in a test). A factory
    /// that force-unwraps `resolve(…)!` still traps on a missing registration, here as at run time; factories
    /// that use `try r.require(…)` let validation report it instead.
    ///
    /// - Parameter options: Sample arguments and reporting choices.
    /// - Returns: The report, with the recorded dependency graph.
    /// - Complexity: Resolves each registration once; O(registrations + dependencies).
    public func validate(_ options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        let run = _ValidationRun(self, options)
        run.resolveSynchronously()
        run.finishSynchronously()
        return run.report()
    }

    /// ``validate(_:)``, and also the registrations whose factories are `async` or isolated to the main actor:
    /// they run in the sandbox too (with `resolveAsync`), so their dependencies, failures and cycles are
    /// reported as well.
    ///
    /// ```swift
    /// let report = await container.validateAsync()
    /// #expect(report.isValid, "\(report)")
    /// ```
    ///
    /// What ``validate(_:)`` reports as "not checked" because it cannot await is checked here. Use it at
    /// start-up of a server, whose graph is mostly asynchronous, or in a test.
    ///
    /// - Parameters:
    ///   - options: Sample arguments and reporting choices.
    ///   - isolation: The caller's actor, inferred.
    /// - Returns: The report, with the recorded dependency graph.
    public func validateAsync(
        _ options: ValidationOptions = ValidationOptions(),
        isolation: isolated (any Actor)? = #isolation
    ) async -> ValidationReport {
        let run = _ValidationRun(self, options)
        run.resolveSynchronously()
        await run.resolveIsolated()
        await run.finish()
        return run.report()
    }

    /// Failures as issues, one per root cause: a missing registration, a cycle (found from any of its members),
    /// a failing factory. Each issue lists, in ``ValidationIssue/affected``, the registrations resolved at top
    /// level that fail because of it.
    static func issues(from failures: [(start: ServiceKey?, error: ResolutionError)]) -> [ValidationIssue] {
        var groups: [String: Int] = [:]
        var causes: [(failure: ResolutionError, kind: ValidationIssue.Kind, affected: [ServiceKey])] = []
        var seenStarts = Set<ServiceKey>()
        for (start, failure) in failures where failure.code != .requiresAsync && failure.code != .requiresMainActor {
            let identity: String
            let kind: ValidationIssue.Kind
            switch failure.code {
            case .notRegistered:
                identity = "missing \(failure.key)"
                kind = .missingRegistration
            case .cycle:
                identity = "cycle " + Set(failure.cycle.map(\.description)).sorted().joined(separator: ",")
                kind = .cycle
            case .factoryFailed:
                identity = "failed \(failure.key)"
                kind = .factoryFailed
            case .captiveDependency:
                identity = "captive \(failure.key) " + failure.pathDescription
                kind = .captiveDependency
            case .scopedValueNotProvided:
                identity = "scoped value \(failure.key)"
                kind = .notChecked
            default:
                identity = "\(failure.code) \(failure.key)"
                kind = .resolutionFailed
            }
            let group: Int
            if let existing = groups[identity] {
                group = existing
            } else {
                group = causes.count
                groups[identity] = group
                causes.append((failure, kind, []))
            }
            if let start, seenStarts.insert(start).inserted { causes[group].affected.append(start) }
        }
        return causes.map { cause in
            if cause.failure.code == .scopedValueNotProvided {
                // Declared, so not missing: validation just cannot make a value that each scope provides.
                let dependents = cause.affected.filter { $0 != cause.failure.key }
                let names = dependents.map(\.description).joined(separator: ", ")
                let shown = dependents.isEmpty ? "" : " What depends on it (\(names)) was checked up to it."
                return ValidationIssue(
                    severity: .note, kind: .notChecked, key: cause.failure.key, path: cause.failure.path,
                    message: "\(cause.failure.key) is a scoped value that each scope provides, so validation cannot "
                        + "make it.\(shown) Pass registerScopedValue(…, validationValue:) to check past it.",
                    affected: cause.affected)
            }
            var message = ValidationIssue.lines(cause.failure.description)
            if cause.affected.count > 1 {
                let shown = cause.affected.prefix(3).map(\.description).joined(separator: ", ")
                let more = cause.affected.count > 3 ? " and \(cause.affected.count - 3) more" : ""
                message += "\nIt makes \(cause.affected.count) registrations fail: \(shown)\(more)."
            }
            return ValidationIssue(
                severity: .error, kind: cause.kind, key: cause.failure.key, path: cause.failure.path,
                message: message, affected: cause.affected)
        }
    }

    /// Synchronous paths from a nonisolated factory into a main-actor or async one.
    func isolationPaths(
        in graph: DependencyGraph, sandbox: _Sandbox,
        failures: [ResolutionError]
    ) -> [ValidationIssue] {
        let byID = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0) })
        var issues: [ValidationIssue] = []
        for edge in graph.edges {
            guard let from = byID[edge.from], let to = byID[edge.to],
                sandbox.isolation[edge.from] == .nonisolated,
                let target = sandbox.isolation[edge.to], target != .nonisolated
            else { continue }
            let path =
                failures.first { $0.key == to.key && ($0.code == .requiresAsync || $0.code == .requiresMainActor) }?
                .path ?? [from.key, to.key]
            let text = path.map(\.description).joined(separator: " → ")
            if target == .async {
                issues.append(
                    ValidationIssue(
                        severity: .error, kind: .isolation, key: to.key, path: path,
                        message:
                            "\(from.key) resolves \(to.key) synchronously (\(text)), but \(to.key) has an async factory: "
                            + "that resolve always fails with requiresAsync. Make \(from.key)'s factory async and use "
                            + "`try await r.resolveAsync(…)`."))
            } else {
                issues.append(
                    ValidationIssue(
                        severity: .warning, kind: .isolation, key: to.key, path: path,
                        message: "\(from.key) resolves \(to.key) synchronously (\(text)), but \(to.key)'s factory is "
                            + "isolated to the main actor: it works only when the resolution runs on the main actor and "
                            + "fails with requiresMainActor anywhere else. Register \(from.key) with a mainActorFactory, "
                            + "or resolve \(to.key) with `try await r.resolveAsync(…)`."))
            }
        }
        return issues
    }

    /// Long-lived services that reach a short-lived one along recorded dependencies.
    func captiveDependencies(in graph: DependencyGraph, sandbox: _Sandbox) -> [ValidationIssue] {
        let byID = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0) })
        var adjacency: [String: [String]] = [:]
        for edge in graph.edges { adjacency[edge.from, default: []].append(edge.to) }
        func rank(_ node: DependencyGraph.Node) -> Int { sandbox.lifetimeRank[node.id] ?? 0 }
        var issues: [ValidationIssue] = []
        for node in graph.nodes where rank(node) >= ObjectScope.longLivedRank {
            var visited: Set<String> = [node.id]
            var queue: [(String, [String])] = [(node.id, [node.id])]
            while !queue.isEmpty {
                let (current, path) = queue.removeFirst()
                for next in adjacency[current] ?? [] where visited.insert(next).inserted {
                    guard let target = byID[next] else { continue }
                    let nextPath = path + [next]
                    if target.scope == ObjectScope.scoped.description {
                        continue  // a scoped dependency of a longer-lived one fails to resolve: reported as an error
                    } else if rank(target) < ObjectScope.longLivedRank {
                        let keys = nextPath.compactMap { byID[$0]?.key }
                        issues.append(
                            ValidationIssue(
                                severity: .warning, kind: .captiveDependency, key: node.key, path: keys,
                                message: "\(node.key) (\(node.scope)) holds \(target.key) (\(target.scope)) through "
                                    + keys.map(\.description).joined(separator: " → ") + ": it keeps one "
                                    + "\(target.scope) instance for as long as it lives. Give \(target.key) a longer "
                                    + "scope, or resolve it through Provider/Lazy."))
                    } else if rank(target) < rank(node) {
                        continue  // a longer-lived dependency of its own: reported from there
                    } else {
                        queue.append((next, nextPath))
                    }
                }
            }
        }
        return issues
    }

    /// Registrations that replaced an earlier one under the same key, here and in fallbacks: one issue per
    /// distinct pair of sites.
    func replacementIssues() -> [ValidationIssue] {
        lookupChain().flatMap { container in
            container.writer.withLock { container.records.replacements.map { ($0.key, $0.value.pairs) } }
                .sorted { $0.0.description < $1.0.description }
                .flatMap { key, pairs in
                    pairs.map { pair in
                        ValidationIssue(
                            severity: .warning, kind: .replacedRegistration, key: key, path: [key],
                            message: "\(key) registered at \(pair.by) replaced the registration "
                                + "at \(pair.replaced) in \(container.label); the later one wins.")
                    }
                }
        }
    }

    /// The registrations lookup reaches from here (first per key wins), those hidden, and collection types.
    func visibleRegistrations() -> (
        winners: [VisibleRegistration], shadowed: [ValidationIssue],
        collectionTypes: [ObjectIdentifier]
    ) {
        var winners: [VisibleRegistration] = []
        var byKey: [ServiceKey: VisibleRegistration] = [:]
        var shadowed: [ValidationIssue] = []
        var collectionTypes: [ObjectIdentifier] = []
        for container in lookupChain() {
            for entry in container.currentEntries {
                let registration = VisibleRegistration(key: entry.key, container: container.label, site: entry.site)
                if let winner = byKey[entry.key] {
                    shadowed.append(
                        ValidationIssue(
                            severity: .note, kind: .shadowedRegistration, key: entry.key, path: [entry.key],
                            message: "\(entry.key) registered in \(container.label) at \(entry.site) is hidden by the "
                                + "one in \(winner.container) at \(winner.site), which lookup reaches first."))
                } else {
                    byKey[entry.key] = registration
                    winners.append(registration)
                }
            }
            for type in container.writer.withLock({ Array(container.records.collectionElements.keys) })
            where !collectionTypes.contains(type) {
                collectionTypes.append(type)
            }
        }
        return (winners, shadowed, collectionTypes)
    }

    /// Collection elements of one element type (by type identifier), in collection order.
    func collectionElements(ofTypeID type: ObjectIdentifier) -> [_CollectionElement] {
        lookupChain().flatMap { container in
            container.writer.withLock { container.records.collectionElements[type] ?? [] }
        }
    }
}

/// The isolation of an entry's factory, following forwarders.
func _isolation(of entry: any _AnyEntry) -> ServiceIsolation {
    var current: any _AnyEntry = entry
    while true {
        if let isolated = current as? any _IsolatedEntry, !current.isForwarding { return isolated.isolation }
        guard let next = current.forwardTarget else { return .nonisolated }
        current = next
    }
}

/// A registration as lookup sees it.
struct VisibleRegistration {
    let key: ServiceKey
    let container: String
    let site: RegistrationSite
}

extension ObjectScope {
    /// Scopes at or above this rank keep instances beyond one resolution (container, singleton, multiton, custom).
    static var longLivedRank: Int { 3 }
}

/// Throw-away copies of a container and its fallbacks that share factories but not instances, and record
/// every lookup.
final class _Sandbox {
    let recorder = _Recorder()
    /// Every mirror, in the order made (shut down in reverse when validation ends).
    private(set) var containers: [Container] = []
    /// What each registration resolved to, so that each is resolved once (see ValidationMemo.swift).
    let memo = _ValidationMemo()
    private var copies: [ObjectIdentifier: Container] = [:]
    /// original shared fallback list → its mirror (the originals stay alive with the containers mirrored).
    private var listCopies: [ObjectIdentifier: _Fallbacks] = [:]
    /// original entry → its copy.
    private var entryCopies: [ObjectIdentifier: any _AnyEntry] = [:]
    private var forwarders: [(original: any _AnyEntry, into: Container)] = []
    /// Exported collection elements (forwarders into a module's elements), with their type and the copy they
    /// belong to.
    private var elementForwarders: [(original: _CollectionElement, type: ObjectIdentifier, into: Container)] = []
    /// Graph nodes: every copied entry, in order, with the label of its container.
    private var nodes: [(entry: any _AnyEntry, container: String, isElement: Bool)] = []
    /// node id → lifetime rank of its scope.
    private(set) var lifetimeRank: [String: Int] = [:]
    /// node id → isolation of its factory.
    private(set) var isolation: [String: ServiceIsolation] = [:]

    func mirror(_ original: Container) -> Container {
        if let copy = copies[ObjectIdentifier(original)] { return copy }
        let copy = Container(defaultObjectScope: original.defaultObjectScope, label: original.label)
        copy.recorder = recorder
        containers.append(copy)
        copies[ObjectIdentifier(original)] = copy
        let (live, elements, decorators, extensions, fallbacks) = original.writer.withLock {
            (
                original.liveEntriesLocked(), original.records.collectionElements, original.records.decorators,
                original.hooks.extensionStorage, original.fallbackList.map { (own: $0.own, tail: $0.tail) }
            )
        }
        for entry in live {
            if entry.isForwarding {
                forwarders.append((entry, copy))
                continue
            }
            let duplicate = entry._sandboxCopy(forwardingTo: nil)
            duplicate._adoptIntoSandbox(copy)  // its shared instances are disposed when validation ends
            let memoized = _MemoEntry(target: duplicate, memo: memo)
            entryCopies[ObjectIdentifier(entry)] = memoized
            _ = copy.add(entry._sandboxCopy(forwardingTo: memoized))
            nodes.append((duplicate, original.label, false))
        }
        var copiedElements: [ObjectIdentifier: [_CollectionElement]] = [:]
        for (type, list) in elements {
            copiedElements[type] = list.compactMap { element in
                if element.entry.isForwarding {
                    // A module's exported element: copied in `finish()`, once its module is mirrored.
                    elementForwarders.append((element, type, copy))
                    return nil
                }
                let duplicate = element.entry._sandboxCopy(forwardingTo: nil)
                duplicate._adoptIntoSandbox(copy)
                entryCopies[ObjectIdentifier(element.entry)] = duplicate
                nodes.append((duplicate, original.label, true))
                return _CollectionElement(entry: duplicate, name: element.name, priority: element.priority)
            }
        }
        copy.writer.withLock {
            copy.records.collectionElements = copiedElements
            copy.records.decorators = decorators
            copy.hooks.extensionStorage = extensions
        }
        if let fallbacks {
            copy.appendFallbacks(fallbacks.own.map(mirror), tail: mirror(fallbacks.tail))
        }
        return copy
    }

    /// The mirror of a shared fallback list (a module's), made once however many lists end with it; a loop
    /// over the chain of tails, so a chain of modules does not deepen the stack.
    private func mirror(_ list: _Fallbacks?) -> _Fallbacks? {
        var pending: [_Fallbacks] = []
        var cursor = list
        while let current = cursor, listCopies[ObjectIdentifier(current)] == nil {
            pending.append(current)
            cursor = current.tail
        }
        var tail = cursor.flatMap { listCopies[ObjectIdentifier($0)] }
        for original in pending.reversed() {
            let copy = _Fallbacks(original.own.map(mirror), tail: tail)
            listCopies[ObjectIdentifier(original)] = copy
            tail = copy
        }
        return tail
    }

    /// Copies the forwarders, now that every entry they may forward to has a copy.
    ///
    /// A module's exports forward through a `_ModuleExportEntry` into the module's own container, which lookup does
    /// not reach by fallbacks: that container is mirrored too, and the copy keeps resolving in the mirror.
    func finish() {
        while !forwarders.isEmpty || !elementForwarders.isEmpty {
            let pendingElements = elementForwarders
            elementForwarders = []
            for (element, type, container) in pendingElements {
                guard let scoped = element.entry.forwardTarget as? _ModuleExportEntry else { continue }
                let scope = mirror(scoped.scope)
                guard let target = entryCopies[ObjectIdentifier(scoped.target)] else { continue }
                let copied = element.entry._sandboxCopy(forwardingTo: _ModuleExportEntry(target: target, scope: scope))
                container.writer.withLock {
                    container.records.collectionElements[type, default: []]
                        .append(_CollectionElement(entry: copied, name: element.name, priority: element.priority))
                }
            }
            let pending = forwarders
            forwarders = []
            for (original, container) in pending {
                guard let target = original.forwardTarget else { continue }
                let copiedTarget: (any _AnyEntry)?
                if let scoped = target as? _ModuleExportEntry {
                    let scope = mirror(scoped.scope)
                    copiedTarget = entryCopies[ObjectIdentifier(scoped.target)].map {
                        _ModuleExportEntry(target: $0, scope: scope)
                    }
                } else {
                    copiedTarget = entryCopies[ObjectIdentifier(target)]
                }
                // A target outside every mirrored container is left out of the sandbox.
                guard let copiedTarget else { continue }
                _ = container.add(original._sandboxCopy(forwardingTo: copiedTarget))
            }
        }
    }

    /// Resolves `entry` at top level; returns why it failed, or nil.
    ///
    /// A start that fails with `depthLimitExceeded` is not reported as such: the innermost registration being
    /// resolved then is resolved at top level first (and, when that fails the same way, its innermost one, and
    /// so on), so that the start finds the deeper part recorded. Each registration is still resolved once.
    func resolveTopLevel(_ entry: any _AnyEntry, in root: Container) -> ResolutionError? {
        func attempt(_ entry: any _AnyEntry, _ container: Container) -> ResolutionError? {
            do {
                _ = try entry._resolveAny(container)
                return nil
            } catch {
                return _asResolutionError(error)
            }
        }
        defer { _ = memo.takeDeepest() }
        var result = attempt(entry, root)
        var budget = nodes.count + 1
        while result?.code == .depthLimitExceeded, budget > 0, let deepest = memo.takeDeepest() {
            var work = [deepest]
            while let current = work.last, budget > 0 {
                budget -= 1
                let outcome = attempt(current.entry, current.container)
                if outcome?.code == .depthLimitExceeded, let deeper = memo.takeDeepest(), deeper.entry !== current.entry
                {
                    work.append(deeper)
                } else {
                    work.removeLast()
                }
            }
            result = attempt(entry, root)
        }
        return result
    }

    /// The recorded graph: nodes for every copied entry, edges for every recorded lookup between them.
    func graph() -> DependencyGraph {
        var ids: [UInt: String] = [:]
        var graphNodes: [DependencyGraph.Node] = []
        for (index, node) in nodes.enumerated() {
            let id = "n\(index)"
            ids[UInt(bitPattern: ObjectIdentifier(node.entry))] = id
            lifetimeRank[id] = node.entry.objectScope.lifetimeRank
            isolation[id] = _isolation(of: node.entry)
            graphNodes.append(
                DependencyGraph.Node(
                    id: id, key: node.entry.key, container: node.container,
                    scope: node.entry.objectScope.description, site: node.entry.site,
                    isCollectionElement: node.isElement))
        }
        var edges: [DependencyGraph.Edge] = []
        var seen = Set<DependencyGraph.Edge>()
        // Every registration a lookup can have found (the mirrors hold them), by identity.
        var entries: [UInt: any _AnyEntry] = [:]
        for container in containers {
            for entry in container.currentEntries { entries[UInt(bitPattern: ObjectIdentifier(entry))] = entry }
        }
        for edge in recorder.edges {
            guard let from = edge.from.flatMap({ ids[$0] }), let to = ids[edge.to] ?? forwardedID(entries[edge.to], ids)
            else {
                continue
            }
            let graphEdge = DependencyGraph.Edge(from: from, to: to)
            if from != to, seen.insert(graphEdge).inserted { edges.append(graphEdge) }
        }
        return DependencyGraph(nodes: graphNodes, edges: edges)
    }

    /// A lookup that found a forwarder counts as a dependency on what it forwards to.
    private func forwardedID(_ found: (any _AnyEntry)?, _ ids: [UInt: String]) -> String? {
        var entry = found
        while let target = entry?.forwardTarget {
            if let id = ids[UInt(bitPattern: ObjectIdentifier(target))] { return id }
            entry = target
        }
        return nil
    }
}
