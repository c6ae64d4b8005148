import _AssemblageShims

/// The state of the resolutions running on one thread: the factories being run (for cycle detection and
/// error paths) and the graph-scoped instances of the current top-level resolution.
///
/// One object per thread, reached through a C thread-local, reused across resolutions so that resolving
/// allocates nothing once warm. Factories are synchronous, so a thread's resolutions nest strictly and
/// the state never crosses threads. Resolver values handed to factories are the container itself, so a
/// factory that captures its resolver and uses it later simply starts a new top-level resolution.
@usableFromInline
final class _ResolutionState {
    // Every mutable property is confined to the state's own thread, so the runtime's dynamic exclusivity
    // checks (which cost more than the bookkeeping itself on the resolve path) are switched off for them.

    /// The factories currently running on this thread, outermost first: entry addresses, with the low bit
    /// set while that entry's `initCompleted` steps run. A raw buffer: pushing a frame is two stores.
    @exclusivity(unchecked) private var frames: UnsafeMutablePointer<UInt>
    @exclusivity(unchecked) private(set) var frameCapacity = 32
    @exclusivity(unchecked) @usableFromInline var depth = 0
    /// Graph-scoped instances of the current top-level resolution: entry addresses in one raw buffer (scanned
    /// without touching a reference count), the instances at the same index in another.
    @exclusivity(unchecked) private var graphEntries: UnsafeMutablePointer<UnsafeRawPointer>
    @exclusivity(unchecked) private var graphInstances: UnsafeMutablePointer<Any>
    @exclusivity(unchecked) private(set) var graphCapacity = 16
    @exclusivity(unchecked) private(set) var graphCount = 0
    /// Custom storages touched in this top-level resolution; told when it completes.
    @exclusivity(unchecked) @usableFromInline var touchedStorages: [InstanceStorage] = []
    /// Minted on demand for custom storages and `Lazy` handles.
    @exclusivity(unchecked) var graphID: GraphIdentifier?
    /// Handles of `Lazy` values created in this resolution; they receive the graph when it ends.
    @exclusivity(unchecked) var graphHandles: [_GraphHandle] = []
    /// How many allowed re-entries happened in this graph; when non-zero, a factory's own result may have
    /// been superseded by the re-entrant one (see ``checkReentry(_:)``).
    @exclusivity(unchecked) @usableFromInline var reentries = 0
    /// This thread's hazard word: the shared-instance box being read, published before re-checking its slot.
    let hazard: _AtomicWords

    /// Resolutions deeper than this fail with `depthLimitExceeded` instead of exhausting the stack.
    static let maxDepth = 1_500

    init() {
        hazard = _AtomicWords(count: 1)
        frames = .allocate(capacity: frameCapacity)
        graphEntries = .allocate(capacity: graphCapacity)
        graphInstances = .allocate(capacity: graphCapacity)
    }

    deinit {
        clearGraph()
        graphEntries.deallocate()
        graphInstances.deallocate()
        frames.deallocate()
        hazard.deallocate()
    }

    /// The calling thread's state, created on first use.
    @usableFromInline
    static var current: UnsafeMutableRawPointer {
        if let state = _asm_thread_state() { return state }
        return makeCurrent()
    }

    @inline(never)
    private static func makeCurrent() -> UnsafeMutableRawPointer {
        let state = _ResolutionState()
        let pointer = Unmanaged.passRetained(state).toOpaque()
        _Reclaimer.register(hazard: state.hazard.base)
        _asm_set_thread_state(pointer, state.hazard.base) { raw in
            let state = Unmanaged<_ResolutionState>.fromOpaque(raw).takeRetainedValue()
            _Reclaimer.unregister(hazard: state.hazard.base)
        }
        return pointer
    }

    /// The calling thread's hazard word.
    @usableFromInline
    static var currentHazard: UnsafeMutableRawPointer {
        if let hazard = _asm_thread_hazard() { return hazard }
        return Unmanaged<_ResolutionState>.fromOpaque(makeCurrent()).takeUnretainedValue().hazard.base
    }

    // MARK: Frames

    private static let completingBit: UInt = 1

    @inline(__always)
    private func frameEntry(_ index: Int) -> UInt { frames[index] & ~Self.completingBit }

