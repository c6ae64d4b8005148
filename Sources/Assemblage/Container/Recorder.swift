/// Records what a validation sandbox resolves: each lookup (which entry asked for which) and each failure.
final class _Recorder: @unchecked Sendable {  // @unchecked: every property is guarded by `lock`.
    struct Edge: Hashable {
        /// The entry whose factory made the lookup (its address), or nil at top level.
        let from: UInt?
        /// The entry found.
        let to: UInt
        let key: ServiceKey
    }
    private let lock = _Lock()
    private var edgeList: [Edge] = []
    private var seen: Set<Edge> = []
    private var failureList: [ResolutionError] = []

    var edges: [Edge] { lock.withLock { edgeList } }
    var failures: [ResolutionError] { lock.withLock { failureList } }
    var edgeCount: Int { lock.withLock { edgeList.count } }

    func recordLookup(of key: ServiceKey, found: ObjectIdentifier) {
        let parent = _ResolutionState.existing?.currentEntry
        let edge = Edge(from: parent, to: UInt(bitPattern: found), key: key)
        lock.withLock { if seen.insert(edge).inserted { edgeList.append(edge) } }
    }

    /// Records an edge to a collection element, which is resolved without a lookup.
    func recordElement(_ element: AnyObject, key: ServiceKey) {
        recordLookup(of: key, found: ObjectIdentifier(element))
    }

    func recordFailure(_ error: ResolutionError) {
        lock.withLock { failureList.append(error) }
    }

    /// The keys resolved at top level since `mark` (a number of edges).
    func topLevelKeys(since mark: Int) -> [ServiceKey] {
        lock.withLock { edgeList[mark...].filter { $0.from == nil }.map(\.key) }
    }
}
