// A container's fallback list, searched in order after its own table, and the index that answers for the first
// containers of a list at once.

/// The containers a container falls back to, published as one immutable value.
///
/// Adding a fallback publishes a new list that shares append-only storage with the one it replaces, so n
/// `addFallback` calls cost O(n) time and memory in all. A list may also end with another container's list,
/// shared (`tail`): a module's scope falls back to its own dependencies' exports, then to its last
/// dependency's list, so a chain of n modules holds n short lists instead of n lists of up to n containers.
@usableFromInline
final class _Fallbacks: @unchecked Sendable {
    // @unchecked Sendable: what readers use is immutable (its storage is append-only); `held` is used and
    // changed only under the owning container's lock.
    /// The containers of this list before its tail, in order (holds them while the list is current; emptied
    /// under the owner's lock when a successor replaces it, see ``disownContainers()``).
    private var held: _AppendOnlyList<Container>
    /// The same containers, unretained, so that a lookup touches no reference count.
    private let unretained: _AppendOnlyList<Unmanaged<Container>>
    /// The list searched after this one's own containers (shared with another container), if any.
    let tail: _Fallbacks?
    /// `tail`, unretained (this list holds it).
    private let unretainedTail: Unmanaged<_Fallbacks>?
    /// An index standing for the first `indexedCount` containers (a module assembler's exports): one probe
    /// answers for all of them, so a root over n modules does not probe n tables.
    let index: _FallbackIndex?
    let indexedCount: Int
    /// `index`, unretained (this list holds it), so that a lookup touches no reference count.
    private let unretainedIndex: Unmanaged<_FallbackIndex>?

    private init(
        held: _AppendOnlyList<Container>, unretained: _AppendOnlyList<Unmanaged<Container>>,
        index: _FallbackIndex?, indexedCount: Int, tail: _Fallbacks?
    ) {
        precondition(tail?.index == nil, "a shared tail has no fallback index")
        self.held = held
        self.unretained = unretained
        self.tail = tail
        unretainedTail = tail.map { Unmanaged.passUnretained($0) }
        self.index = index
        self.indexedCount = index == nil ? 0 : indexedCount
        unretainedIndex = index.map { Unmanaged.passUnretained($0) }
    }

    /// The first list: `containers`, the first `indexedCount` of them answered for by `index`, then `tail`.
    convenience init(
        _ containers: [Container], index: _FallbackIndex? = nil, indexedCount: Int = 0,
        tail: _Fallbacks? = nil
    ) {
        self.init(
            held: _AppendOnlyList().appending(contentsOf: containers),
            unretained: _AppendOnlyList().appending(contentsOf: containers.map { Unmanaged.passUnretained($0) }),
            index: index, indexedCount: indexedCount, tail: tail)
    }

    /// This list with `added` after its containers (writers only, under the owning container's lock). A list
    /// that ends with a shared tail is copied whole first, since the tail must stay last.
    func appending(_ added: [Container]) -> _Fallbacks {
        guard tail == nil else { return _Fallbacks(containers + added, index: index, indexedCount: indexedCount) }
        return _Fallbacks(
            held: held.appending(contentsOf: added),
            unretained: unretained.appending(contentsOf: added.map { Unmanaged.passUnretained($0) }),
            index: index, indexedCount: indexedCount, tail: nil)
    }

    /// Gives up this list's hold on its containers once a successor replaced it (writers only, under the owning
    /// container's lock): the successor holds every one of them, and a retired list that kept the shared
    /// storage would keep alive every container appended to it later, until the reclaimer frees the list.
    /// Readers use the unretained list and its own storage, which stay valid.
    ///
    /// A list another container's list ends with (a module's, see ``isSharedAsTail``) keeps its hold: it may
    /// outlive its owner's interest in it.
    func disownContainers() {
        guard !isSharedAsTail else { return }
        held = _AppendOnlyList()
    }

    /// Set (under the owning container's lock) when another container's list ends with this one.
    var isSharedAsTail = false

    /// This list's own containers, before its tail.
    var own: [Container] { held.array }

    /// Every container, in order: its own, then its tail's (O(n): diagnostics and configuration only).
    var containers: [Container] {
        var result = held.array
        var next = tail
        while let list = next {
            result += list.held.array
            next = list.tail
        }
        return result
    }

    /// Searches the fallback graph below one container for `key`: depth-first, in order, each container once
    /// (a container reached again through another path was already searched), iteratively.
    ///
    /// A chain of single parents — the common shape — is walked with no bookkeeping; the first list with
    /// more than one container switches to a walk with an explicit stack and a visited set.
    ///
    /// - Complexity: O(containers + fallback links) probes.
    @usableFromInline
    static func search(_ first: Unmanaged<_Fallbacks>, _ key: ServiceKey) -> UnsafeMutableRawPointer? {
        var list = first
        while true {
            let single = list._withUnsafeGuaranteedRef {
                $0.unretainedIndex == nil && $0.unretainedTail == nil && $0.unretained.count == 1
            }
            guard single else { return searchBranching(list, key) }
            let container = list._withUnsafeGuaranteedRef { $0.unretained[0] }
            if let entry = container._withUnsafeGuaranteedRef({ $0._findOwn(key) }) { return entry }
            guard let next = container._withUnsafeGuaranteedRef({ $0.words.loadAcquire(1) }) else { return nil }
            list = Unmanaged<_Fallbacks>.fromOpaque(next)
        }
    }

