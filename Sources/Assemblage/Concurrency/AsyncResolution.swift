// The bookkeeping of asynchronous resolution: which async factories a task is inside (cycle detection and
// error paths), the graph-scoped instances of one top-level `resolveAsync`, and the once-creation of shared
// instances by tasks that await instead of blocking.
//
// Synchronous resolution keeps this state per thread (`_ResolutionState`); an async factory may resume on
// any thread, so here it is a task-local value, extended (never mutated) for each factory that runs.

/// The state an asynchronous resolution carries down its factories, bound to a task-local.
struct _AsyncContext: Sendable {
    /// Graph-scoped instances of the top-level resolution this task belongs to.
    let graph: _AsyncGraph
    /// The innermost async factory running in this task, if any.
    let frame: _AsyncFrame?

    /// The context of the asynchronous resolution the current task is inside, if any.
    @TaskLocal static var current: _AsyncContext?
}

/// One async factory being run: frames chain outwards through `parent`.
///
/// A frame outlives its factory when a task created inside the factory (`Task { }`) keeps the task-local;
/// such a frame is marked finished and ignored, so a late resolve from that task is not taken for a cycle.
final class _AsyncFrame: @unchecked Sendable {
    // @unchecked Sendable: everything is immutable except `finished`, an atomic word.
    /// The registration whose factory runs.
    let registration: any _AnyEntry
    /// Its identity.
    var entry: ObjectIdentifier { ObjectIdentifier(registration) }
    /// Its bit in a resolving thread's filter (`ServiceEntry.filterBit`).
    let filterBit: UInt
    let key: ServiceKey
    let parent: _AsyncFrame?
    /// The once-creation this factory performs (shared and graph scopes), or nil (transient).
    let creation: _AsyncCreation?
    private let finished = _AtomicWords(count: 1)

    init(
        registration: any _AnyEntry, filterBit: UInt, key: ServiceKey, parent: _AsyncFrame?,
        creation: _AsyncCreation?
    ) {
        self.registration = registration
        self.filterBit = filterBit
        self.key = key
        self.parent = parent
        self.creation = creation
    }

    deinit { finished.deallocate() }

    /// Marks the factory as returned (or failed).
    func finish() { finished.setFlag(0) }

    var isLive: Bool { !finished.isSet(0) }

    /// This frame and its ancestors that are still running, innermost first.
    var liveChain: [_AsyncFrame] {
        var chain: [_AsyncFrame] = []
        var next: _AsyncFrame? = self
        while let frame = next {
            if frame.isLive { chain.append(frame) }
            next = frame.parent
        }
        return chain
    }

    /// The key of a running factory whose instance outlives every scope, or nil (see
    /// `_ResolutionState.longLived`, its synchronous counterpart).
    func longLivedCreation() -> ServiceKey? {
        for frame in liveChain {
            switch frame.registration.objectScope.kind {
            case .container, .singleton, .multiton, .weak, .custom: return frame.key
            default: continue
            }
        }
        return nil
    }

    /// The keys of the running factories, outermost first: the async part of an error's path.
    var pathKeys: [ServiceKey] { liveChain.reversed().map(\.key) }

    /// A cycle error when `entry` is already being made by a factory in this chain.
    func cycle(reaching entry: ObjectIdentifier, key: ServiceKey) -> ResolutionError? {
        let chain = liveChain
        guard let index = chain.firstIndex(where: { $0.entry == entry }) else { return nil }
        let cycle = chain[...index].reversed().map(\.key) + [key]
        return ResolutionError(code: .cycle, key: key, path: chain.reversed().map(\.key) + [key], cycle: cycle)
    }
}

/// The graph-scoped instances of one top-level asynchronous resolution, shared by its tasks.
final class _AsyncGraph: @unchecked Sendable {  // @unchecked Sendable: `instances` is only touched under `lock`.
    private let lock = _Lock()
    private var instances: [ObjectIdentifier: Any] = [:]

    func instance(for entry: ObjectIdentifier) -> Any? { lock.withLock { instances[entry] } }

    /// Stores `instance` unless the graph already has one for `entry`; returns the one the graph keeps.
    func store(_ instance: Any, for entry: ObjectIdentifier) -> Any {
        lock.withLock {
            if let existing = instances[entry] { return existing }
            instances[entry] = instance
            return instance
        }
    }

    /// Adds the graph-scoped (and weak or custom-scoped) instances a synchronous step made; existing ones win.
    func merge(_ made: [_GraphItem]) {
        let kept = made.filter { item in
            let kind = (item.registration as! any _AnyEntry).objectScope.kind
            return kind != .container && kind != .singleton  // those live in their slot, which a reset clears
        }
        guard !kept.isEmpty else { return }
        lock.withLock {
            for item in kept where instances[item.entry] == nil { instances[item.entry] = item.instance }
        }
    }

    var snapshot: [(entry: ObjectIdentifier, instance: Any)] {
        lock.withLock { instances.map { ($0.key, $0.value) } }
    }
}

// MARK: - Once-creation across tasks

/// Identifies what is created once: a registration's shared instance, or its instance in one async graph.
struct _OnceKey: Hashable, Sendable {
    let graph: ObjectIdentifier?
    /// The entry's identity.
    let entry: ObjectIdentifier
}