    /// Records that the factory of `entry` is about to run.
    ///
    /// - Throws: `ResolutionError.cycle` when the same registration is already being constructed on this
    ///   thread (and no property injection sits in between), `.depthLimitExceeded` past ``maxDepth``.
    @usableFromInline
    ///
    /// - Returns: `true` when the thread's stack is nearly used up, so the factory must run on a thread with
    ///   room (checked only from ``_StackGuard/checkDepth``: the stack runs low only deep in a chain).
    @discardableResult
    func enter(_ entry: UnsafeRawPointer) throws(ResolutionError) -> Bool {
        if depth > 0 { try checkReentry(entry) }
        if depth == frameCapacity { try grow(for: entry) }
        frames[depth] = UInt(bitPattern: entry)
        depth &+= 1
        return depth > _StackGuard.checkDepth && _asm_stack_is_low()
    }

    @inline(never)
    private func grow(for entry: UnsafeRawPointer) throws(ResolutionError) {
        if depth >= Self.maxDepth {
            let key = Self.key(of: UInt(bitPattern: entry))
            throw ResolutionError(code: .depthLimitExceeded, key: key, path: path + [key])
        }
        // Capped at the limit, so that the check above runs exactly when the limit is reached (doubling alone
        // would skip from 1,024 to 2,048 and let resolution run 548 levels past it).
        let capacity = min(frameCapacity * 2, Self.maxDepth)
        let larger = UnsafeMutablePointer<UInt>.allocate(capacity: capacity)
        larger.moveInitialize(from: frames, count: depth)
        frames.deallocate()
        frames = larger
        frameCapacity = capacity
    }

    /// Throws a cycle error when `entry` is already being constructed on this thread, unless property
    /// injection sits in between: an `initCompleted` step of a later frame may reach a registration whose
    /// factory is still running, once, as in Swinject (the factory runs again, and the instance made by that
    /// second run is the one the whole graph uses).
    ///
    /// - Returns: `true` when this is such an allowed re-entry.
    @usableFromInline @discardableResult
    func checkReentry(_ entry: UnsafeRawPointer) throws(ResolutionError) -> Bool {
        let target = UInt(bitPattern: entry)
        var index = 0
        while index < depth, frameEntry(index) != target { index &+= 1 }
        guard index < depth else { return false }
        var completing = false
        var again = false
        for later in index..<depth {
            if frames[later] & Self.completingBit != 0 { completing = true }
            if later > index, frameEntry(later) == target { again = true }
        }
        if completing, !again {
            reentries &+= 1
            return true
        }
        let key = Self.key(of: target)
        let cycle = (index..<depth).map { Self.key(of: frameEntry($0)) } + [key]
        throw ResolutionError(code: .cycle, key: key, path: path + [key], cycle: cycle)
    }

    /// Marks the innermost frame as running its `initCompleted` steps.
    @usableFromInline
    func markCompleting() { frames[depth - 1] |= Self.completingBit }

    /// Records that the innermost factory finished (or failed); ends the graph when it was the outermost.
    @usableFromInline
    func leave() {
        depth &-= 1
        if depth == 0 { endGraph() }
    }

    /// The keys being constructed, outermost first (rebuilt from the entries: only errors need it).
    @usableFromInline
    var path: [ServiceKey] { (0..<depth).map { Self.key(of: frameEntry($0)) } }

    /// The entry whose factory is innermost on this thread, if any.
    var currentEntry: UInt? { depth > 0 ? frameEntry(depth - 1) : nil }