    /// The outcome of a search with a budget.
    private enum Outcome {
        case found(UnsafeMutableRawPointer)
        case missed
        case exhausted
    }

    /// A graph with branches: first depth-first with no bookkeeping while at most 64 containers are probed (a
    /// container reached twice is probed twice, harmless for a miss and never changing which entry is found
    /// first), which covers module scopes and ordinary hierarchies with no allocation; past that, the walk with
    /// a visited set, linear at any size.
    @inline(never)
    private static func searchBranching(_ first: Unmanaged<_Fallbacks>, _ key: ServiceKey) -> UnsafeMutableRawPointer? {
        var budget = 64
        switch searchBudgeted(first, key, &budget) {
        case .found(let entry): return entry
        case .missed: return nil
        case .exhausted: return searchVisited(first, key)
        }
    }

    /// Depth-first, in order, while `budget` lasts; recursion is at most `budget` deep.
    private static func searchBudgeted(
        _ first: Unmanaged<_Fallbacks>, _ key: ServiceKey,
        _ budget: inout Int
    ) -> Outcome {
        var current: Unmanaged<_Fallbacks>? = first
        while let list = current {
            let (count, start, index, tail) = list._withUnsafeGuaranteedRef {
                ($0.unretained.count, $0.indexedCount, $0.unretainedIndex, $0.unretainedTail)
            }
            if let index, let entry = index._withUnsafeGuaranteedRef({ $0.find(key) }) { return .found(entry) }
            for position in start..<count {
                budget -= 1
                if budget < 0 { return .exhausted }
                let container = list._withUnsafeGuaranteedRef { $0.unretained[position] }
                if let entry = container._withUnsafeGuaranteedRef({ $0._findOwn(key) }) { return .found(entry) }
                if let deeper = container._withUnsafeGuaranteedRef({ $0.words.loadAcquire(1) }) {
                    let outcome = searchBudgeted(Unmanaged<_Fallbacks>.fromOpaque(deeper), key, &budget)
                    if case .missed = outcome { continue }
                    return outcome
                }
            }
            current = tail
        }
        return .missed
    }

    /// Depth-first with an explicit stack and a visited set: each container once, at any size.
    private static func searchVisited(_ first: Unmanaged<_Fallbacks>, _ key: ServiceKey) -> UnsafeMutableRawPointer? {
        var visited = Set<UnsafeMutableRawPointer>()
        var stack: [(list: Unmanaged<_Fallbacks>, position: Int)] = []
        // The fallback index stands for the first containers of the list it belongs to.
        func push(_ list: Unmanaged<_Fallbacks>) -> UnsafeMutableRawPointer? {
            list._withUnsafeGuaranteedRef { fallbacks in
                if let index = fallbacks.unretainedIndex,
                    let entry = index._withUnsafeGuaranteedRef({ $0.find(key) })
                {
                    return entry
                }
                stack.append((list, fallbacks.indexedCount))
                return nil
            }
        }
        if let entry = push(first) { return entry }
        while let top = stack.last {
            let (next, tail): (Unmanaged<Container>?, Unmanaged<_Fallbacks>?) = top.list._withUnsafeGuaranteedRef {
                fallbacks in
                top.position < fallbacks.unretained.count
                    ? (fallbacks.unretained[top.position], nil) : (nil, fallbacks.unretainedTail)
            }
            guard let container = next else {
                // This list's own containers are done: go on with its tail (a loop, however long the chain).
                if let tail {
                    stack[stack.count - 1] = (tail, 0)
                } else {
                    stack.removeLast()
                }
                continue
            }
            stack[stack.count - 1].position += 1
            guard visited.insert(container.toOpaque()).inserted else { continue }
            if let entry = container._withUnsafeGuaranteedRef({ $0._findOwn(key) }) { return entry }
            if let deeper = container._withUnsafeGuaranteedRef({ $0.words.loadAcquire(1) }),
                let entry = push(Unmanaged<_Fallbacks>.fromOpaque(deeper))
            {
                return entry
            }
        }
        return nil
    }
}

/// The registrations of the first containers of a fallback list merged into one table: for each key, the entry
/// offered at the earliest position (the one a search of those containers in order would find first), so that
/// one probe answers for all of them. Whoever builds the list keeps it current with ``offer(_:key:position:)``: the
/// module assembler keeps one over its modules' exports (Modules/ModuleExporter.swift).
final class _FallbackIndex: @unchecked Sendable {
    // @unchecked: `table` is a container, written only under `lock`.
    /// Holds the merged entries (its table only: it has no fallbacks, and no walk of the fallback graph
    /// reaches it, so diagnostics see the exports themselves).
    private let table: Container
    private let lock = _Lock()

    /// An index for about `expectedExports` exports (one a module, say), sized once rather than grown.
    init(expectedExports: Int = 0) {
        table = Container(label: "fallback index")
        if expectedExports > 0 { table.reserveTable(for: expectedExports) }
    }

    func find(_ key: ServiceKey) -> UnsafeMutableRawPointer? { table._findOwn(key) }

    /// Records `entry`, an export of the module at `position` (a forwarder to a ``_ModuleExportEntry``), unless
    /// an earlier module exports the same key. The holder's position is its export's: no table of positions.
    func offer(_ entry: AnyObject, key: ServiceKey, position: Int) {
        lock.withLock {
            if let holder = table.currentTable.entry(for: key),
                let export = holder.forwardTarget as? _ModuleExportEntry, export.position < position
            {
                return
            }
            _ = table.add(entry, key: key)
        }
    }
}
