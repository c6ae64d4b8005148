/// One class instance of a finished graph, held weakly with its registration.
struct _WeakGraphInstance {
    let entry: ObjectIdentifier
    /// The registration, weakly: replaced registrations are freed, and a freed one's address could be reused by
    /// another registration, whose graph slot would then receive this instance. (Held strongly, it would make a
    /// cycle through a shared instance that holds a `Lazy`.)
    weak var registration: AnyObject?
    weak var object: AnyObject?

    /// The class instances of `graph`, weakly. The caller keeps the entries alive: it is inside the graph's read
    /// section, or the graph's registrations are anchored.
    static func capture(_ graph: [_GraphItem]) -> [_WeakGraphInstance] {
        graph.compactMap { item in
            guard type(of: item.instance) is AnyClass else { return nil }
            return _WeakGraphInstance(
                entry: item.entry,
                registration: item.registration,
                object: item.instance as AnyObject)
        }
    }

    /// The instance with its registration, both retained, while both are alive.
    var live: _LiveGraphInstance? {
        guard let registration, let object else { return nil }
        return _LiveGraphInstance(entry: entry, registration: registration, object: object)
    }

    var isAlive: Bool { registration != nil && object != nil }
}

/// A remembered instance that is still alive, retained with its registration (which keeps the entry address
/// unique while the caller seeds a graph with it).
struct _LiveGraphInstance {
    let entry: ObjectIdentifier
    let registration: AnyObject
    let object: AnyObject
}

/// Keeps the class instances of a finished graph, weakly, so that a `Lazy` made in that graph resolves
/// into it later (as in Swinject).
final class _GraphHandle: @unchecked Sendable {  // @unchecked: `instances` is only touched under `lock`.
    /// The graph's identifier, which the `Lazy` resolves under.
    let graphID: GraphIdentifier?
    private let lock = _Lock()
    private var instances: [_WeakGraphInstance] = []

    init(graphID: GraphIdentifier?) { self.graphID = graphID }

    func capture(_ graph: [_GraphItem]) {
        let weak = _WeakGraphInstance.capture(graph)
        lock.withLock { instances = weak }
    }

    func liveInstances() -> [_LiveGraphInstance] {
        lock.withLock { instances.compactMap(\.live) }
    }
}

/// The graphs whose identifier was handed out, with their class instances held weakly, so that
/// ``Container/withObjectGraph(_:closure:)`` and `restoreObjectGraph` find the instances of an earlier graph
/// still alive, as Swinject's graph storage does.
///
/// Only identified graphs come here (see ResolutionState+GraphIdentity.swift). The table is bounded by the
/// graphs that still have a live instance: a graph with no class instance is never added; a lookup that finds
/// nothing alive drops its entry; and whenever the table has doubled since it was last swept (and holds at least
/// ``minimumSweep`` graphs), the graphs whose instances have all gone are dropped. So it holds at most twice as
/// many graphs as have live instances, or ``minimumSweep``.
///
/// Weak references are read outside the lock: reading one makes a strong reference, and if another thread drops
/// the last other one meanwhile, the instance's `deinit` runs where that strong reference ends, and may resolve
/// and end an identified graph, which comes back here. Each graph's record carries a version, so that a record
/// found dead outside the lock is dropped only if nobody wrote it since.
final class _GraphRegistry: @unchecked Sendable {  // @unchecked: every property but `lock` is only touched under it.
    static let shared = _GraphRegistry()
    /// The size below which the table is never swept.
    static let minimumSweep = 64

    private struct Record {
        let version: UInt64
        let instances: [_WeakGraphInstance]
    }

    private let lock = _Lock()
    private var graphs: [GraphIdentifier: Record] = [:]
    private var version: UInt64 = 0
    private var sweepAt = minimumSweep

    /// Remembers the class instances of `graph`, which just ended, under `identifier`; what was remembered for it
    /// before and is still alive stays, unless the graph has an instance of the same registration. (When two
    /// threads end graphs of the same identifier at once, one of them may lose the other's instances.)
    func remember(_ graph: [_GraphItem], of identifier: GraphIdentifier) {
        let captured = _WeakGraphInstance.capture(graph)
        let earlier = lock.withLock { graphs[identifier]?.instances } ?? []
        let entries = Set(captured.map(\.entry))
        let instances = captured + earlier.filter { !entries.contains($0.entry) && $0.isAlive }
        let swept: [GraphIdentifier: Record]? = lock.withLock {
            version &+= 1
            graphs[identifier] = instances.isEmpty ? nil : Record(version: version, instances: instances)
            guard graphs.count >= sweepAt else { return nil }
            sweepAt = Int.max  // one sweep at a time
            return graphs
        }
        if let swept { sweep(swept) }
    }

    /// The live instances remembered for `identifier`; a record with none left is dropped.
    func liveInstances(of identifier: GraphIdentifier) -> [_LiveGraphInstance] {
        guard let record = lock.withLock({ graphs[identifier] }) else { return [] }
        let live = record.instances.compactMap(\.live)
        if live.isEmpty { drop([identifier: record.version]) }
        return live
    }

    /// How many graphs are remembered (tests and diagnostics).
    var count: Int { lock.withLock { graphs.count } }

    /// Whether anything is remembered for `identifier` (tests and diagnostics).
    func remembers(_ identifier: GraphIdentifier) -> Bool { lock.withLock { graphs[identifier] != nil } }

    /// Drops, from a copy of the table, the graphs with no live instance, and sets the next sweep.
    private func sweep(_ table: [GraphIdentifier: Record]) {
        var dead: [GraphIdentifier: UInt64] = [:]
        for (identifier, record) in table where !record.instances.contains(where: \.isAlive) {
            dead[identifier] = record.version
        }
        drop(dead)
        lock.withLock { sweepAt = max(Self.minimumSweep, graphs.count * 2) }
    }

    /// Drops the records named, unless they were written since their version was read.
    private func drop(_ dead: [GraphIdentifier: UInt64]) {
        guard !dead.isEmpty else { return }
        lock.withLock {
            for (identifier, version) in dead where graphs[identifier]?.version == version {
                graphs[identifier] = nil
            }
        }
    }
}
