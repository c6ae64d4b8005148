import _AssemblageShims

// Graphs that outlive their top-level resolution: identified, restored, scoped and joined by a `Lazy`.
//
// The common resolve never sees any of this. A graph's identifier is minted only when something asks for it;
// once it has been handed out (`Container.currentObjectGraph`, `resolve(GraphIdentifier.self)`), the graph
// is *identified*: it keeps every graph-scoped instance (`keepsGraph`) and, when it ends, leaves them weakly
// in `_GraphRegistry` under its identifier. `withObjectGraph` and `restoreObjectGraph` start a graph seeded
// from the registry: a scope holds it open across the top-level resolutions of its closure, a restore until
// the next top-level resolution of the thread ends. Ending takes the out-of-line branch of `endGraph`, which
// the `keepsGraph` flag already guarded, so the resolve path costs what it cost before.

extension _ResolutionState {
    /// The calling thread's state, if it has one.
    static var existing: _ResolutionState? {
        _asm_thread_state().map { Unmanaged<_ResolutionState>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The calling thread's state, created on first use.
    static var currentState: _ResolutionState {
        Unmanaged<_ResolutionState>.fromOpaque(current).takeUnretainedValue()
    }

    /// The identifier of the calling thread's current graph, handed out (the graph is remembered when it
    /// ends); nil when no graph is being resolved or scoped on this thread. A restored graph is not being
    /// resolved until its resolution starts (a restore never used would otherwise show in every later query
    /// on the thread, whatever the container).
    static func identifiedGraph() -> GraphIdentifier? {
        guard let state = existing, state.depth > 0 || state.graphIsScoped else { return nil }
        state.identify()
        return state.currentGraphID
    }

    /// Marks the graph as identified: it keeps every graph-scoped instance and is remembered when it ends.
    func identify() {
        isIdentified = true
        keepsGraph = true
        graphHasExtras = true
    }

    /// Makes the next top-level resolution on the calling thread run in graph `identifier`.
    static func restoreGraph(_ identifier: GraphIdentifier) {
        let state = currentState
        precondition(
            state.depth == 0 && !state.graphIsScoped,
            "restoreObjectGraph(_:) sets the graph of the next resolution: call it outside any resolution "
                + "and outside withObjectGraph(_:closure:), or use withObjectGraph(_:closure:) instead.")
        // A restore that no resolution used yet is replaced.
        if state.graphCount != 0 || state.graphHasExtras { state.endGraph() }
        state.openGraph(identifier)
        state.restorePending = true
    }

    /// Runs `body` with the calling thread's resolutions in graph `identifier`: the instances remembered for it
    /// are found again, and those made in `body` are shared by all its resolutions and remembered afterwards.
    ///
    /// Inside that graph already (a factory or a scope of it), `body` simply runs. Inside another, or with a
    /// restore pending, that graph is set aside and taken up again afterwards.
    static func withGraph<T>(_ identifier: GraphIdentifier, _ body: () throws -> T) rethrows -> T {
        let state = currentState
        let resolving = state.depth > 0 || state.graphIsScoped
        if resolving, state.graphID == identifier {
            state.identify()
            return try body()
        }
        let active = resolving || state.restorePending || state.graphCount != 0
        let suspended = active ? state.suspendGraph() : nil
        state.openGraph(identifier)
        state.graphIsScoped = true
        defer {
            state.graphIsScoped = false
            state.endGraph()
            if let suspended { state.resumeGraph(suspended) }
        }
        return try body()
    }

    /// Starts graph `identifier` on an empty graph: seeded with the live instances the registry remembers for
    /// it, their registrations anchored, identified.
    func openGraph(_ identifier: GraphIdentifier) {
        let remembered = _GraphRegistry.shared.liveInstances(of: identifier)
        for item in remembered { storeGraphInstance(item.object as Any, for: item.entry) }
        anchorGraph()  // `remembered` holds the registrations alive until they are anchored
        graphID = identifier
        identify()
    }

    /// Retains the registrations of the graph's entries not retained yet (the graph is held past the read
    /// section that found them alive).
    func anchorGraph() {
        while anchoredCount < graphCount {
            graphAnchors.append(_object(assumingAlive: graphEntries[anchoredCount]))
            anchoredCount &+= 1
        }
    }

    /// The end of a graph whose instances are wanted afterwards (``keepsGraph``): hands them to the `Lazy`
    /// handles made in it and, when it is identified, to the registry. A scoped graph does not end with the
    /// resolutions of its closure: its new entries are anchored and it stays.
    @usableFromInline @inline(never)
    func endKeptGraph() {
        if graphIsScoped { return anchorGraph() }
        let instances = graphSnapshot
        for handle in graphHandles { handle.capture(instances) }
        graphHandles.removeAll(keepingCapacity: true)
        if isIdentified, let graphID { _GraphRegistry.shared.remember(instances, of: graphID) }
        keepsGraph = false
        isIdentified = false
        restorePending = false
        let anchors = graphAnchors
        graphAnchors = []
        clearGraph()
        finishGraph()
        // Released last: a registration's last reference may go with them, and its instance's `deinit` may
        // resolve again on this thread, which must find the graph ended.
        withExtendedLifetime(anchors) {}
    }

    /// Ends a restored graph that a top-level resolution used without making anything (a stored instance was
    /// ready).
    func endRestoredGraph() {
        if depth == 0, restorePending { endGraph() }
    }

    // MARK: Setting a graph aside

    /// Everything of a graph that is set aside while another runs on the same thread.
    struct SuspendedGraph {
        let entries: UnsafeMutablePointer<ObjectIdentifier>
        let instances: UnsafeMutablePointer<Any>
        let capacity: Int
        let count: Int
        let mask: UInt
        let keeps: Bool
        let identified: Bool
        let scoped: Bool
        let restored: Bool
        let extras: Bool
        let storages: [any InstanceStorage]
        let id: GraphIdentifier?
        let handles: [_GraphHandle]
        let reentries: Int
        let anchors: [AnyObject]
        let anchoredCount: Int
    }

    /// Sets the current graph aside and leaves an empty one in its place. The frames stay: cycles are still
    /// found across the two graphs.
    func suspendGraph() -> SuspendedGraph {
        let saved = SuspendedGraph(
            entries: graphEntries, instances: graphInstances, capacity: graphCapacity, count: graphCount,
            mask: graphMask, keeps: keepsGraph, identified: isIdentified, scoped: graphIsScoped,
            restored: restorePending, extras: graphHasExtras, storages: touchedStorages, id: graphID,
            handles: graphHandles, reentries: reentries, anchors: graphAnchors, anchoredCount: anchoredCount)
        graphCapacity = 16
        graphEntries = .allocate(capacity: graphCapacity)
        graphInstances = .allocate(capacity: graphCapacity)
        graphCount = 0
        graphMask = 0
        keepsGraph = false
        isIdentified = false
        graphIsScoped = false
        restorePending = false
        touchedStorages = []
        graphID = nil
        graphHandles = []
        reentries = 0
        graphAnchors = []
        anchoredCount = 0
        graphHasExtras = false
        return saved
    }

    /// Takes up a graph set aside by ``suspendGraph()``, once the one that replaced it has ended.
    func resumeGraph(_ saved: SuspendedGraph) {
        clearGraph()
        graphEntries.deallocate()
        graphInstances.deallocate()
        graphEntries = saved.entries
        graphInstances = saved.instances
        graphCapacity = saved.capacity
        graphCount = saved.count
        graphMask = saved.mask
        keepsGraph = saved.keeps
        isIdentified = saved.identified
        graphIsScoped = saved.scoped
        restorePending = saved.restored
        touchedStorages = saved.storages
        graphID = saved.id
        graphHandles = saved.handles
        reentries = saved.reentries
        graphAnchors = saved.anchors
        anchoredCount = saved.anchoredCount
        graphHasExtras = saved.extras
    }

    // MARK: Lazy

    /// Runs `body` in the graph a `Lazy` was made in: at top level, the graph starts seeded with that graph's
    /// surviving instances, under its identifier, and ends afterwards; nested, or while a graph is held, it
    /// simply runs in the current graph.
    static func resolve<T>(joining handle: _GraphHandle?, _ body: () throws -> T) rethrows -> T {
        guard let handle else { return try body() }
        // In one read section: a registration the handle finds alive stays alive (its address unique) until the
        // seeded graph is cleared.
        return try _withReadSection { () throws -> T in try resolveInSection(joining: handle, body) }
    }

    private static func resolveInSection<T>(joining handle: _GraphHandle, _ body: () throws -> T) throws -> T {
        let state = currentState
        guard state.isTopLevel, !state.graphIsHeld, state.graphCount == 0 else { return try body() }
        for item in handle.liveInstances() { state.storeGraphInstance(item.object as Any, for: item.entry) }
        state.graphID = handle.graphID
        state.graphHasExtras = true
        defer { if state.isTopLevel, state.graphCount != 0 || state.graphHasExtras { state.endGraph() } }
        return try body()
    }
}
