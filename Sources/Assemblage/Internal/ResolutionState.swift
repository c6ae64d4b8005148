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
    struct Frame {
        let entry: UnsafeRawPointer
        let key: ServiceKey
        /// The factory has returned and the `initCompleted` steps are running.
        var completing = false
    }

    /// The factories currently running on this thread, outermost first.
    var frames: [Frame] = []
    /// Graph-scoped instances of the current top-level resolution, keyed by entry address.
    var graph: [(entry: UnsafeRawPointer, instance: Any)] = []
    /// Custom storages touched in this top-level resolution; told when it completes.
    @usableFromInline var touchedStorages: [InstanceStorage] = []
    /// Minted on demand for custom storages and `Lazy` handles.
    var graphID: GraphIdentifier?
    /// Handles of `Lazy` values created in this resolution; they receive the graph when it ends.
    var graphHandles: [_GraphHandle] = []
    /// This thread's hazard word: the shared-instance box being read, published before re-checking its slot.
    let hazard: _AtomicWords

    /// Resolutions deeper than this fail with `depthLimitExceeded` instead of exhausting the stack.
    static let maxDepth = 1_500

    init() {
        hazard = _AtomicWords(count: 1)
        frames.reserveCapacity(16)
        graph.reserveCapacity(16)
    }

    deinit { hazard.deallocate() }

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

    /// Records that the factory of `entry` is about to run.
    ///
    /// - Throws: `ResolutionError.cycle` when the same registration is already being constructed on this
    ///   thread, `.depthLimitExceeded` past ``maxDepth``.
    @usableFromInline
    func enter(_ entry: UnsafeRawPointer, _ key: ServiceKey) throws(ResolutionError) {
        try checkReentry(entry, key)
        if frames.count >= Self.maxDepth {
            throw ResolutionError(code: .depthLimitExceeded, key: key, path: frames.map(\.key) + [key])
        }
        frames.append(Frame(entry: entry, key: key))
    }

    /// Throws a cycle error when `entry` is already being constructed on this thread, unless property
    /// injection sits in between: an `initCompleted` step of a later frame may reach a registration whose
    /// factory is still running, once, as in Swinject (the factory runs again, and the instance made by that
    /// second run is the one the whole graph uses).
    ///
    /// - Returns: `true` when this is such an allowed re-entry.
    @usableFromInline @discardableResult
    func checkReentry(_ entry: UnsafeRawPointer, _ key: ServiceKey) throws(ResolutionError) -> Bool {
        guard let index = frames.firstIndex(where: { $0.entry == entry }) else { return false }
        let later = frames[(index + 1)...]
        if frames[index...].contains(where: \.completing), !later.contains(where: { $0.entry == entry }) {
            reentries += 1
            return true
        }
        let cycle = frames[index...].map(\.key) + [key]
        throw ResolutionError(code: .cycle, key: key, path: frames.map(\.key) + [key], cycle: cycle)
    }

    /// How many allowed re-entries happened in this graph; when non-zero, a factory's own result may have
    /// been superseded by the re-entrant one (see ``checkReentry(_:_:)``).
    @usableFromInline var reentries = 0

    /// Marks the innermost frame as running its `initCompleted` steps.
    @usableFromInline
    func markCompleting() { frames[frames.count - 1].completing = true }

    /// Records that the innermost factory finished (or failed); ends the graph when it was the outermost.
    @usableFromInline
    func leave() {
        frames.removeLast()
        if frames.isEmpty { endGraph() }
    }

    /// The keys being constructed, outermost first.
    @usableFromInline
    var path: [ServiceKey] { frames.map(\.key) }

    var isTopLevel: Bool { frames.isEmpty }

    /// Whether a graph-scoped instance made now could be asked for again in this graph: by a sibling
    /// (we are nested) or by a `Lazy` made in this graph. At top level with neither, storing it is wasted.
    @usableFromInline
    var graphIsObserved: Bool { frames.count > 1 || !graphHandles.isEmpty }

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
        for index in graph.indices.reversed() where graph[index].entry == entry {
            return graph[index].instance
        }
        return nil
    }

    @usableFromInline
    func storeGraphInstance(_ instance: Any, for entry: UnsafeRawPointer) {
        graph.append((entry, instance))
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
            let instances = graph
            for handle in graphHandles { handle.capture(instances) }
            graphHandles.removeAll(keepingCapacity: true)
        }
        graph.removeAll(keepingCapacity: true)
        reentries = 0
        if !touchedStorages.isEmpty {
            let storages = touchedStorages
            touchedStorages.removeAll(keepingCapacity: true)
            _Coordinator.shared.withLock { for storage in storages { storage.graphResolutionCompleted() } }
        }
        graphID = nil
    }

    /// Seeds an empty state with the instances of a finished graph (used by `Lazy`).
    func seed(from handle: _GraphHandle) {
        for (entry, object) in handle.liveInstances() { graph.append((entry, object)) }
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
        defer { if state.isTopLevel { state.graph.removeAll(keepingCapacity: true) } }
        return try body()
    }
}