    static func key(of entry: UInt) -> ServiceKey {
        let object = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: entry)!).takeUnretainedValue()
        return (object as! any _AnyEntry).key
    }

    var isTopLevel: Bool { depth == 0 }

    /// Whether a graph-scoped instance made now could be asked for again in this graph: by a sibling
    /// (we are nested) or by a `Lazy` made in this graph. At top level with neither, storing it is wasted.
    @usableFromInline
    var graphIsObserved: Bool { depth > 1 || !graphHandles.isEmpty }

    /// The error for a factory (or step) that threw: a `ResolutionError` from deeper down passes through
    /// unchanged (it has the longer path); anything else is wrapped with this key and path.
    @usableFromInline
    func factoryFailure(_ error: any Error, _ key: ServiceKey) -> ResolutionError {
        if let resolution = error as? ResolutionError { return resolution }
        return ResolutionError(code: .factoryFailed, key: key, path: path, underlying: error)
    }

    // MARK: Graph

    @usableFromInline
    func graphInstance(_ entry: UnsafeRawPointer) -> Any? {
        var index = graphCount
        while index > 0 {
            index &-= 1
            if graphEntries[index] == entry { return graphInstances[index] }
        }
        return nil
    }

    @usableFromInline
    func storeGraphInstance(_ instance: consuming Any, for entry: UnsafeRawPointer) {
        if graphCount == graphCapacity { growGraph() }
        graphEntries[graphCount] = entry
        (graphInstances + graphCount).initialize(to: instance)
        graphCount &+= 1
    }

    /// Replaces the instance stored for `entry` (the most recent one), e.g. with its decorated version.
    func replaceGraphInstance(_ instance: consuming Any, for entry: UnsafeRawPointer) {
        var index = graphCount
        while index > 0 {
            index &-= 1
            if graphEntries[index] == entry {
                graphInstances[index] = instance
                return
            }
        }
    }

    @inline(never)
    private func growGraph() {
        let entries = UnsafeMutablePointer<UnsafeRawPointer>.allocate(capacity: graphCapacity * 2)
        let instances = UnsafeMutablePointer<Any>.allocate(capacity: graphCapacity * 2)
        entries.moveInitialize(from: graphEntries, count: graphCount)
        instances.moveInitialize(from: graphInstances, count: graphCount)
        graphEntries.deallocate()
        graphInstances.deallocate()
        graphEntries = entries
        graphInstances = instances
        graphCapacity *= 2
    }

    /// Drops the graph's instances (releasing them).
    ///
    /// The instances are moved out first and released from a temporary buffer: a `deinit` that runs now may
    /// resolve again on this thread, and must find an empty graph, not a half-cleared one.
    func clearGraph() {
        let count = graphCount
        guard count > 0 else { return }
        graphCount = 0
        withUnsafeTemporaryAllocation(of: Any.self, capacity: count) { buffer in
            let moved = buffer.baseAddress!
            moved.moveInitialize(from: graphInstances, count: count)
            moved.deinitialize(count: count)
        }
    }

    /// The graph's instances, for `Lazy` handles.
    var graphSnapshot: [(entry: UnsafeRawPointer, instance: Any)] {
        (0..<graphCount).map { (graphEntries[$0], graphInstances[$0]) }
    }

    @usableFromInline
    var currentGraphID: GraphIdentifier {
        if let graphID { return graphID }
        let id = GraphIdentifier()
        graphID = id
        return id
    }

    /// A handle that will hold this graph's instances (weakly) after it ends, for `Lazy`.
    func makeGraphHandle() -> _GraphHandle {
        let handle = _GraphHandle()
        graphHandles.append(handle)
        return handle
    }

    private func endGraph() {
        if !graphHandles.isEmpty {
            let instances = graphSnapshot
            for handle in graphHandles { handle.capture(instances) }
            graphHandles.removeAll(keepingCapacity: true)
        }
        clearGraph()
        reentries = 0
        if !touchedStorages.isEmpty {
            let storages = touchedStorages
            touchedStorages.removeAll(keepingCapacity: true)
            let graph = graphID
            _Coordinator.shared.withLock { for storage in storages { storage._finishGraph(graph) } }
        }
        graphID = nil
    }

    /// Seeds an empty state with the instances of a finished graph (used by `Lazy`).
    func seed(from handle: _GraphHandle) {
        for (entry, object) in handle.liveInstances() { storeGraphInstance(object, for: entry) }
    }
}

/// Keeps the class instances of a finished graph, weakly, so that a `Lazy` made in that graph resolves
/// into it later (as in Swinject).
final class _GraphHandle: @unchecked Sendable {  // @unchecked: `instances` is only touched under `lock`.
    private struct WeakInstance {
        let entry: UnsafeRawPointer
        weak var object: AnyObject?
    }
    private let lock = _Lock()
    private var instances: [WeakInstance] = []

    func capture(_ graph: [(entry: UnsafeRawPointer, instance: Any)]) {
        let weak = graph.compactMap { item -> WeakInstance? in
            guard type(of: item.instance) is AnyClass else { return nil }
            return WeakInstance(entry: item.entry, object: item.instance as AnyObject)
        }
        lock.withLock { instances = weak }
    }

    func liveInstances() -> [(UnsafeRawPointer, AnyObject)] {
        lock.withLock { instances.compactMap { item in item.object.map { (item.entry, $0) } } }
    }
}

extension _ResolutionState {
    /// Runs `body` in the graph a `Lazy` was made in: at top level, the graph starts seeded with that graph's
    /// surviving instances and is cleared afterwards; nested, it simply runs in the current graph.
    static func resolve<T>(joining handle: _GraphHandle?, _ body: () throws -> T) rethrows -> T {
        guard let handle else { return try body() }
        let state = Unmanaged<_ResolutionState>.fromOpaque(current).takeUnretainedValue()
        guard state.isTopLevel else { return try body() }
        state.seed(from: handle)
        defer { if state.isTopLevel { state.clearGraph() } }
        return try body()
    }
}