/// One creation in progress. Its mutable state is guarded by the coordinator's lock.
final class _AsyncCreation: @unchecked Sendable {  // @unchecked Sendable: mutable state only under the lock.
    let key: ServiceKey
    /// The creation this one runs inside (it waits for this one), if any.
    let enclosing: _AsyncCreation?
    /// Tasks waiting for this creation to end.
    var waiters: [CheckedContinuation<Void, Never>] = []
    /// Creations that this one waits for: nested creations and creations its tasks await (a multiset).
    var waitsFor: [_AsyncCreation] = []
    var ended = false

    init(key: ServiceKey, enclosing: _AsyncCreation?) {
        self.key = key
        self.enclosing = enclosing
    }
}

/// Makes sure an async registration's shared (or graph) instance is created once, however many tasks ask,
/// and turns waits that would never end into cycle errors.
///
/// The first task to ask runs the factory in its own task; later ones suspend on a continuation (no thread
/// is blocked) until that creation ends, then look again: they find the instance, or (when the creation
/// failed) one of them tries again. Before suspending, a task follows the creations the owner waits for; if
/// they lead back to a creation this task is inside, waiting would never end, and it throws `.cycle`.
final class _AsyncCoordinator: @unchecked Sendable {  // @unchecked Sendable: all state is guarded by `lock`.
    static let shared = _AsyncCoordinator()

    private let lock = _Lock()
    private var inFlight: [_OnceKey: _AsyncCreation] = [:]

    private enum Decision<T> {
        case ready(T)
        case create(_AsyncCreation)
        case wait(_AsyncCreation, edgeFrom: _AsyncCreation?)
    }

    /// Returns the instance `isReady` finds, or makes it with `create` exactly once among concurrent callers.
    ///
    /// `isReady` is evaluated under the coordinator's lock; `create` must have made the instance findable by
    /// `isReady` before it returns.
    func once<T>(
        _ once: _OnceKey, key: ServiceKey, frame: _AsyncFrame?, isReady: () -> T?,
        create: (_AsyncCreation) async throws(ResolutionError) -> T
    ) async throws(ResolutionError) -> T {
        while true {
            switch try begin(once, key: key, frame: frame, isReady: isReady) {
            case .ready(let value):
                return value
            case .wait(let owner, let edge):
                await wait(for: owner)
                if let edge { lock.withLock { edge.removeWait(for: owner) } }
            case .create(let creation):
                do {
                    let value = try await create(creation)
                    end(once, creation)
                    return value
                } catch {
                    end(once, creation)
                    throw error
                }
            }
        }
    }

    private func begin<T>(
        _ once: _OnceKey, key: ServiceKey, frame: _AsyncFrame?,
        isReady: () -> T?
    ) throws(ResolutionError) -> Decision<T> {
        lock.lock()
        defer { lock.unlock() }
        if let ready = isReady() { return .ready(ready) }
        let frames = frame?.liveChain ?? []
        let mine = frames.compactMap(\.creation).filter { !$0.ended }
        if let owner = inFlight[once] {
            if let chain = waitChain(from: owner, to: mine) {
                // We are inside `reached` (frames up to `index`), wait for `owner`, which waits … for `reached`.
                let index = frames.firstIndex { $0.creation === chain.last! } ?? frames.count - 1
                let cycle = frames[...index].reversed().map(\.key) + chain.map(\.key)
                throw ResolutionError(code: .cycle, key: key, path: frames.reversed().map(\.key) + [key], cycle: cycle)
            }
            mine.first?.waitsFor.append(owner)
            return .wait(owner, edgeFrom: mine.first)
        }
        let creation = _AsyncCreation(key: key, enclosing: mine.first)
        mine.first?.waitsFor.append(creation)
        inFlight[once] = creation
        return .create(creation)
    }

    /// The creations from `owner` (following what each waits for) to one of `targets`, or nil.
    private func waitChain(from owner: _AsyncCreation, to targets: [_AsyncCreation]) -> [_AsyncCreation]? {
        guard !targets.isEmpty else { return nil }
        let goal = Set(targets.map(ObjectIdentifier.init))
        var visited = Set<ObjectIdentifier>()
        var stack: [[_AsyncCreation]] = [[owner]]
        while let chain = stack.popLast() {
            let node = chain.last!
            if goal.contains(ObjectIdentifier(node)) { return chain }
            guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
            for next in node.waitsFor where !next.ended { stack.append(chain + [next]) }
        }
        return nil
    }

    /// Suspends until `creation` has ended (returns at once if it already has).
    private func wait(for creation: _AsyncCreation) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = lock.withLock {
                if creation.ended { return true }
                creation.waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    private func end(_ once: _OnceKey, _ creation: _AsyncCreation) {
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            if inFlight[once] === creation { inFlight[once] = nil }
            creation.ended = true
            creation.enclosing?.removeWait(for: creation)
            defer { creation.waiters = [] }
            return creation.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

extension _AsyncCreation {
    /// Removes one "waits for `other`" edge (under the coordinator's lock).
    fileprivate func removeWait(for other: _AsyncCreation) {
        if let index = waitsFor.firstIndex(where: { $0 === other }) { waitsFor.remove(at: index) }
    }
}
