public import _AssemblageShims

/// The state of the resolutions running on one thread: the factories being run (for cycle detection and
/// error paths) and the graph-scoped instances of the current top-level resolution.
///
/// A graph normally lives exactly as long as its top-level resolution. It outlives it when it is *held*: by a
/// ``Container/withObjectGraph(_:closure:)`` scope, across the resolutions of its closure, or by a restore
/// (`Container.restoreObjectGraph`), until the next resolution (see ResolutionState+GraphIdentity.swift).
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
    /// set while that entry's `initCompleted` steps run with its instance already in the graph (see
    /// ``checkReentry(_:bit:)``). A raw buffer: pushing a frame is two stores.
    @exclusivity(unchecked) @usableFromInline var frames: UnsafeMutablePointer<UInt>
    /// ``_AsyncLongLived``'s count of running async factories of longer-lived registrations (the one shared
    /// object, held here so that reading it costs no `swift_once`).
    @usableFromInline let asyncLongLived = _AsyncLongLived.word
    /// For each frame, ``activeMask`` as it was before the frame was pushed (restored when it is popped).
    @exclusivity(unchecked) @usableFromInline var savedMasks: UnsafeMutablePointer<UInt>
    @exclusivity(unchecked) @usableFromInline var frameCapacity = 32
    @exclusivity(unchecked) @usableFromInline var depth = 0
    /// A 64-bit filter of the entries in ``frames`` (one bit per entry, `ServiceEntry.filterBit`): an entry whose
    /// bit is clear is certainly not being constructed, so entering it needs no scan for a cycle.
    @exclusivity(unchecked) @usableFromInline var activeMask: UInt = 0
    /// Graph-scoped instances of the current top-level resolution: entry addresses in one raw buffer (scanned
    /// without touching a reference count), the instances at the same index in another.
    @exclusivity(unchecked) @usableFromInline var graphEntries: UnsafeMutablePointer<ObjectIdentifier>
    @exclusivity(unchecked) @usableFromInline var graphInstances: UnsafeMutablePointer<Any>
    @exclusivity(unchecked) @usableFromInline var graphCapacity = 16
    @exclusivity(unchecked) @usableFromInline var graphCount = 0
    /// The same kind of filter over ``graphEntries``: a graph-scoped entry whose bit is clear has no instance
    /// in this graph yet, so the common miss costs one test instead of a scan.
    @exclusivity(unchecked) @usableFromInline var graphMask: UInt = 0
    /// Whether the graph's instances are wanted after its top-level resolution: a `Lazy` made in it holds a
    /// handle (see ``graphHandles``), or its identifier was handed out (see ``isIdentified``). Every graph-scoped
    /// instance is then stored, also the top-level one, and ending the graph takes the out-of-line path.
    @exclusivity(unchecked) @usableFromInline var keepsGraph = false
    /// Whether ending the current top-level resolution has more to do than find an empty graph: set when a
    /// `Lazy` handle, a custom storage, a graph identifier or an allowed re-entry joins it.
    @exclusivity(unchecked) @usableFromInline var graphHasExtras = false
    /// Custom storages touched in this top-level resolution; told when it completes.
    @exclusivity(unchecked) var touchedStorages: [any InstanceStorage] = [] {
        didSet { graphHasExtras = true }
    }
    /// Minted on demand for custom storages, `Lazy` handles and ``Container/currentObjectGraph``; or the
    /// identifier of a restored or scoped graph.
    @exclusivity(unchecked) var graphID: GraphIdentifier?
    /// Whether ``graphID`` was handed out (or given, by a restore or a scope): the graph's instances are
    /// remembered under it in ``_GraphRegistry`` when it ends, so that it can be restored.
    @exclusivity(unchecked) var isIdentified = false
    /// Whether a ``Container/withObjectGraph(_:closure:)`` scope holds this graph open across top-level
    /// resolutions.
    @exclusivity(unchecked) var graphIsScoped = false
    /// Whether this graph was restored for the next top-level resolution, which has not ended yet.
    @exclusivity(unchecked) var restorePending = false
    /// The registrations of the graph's entries, retained while the graph is held outside a read section (a
    /// freed registration's address could be reused by another, which would then find this graph's instance).
    @exclusivity(unchecked) var graphAnchors: [AnyObject] = []
    /// How many of the graph's entries, from the first, are in ``graphAnchors``.
    @exclusivity(unchecked) var anchoredCount = 0
    /// Handles of `Lazy` values created in this resolution; they receive the graph when it ends.
    @exclusivity(unchecked) var graphHandles: [_GraphHandle] = []
    /// How many allowed re-entries happened in this graph; when non-zero, a factory's own result may have
    /// been superseded by the re-entrant one (see ``checkReentry(_:bit:)``).
    @exclusivity(unchecked) @usableFromInline var reentries = 0
    /// This thread's section block (see ``_Reclaimer``): the epoch its open read section announced (or 0),
    /// then its hazard word (the shared-instance box it is copying an instance out of, or nil).
    let section: UnsafeMutableRawPointer
    /// Calls into resolvers of the user's own that are in progress on this thread (see `_foreignResolve`).
    var foreignCalls: [_ForeignCall] = []
    /// The registrations whose longer-lived instance (`.container`, `.singleton`, `.multiton`, `.weak`,
    /// custom) this thread is making now, innermost last: a `.scoped` instance made meanwhile would be captured.
    @exclusivity(unchecked) @usableFromInline var longLived: [ObjectIdentifier] = []

    /// Resolutions deeper than this fail with `depthLimitExceeded` instead of exhausting the stack.
    static let maxDepth = 1_500

    init() {
        section = .allocate(byteCount: 16, alignment: 8)
        section.storeBytes(of: UInt64(0), as: UInt64.self)
        (section + 8).storeBytes(of: UInt(0), as: UInt.self)
        frames = .allocate(capacity: frameCapacity)
        savedMasks = .allocate(capacity: frameCapacity)
        graphEntries = .allocate(capacity: graphCapacity)
        graphInstances = .allocate(capacity: graphCapacity)
    }

    deinit {
        clearGraph()
        graphEntries.deallocate()
        graphInstances.deallocate()
        frames.deallocate()
        savedMasks.deallocate()
        section.deallocate()
    }

    /// The calling thread's state, created on first use.
    @inlinable @inline(__always)
    static var current: UnsafeMutableRawPointer {
        if let state = _asm_thread_state() { return state }
        return makeCurrent()
    }

    @usableFromInline @inline(never)
    static func makeCurrent() -> UnsafeMutableRawPointer {
        let state = _ResolutionState()
        let pointer = Unmanaged.passRetained(state).toOpaque()
        _Reclaimer.register(section: state.section)
        _asm_set_thread_state(pointer, state.section) { raw in
            let state = Unmanaged<_ResolutionState>.fromOpaque(raw).takeRetainedValue()
            _Reclaimer.unregister(section: state.section)
        }
        return pointer
    }

    /// The calling thread's read-section word, creating the thread's state on first use.
    @usableFromInline @inline(never)
    static var currentSection: UnsafeMutableRawPointer {
        if let section = _asm_thread_section() { return section }
        return Unmanaged<_ResolutionState>.fromOpaque(makeCurrent()).takeUnretainedValue().section
    }

    // MARK: Frames

    @usableFromInline static var completingBit: UInt { 1 }

    /// The bit of `entry` in ``graphMask``: the top six bits of the address times a 64-bit odd constant
    /// (Fibonacci hashing), since graph instances are kept, and restored, by address alone. (``activeMask`` and
    /// a scope's filter take the entry's own bit, `ServiceEntry.filterBit`, which does not depend on where the heap
    /// put the entry: with address bits, which of a chain's entries shared one, each sharing costing a scan,
    /// changed with every change to what the process allocates, and so did the instruction counts.)
    @inlinable @inline(__always)
    static func filterBit(_ entry: ObjectIdentifier) -> UInt {
        1 &<< ((UInt(bitPattern: entry) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }

    @inline(__always)
    private func frameEntry(_ index: Int) -> UInt { frames[index] & ~Self.completingBit }

    /// Records that the factory of `entry` is about to run.
    ///
    /// The common case is a test of the filter and three stores; a scan for a cycle runs only when the
    /// entry's filter bit is already set (it may be being constructed), growth only when the buffer is full.
    ///
    /// - Throws: `ResolutionError.cycle` when the same registration is already being constructed on this
    ///   thread (and no property injection sits in between), `.depthLimitExceeded` past ``maxDepth``.
    /// - Returns: `true` when the thread's stack is nearly used up, so the factory must run on a thread with
    ///   room (checked before every factory, from the first: an inline comparison of the frame address with
    ///   the thread's limit, so that threads with small stacks are protected too).
    @inlinable @inline(__always) @discardableResult
    func enter(_ entry: ObjectIdentifier, bit: UInt) throws(ResolutionError) -> Bool {
        if activeMask & bit != 0 || depth == frameCapacity { try enterChecked(entry) }
        frames[depth] = UInt(bitPattern: entry)
        savedMasks[depth] = activeMask
        activeMask |= bit
        depth &+= 1
        return _asm_stack_is_low()
    }

    /// The rare part of ``enter(_:bit:)``: the scan for a cycle and the growth of the frame buffers.
    @usableFromInline @inline(never)
    func enterChecked(_ entry: ObjectIdentifier) throws(ResolutionError) {
        if depth > 0 { try scanForReentry(entry) }
        if depth == frameCapacity { try grow(for: entry) }
    }

    @inline(never)
    private func grow(for entry: ObjectIdentifier) throws(ResolutionError) {
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
        let masks = UnsafeMutablePointer<UInt>.allocate(capacity: capacity)
        masks.moveInitialize(from: savedMasks, count: depth)
        savedMasks.deallocate()
        savedMasks = masks
        frameCapacity = capacity
    }

    /// Throws a cycle error when `entry` is already being constructed on this thread, unless property
    /// injection sits in between: when, above the innermost frame of `entry`, a graph-stored instance is
    /// running its `initCompleted` steps, the factory of `entry` may run again, as in Swinject (the instance
    /// made by that later run is the one the whole graph uses, see `_finishEntered`).
    ///
    /// Only a step of an instance already in the graph counts: that instance is never made again in this
    /// graph, so each such step opens at most one more round of re-entries, and a registration repeated
    /// with no such step between its frames is a real cycle (of initialisers, or of transient steps that
    /// would make new instances forever). The stack therefore stays bounded: at most one stored step per
    /// registration, and between two of them each registration at most once.
    ///
    /// - Returns: `true` when this is such an allowed re-entry.
    @inlinable @inline(__always) @discardableResult
    func checkReentry(_ entry: ObjectIdentifier, bit: UInt) throws(ResolutionError) -> Bool {
        if activeMask & bit == 0 { return false }
        return try scanForReentry(entry)
    }

    /// ``checkReentry(_:bit:)`` after the filter: scans the frames from the innermost outwards to the innermost
    /// frame of `entry`. The cycle reported is the one from that frame: the repetition that nothing closed.
    @usableFromInline @discardableResult
    func scanForReentry(_ entry: ObjectIdentifier) throws(ResolutionError) -> Bool {
        let target = UInt(bitPattern: entry)
        var index = depth
        var closed = false
        while index > 0 {
            index &-= 1
            if frameEntry(index) == target {
                if closed {
                    reentries &+= 1
                    graphHasExtras = true
                    return true
                }
                let key = Self.key(of: target)
                let cycle = (index..<depth).map { Self.key(of: frameEntry($0)) } + [key]
                throw ResolutionError(code: .cycle, key: key, path: path + [key], cycle: cycle)
            }
            if frames[index] & Self.completingBit != 0 { closed = true }
        }
        return false  // the filter's false positive: not being constructed
    }

    /// Marks the innermost frame as running its `initCompleted` steps with its instance stored in the graph.
    @inlinable @inline(__always)
    func markCompleting() { frames[depth &- 1] |= Self.completingBit }

    /// Records that the innermost factory finished (or failed); ends the graph when it was the outermost.
    @inlinable @inline(__always)
    func leave() {
        depth &-= 1
        activeMask = savedMasks[depth]
        if depth == 0, graphCount != 0 || graphHasExtras { endGraph() }
    }

    /// The keys being constructed, outermost first (rebuilt from the entries: only errors need it).
    @usableFromInline
    var path: [ServiceKey] { (0..<depth).map { Self.key(of: frameEntry($0)) } }

    /// The path being resolved on this thread, ending with `key` (for an error a factory throws about its own
    /// registration, `key`, which is the innermost frame then). Inside an async resolution, the async factories
    /// around it are put in front where the error leaves the synchronous step (see `_syncStep`).
    static func pathOnThisThread(to key: ServiceKey) -> [ServiceKey] {
        var path = _ResolutionState.existing?.path ?? []
        if path.last != key { path.append(key) }
        return path
    }

    /// The entry whose factory is innermost on this thread, if any.
    var currentEntry: UInt? { depth > 0 ? frameEntry(depth - 1) : nil }

    static func key(of entry: UInt) -> ServiceKey {
        let object = _object(assumingAlive: unsafeBitCast(entry, to: ObjectIdentifier.self))
        return (object as! any _AnyEntry).key
    }

    var isTopLevel: Bool { depth == 0 }

    /// Whether the graph outlives the current top-level resolution: scoped or restored.
    var graphIsHeld: Bool { graphIsScoped || restorePending }

    /// Whether a graph-scoped instance made now could be asked for again in this graph: by a sibling
    /// (we are nested), by a `Lazy` made in this graph, or after the graph ends, under its identifier. At top
    /// level with none of these, storing it is wasted.
    @inlinable @inline(__always)
    var graphIsObserved: Bool { depth > 1 || keepsGraph }

    /// The error for a factory (or step) that threw: a `ResolutionError` from deeper down passes through
    /// unchanged (it has the longer path); anything else is wrapped with this key and path.
    @usableFromInline
    func factoryFailure(_ error: any Error, _ key: ServiceKey) -> ResolutionError {
        if let resolution = error as? ResolutionError { return resolution }
        return ResolutionError(code: .factoryFailed, key: key, path: path, underlying: error)
    }

    // MARK: Graph

    /// Whether the graph may hold an instance of `entry` (when `false`, it certainly does not).
    @inlinable @inline(__always)
    func graphMayHold(_ entry: ObjectIdentifier) -> Bool { graphMask & Self.filterBit(entry) != 0 }

    /// The instance of `entry` in this graph, if any.
    ///
    /// Found at top level, it is the whole resolution: a restored graph has then served its one resolution.
    @usableFromInline
    func graphInstance(_ entry: ObjectIdentifier) -> Any? {
        guard graphMayHold(entry) else { return nil }
        var index = graphCount
        while index > 0 {
            index &-= 1
            if graphEntries[index] == entry {
                let instance = graphInstances[index]
                if depth == 0, restorePending { endGraph() }
                return instance
            }
        }
        return nil
    }

    /// Stores an instance of `entry` in this graph (generic, so that the conversion to `Any` specialises).
    @inlinable @inline(__always)
    func storeGraphInstance<T>(_ instance: T, for entry: ObjectIdentifier) {
        nextGraphSlot(for: entry).initialize(to: instance)
    }

    /// Stores an instance that is already an `Any` (seeding a graph from a `Lazy` or an async resolution),
    /// as it is rather than wrapped in another `Any`.
    func storeGraphInstance(_ instance: Any, for entry: ObjectIdentifier) {
        nextGraphSlot(for: entry).initialize(to: instance)
    }

    /// Records `entry` in the graph and returns the uninitialised slot for its instance.
    @inlinable @inline(__always)
    func nextGraphSlot(for entry: ObjectIdentifier) -> UnsafeMutablePointer<Any> {
        if graphCount == graphCapacity { growGraph() }
        graphEntries[graphCount] = entry
        graphMask |= Self.filterBit(entry)
        defer { graphCount &+= 1 }
        return graphInstances + graphCount
    }

    /// Replaces the instance stored for `entry` (the most recent one), e.g. with its decorated version.
    func replaceGraphInstance(_ instance: consuming Any, for entry: ObjectIdentifier) {
        var index = graphCount
        while index > 0 {
            index &-= 1
            if graphEntries[index] == entry {
                graphInstances[index] = instance
                return
            }
        }
    }

    @usableFromInline @inline(never)
    func growGraph() {
        let entries = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: graphCapacity * 2)
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
        graphMask = 0
        anchoredCount = 0
        withUnsafeTemporaryAllocation(of: Any.self, capacity: count) { buffer in
            let moved = buffer.baseAddress!
            moved.moveInitialize(from: graphInstances, count: count)
            moved.deinitialize(count: count)
        }
    }

    /// The graph's instances with their registrations (retained: each is alive while the graph holds it, in
    /// its read section or anchored), for `Lazy` handles, the registry and an async resolution.
    var graphSnapshot: [_GraphItem] {
        (0..<graphCount).map {
            _GraphItem(
                entry: graphEntries[$0], registration: _object(assumingAlive: graphEntries[$0]),
                instance: graphInstances[$0])
        }
    }

    @usableFromInline
    var currentGraphID: GraphIdentifier {
        if let graphID { return graphID }
        let id = GraphIdentifier()
        graphID = id
        graphHasExtras = true
        return id
    }

    /// A handle that will hold this graph's instances (weakly) after it ends, for `Lazy`.
    func makeGraphHandle() -> _GraphHandle {
        let handle = _GraphHandle(graphID: currentGraphID)
        graphHandles.append(handle)
        keepsGraph = true
        graphHasExtras = true
        return handle
    }

    /// Ends the graph: drops its instances, tells the custom storages it touched, forgets its identifier.
    @usableFromInline
    func endGraph() {
        if keepsGraph { return endKeptGraph() }
        clearGraph()
        finishGraph()
    }

    /// The end of every graph after its instances are dropped.
    func finishGraph() {
        reentries = 0
        if !touchedStorages.isEmpty {
            let storages = touchedStorages
            touchedStorages.removeAll(keepingCapacity: true)
            let graph = graphID
            _Coordinator.shared.withLock { for storage in storages { storage._finishGraph(graph) } }
        }
        graphID = nil
        graphHasExtras = false
    }
}

/// A graph's instance with its registration.
struct _GraphItem {
    /// The registration's identity.
    let entry: ObjectIdentifier
    /// The registration.
    let registration: AnyObject
    let instance: Any
}
