// The sandbox validation resolves in: mirrors of the containers that share their factories, not their
// instances, and record every lookup.

/// Throw-away copies of a container and its fallbacks that share factories but not instances, and record
/// every lookup.
final class _Sandbox {
    let recorder = _Recorder()
    /// Every mirror, in the order made (shut down in reverse when validation ends).
    private(set) var containers: [Container] = []
    /// What each registration resolved to, so that each is resolved once (see ValidationMemo.swift).
    let memo = _ValidationMemo()
    private var copies: [ObjectIdentifier: Container] = [:]
    /// original entry → its copy.
    private var entryCopies: [ObjectIdentifier: any _AnyEntry] = [:]
    private var forwarders: [(original: any _AnyEntry, into: Container)] = []
    /// Graph nodes: every copied entry, in order, with the label of its container.
    private var nodes: [(entry: any _AnyEntry, container: String, isElement: Bool)] = []
    /// node id → lifetime rank of its scope.
    private(set) var lifetimeRank: [String: Int] = [:]
    /// node id → isolation of its factory.
    private(set) var isolation: [String: ServiceIsolation] = [:]

    /// Mirrored containers whose fallbacks are still to be mirrored and appended (see ``mirror(_:)``): the
    /// original's fallbacks, how many of them lookups from elsewhere search, and how many its index stands for.
    private var unwired: [(copy: Container, fallbacks: [Container], searchedFromElsewhere: Int, indexed: Int)] = []
    private var wiring = false
    /// The fallback indexes of the mirrors (a module assembler's root answers for its modules' scopes through
    /// one), each with the mirrored containers it stands for: filled by ``finish()``, once the registrations are
    /// copied, so that a lookup from the mirrored root probes one table, as the original's does, not every module's.
    private var indexes: [(index: _FallbackIndex, containers: [Container])] = []

    /// The mirror of `original`, with its fallbacks mirrored, transitively.
    ///
    /// A loop, not a recursion: each container is copied when first reached, and its fallbacks are mirrored and
    /// appended from a list of pending work, so a chain of ten thousand modules does not deepen the stack.
    func mirror(_ original: Container) -> Container {
        let copy = copyWithoutFallbacks(original)
        guard !wiring else { return copy }
        wiring = true
        defer { wiring = false }
        while let (pending, fallbacks, searchedFromElsewhere, indexed) = unwired.popLast() {
            let copies = fallbacks.map(copyWithoutFallbacks)
            let searched = Array(copies.prefix(searchedFromElsewhere))
            if indexed > 0 {
                let index = _FallbackIndex(expectedEntries: indexed)
                indexes.append((index, Array(copies.prefix(indexed))))
                pending.appendFallbacks(searched, index: index, indexedCount: indexed)
            } else {
                pending.appendFallbacks(searched)
            }
            pending.appendFallbacks(Array(copies.dropFirst(searched.count)), ownLookupsOnly: true)
        }
        return copy
    }

    /// Cuts the links between the mirrors (their registrations, collection elements, decorators and fallbacks),
    /// once validation is over and they are shut down.
    func dismantle() {
        for container in containers { container.detachForTeardown() }
    }

    /// The mirror of `original`, made now if needed, its fallbacks left to ``mirror(_:)``'s loop.
    private func copyWithoutFallbacks(_ original: Container) -> Container {
        if let copy = copies[ObjectIdentifier(original)] { return copy }
        let copy = Container(
            parent: nil, defaultObjectScope: original.defaultObjectScope, behaviors: [], label: original.labelStorage,
            isModuleScope: original.isModuleScope, serialization: nil, registeringClosure: { _ in })
        copy.recorder = recorder
        containers.append(copy)
        copies[ObjectIdentifier(original)] = copy
        let (live, elements, decorators, extensions, fallbacks) = original.writer.withLock {
            (
                original.liveEntriesLocked(), original.records.collectionElements, original.records.decorators,
                original.hooks.extensionStorage,
                original.fallbackList.map {
                    (
                        containers: $0.containers, searchedFromElsewhere: $0.searchedFromElsewhere,
                        indexed: $0.index == nil ? 0 : $0.indexedCount
                    )
                }
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
            let copied = entry._sandboxCopy(forwardingTo: memoized)
            copied._adoptIntoSandbox(copy)  // owned by the mirror, which a lookup from another mirror resolves it in
            _ = copy.add(copied)
            nodes.append((duplicate, original.label, false))
        }
        var copiedElements: [ObjectIdentifier: [_CollectionElement]] = [:]
        for (type, list) in elements {
            copiedElements[type] = list.map { element in
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
            unwired.append((copy, fallbacks.containers, fallbacks.searchedFromElsewhere, fallbacks.indexed))
        }
        return copy
    }

    /// Copies the forwarders, now that every entry they may forward to has a copy.
    ///
    /// A forwarder into a module's scope (an abstract registration's) forwards through a `_ModuleExportEntry` into
    /// that container: it is mirrored too, and the copy keeps resolving in the mirror.
    func finish() {
        while !forwarders.isEmpty {
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
                let copied = original._sandboxCopy(forwardingTo: copiedTarget)
                copied._adoptIntoSandbox(container)
                _ = container.add(copied)
            }
        }
        for (index, containers) in indexes {
            for container in containers { index.add(container) }
            for (position, container) in containers.enumerated() {
                for entry in container.currentEntries { index.offer(entry, key: entry.key, position: position) }
            }
        }
        indexes = []
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
        // Every registration a lookup can have found (the mirrors hold them, and a module's registrations and
        // collection elements, found from elsewhere, are found as the export forwarders they made then), by identity.
        var entries: [UInt: any _AnyEntry] = [:]
        for container in containers {
            var found = container.currentEntries
            if container.isModuleScope {
                let elements = container.writer.withLock {
                    container.records.collectionElements.values.flatMap { $0.map(\.entry) }
                }
                found += (found + elements).compactMap { $0.madeExportForwarder as? any _AnyEntry }
            }
            for entry in found { entries[UInt(bitPattern: ObjectIdentifier(entry))] = entry }
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
