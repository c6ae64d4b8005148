// A container's fallback list, searched in order after its own table, and the index that answers for the first
// containers of a list at once.

/// The containers a container falls back to, published as one immutable value.
///
/// Adding a fallback publishes a new list that shares append-only storage with the one it replaces, so n
/// `addFallback` calls cost O(n) time and memory in all.
@usableFromInline
final class _Fallbacks: @unchecked Sendable {
    // @unchecked Sendable: what readers use is immutable (its storage is append-only); `held` is used and
    // changed only under the owning container's lock.
    /// The containers of this list, in order (holds them while the list is current; emptied under the owner's
    /// lock when a successor replaces it, see ``disownContainers()``).
    private var held: _AppendOnlyList<Container>
    /// The same containers, unretained, so that a lookup touches no reference count.
    private let unretained: _AppendOnlyList<Unmanaged<Container>>
    /// How many of the containers, from the first, a lookup searches when it reaches this list from another
    /// container (the list of a container it falls back to): all of them, but for a module scope that also falls
    /// back to a parent assembler's resolver (Knit's scoped assemblers), which its dependents do not see through it.
    let searchedFromElsewhere: Int
    /// An index standing for the first `indexedCount` containers (a module assembler's modules): one probe
    /// answers for all of them, so a root over n modules does not probe n tables.
    let index: _FallbackIndex?
    let indexedCount: Int
    /// `index`, unretained (this list holds it), so that a lookup touches no reference count.
    private let unretainedIndex: Unmanaged<_FallbackIndex>?

    private init(
        held: _AppendOnlyList<Container>, unretained: _AppendOnlyList<Unmanaged<Container>>,
        searchedFromElsewhere: Int, index: _FallbackIndex?, indexedCount: Int
    ) {
        self.held = held
        self.unretained = unretained
        self.searchedFromElsewhere = searchedFromElsewhere
        self.index = index
        self.indexedCount = index == nil ? 0 : indexedCount
        unretainedIndex = index.map { Unmanaged.passUnretained($0) }
    }

    /// The first list: `containers`, the first `indexedCount` of them answered for by `index`; with
    /// `ownLookupsOnly`, none searched by lookups that reach the list from another container.
    convenience init(
        _ containers: [Container], index: _FallbackIndex? = nil, indexedCount: Int = 0, ownLookupsOnly: Bool = false
    ) {
        self.init(
            held: _AppendOnlyList().appending(contentsOf: containers),
            unretained: _AppendOnlyList().appending(contentsOf: containers.map { Unmanaged.passUnretained($0) }),
            searchedFromElsewhere: ownLookupsOnly ? 0 : containers.count, index: index, indexedCount: indexedCount)
    }

    /// This list with `added` after its containers (writers only, under the owning container's lock). With
    /// `ownLookupsOnly`, or after such an addition, a lookup reaching the list from another container does not
    /// search them (see ``searchedFromElsewhere``).
    func appending(_ added: [Container], ownLookupsOnly: Bool = false) -> _Fallbacks {
        let count = unretained.count
        return _Fallbacks(
            held: held.appending(contentsOf: added),
            unretained: unretained.appending(contentsOf: added.map { Unmanaged.passUnretained($0) }),
            searchedFromElsewhere: ownLookupsOnly || searchedFromElsewhere < count
                ? searchedFromElsewhere : count + added.count,
            index: index, indexedCount: indexedCount)
    }

    /// Gives up this list's hold on its containers once a successor replaced it (writers only, under the owning
    /// container's lock): the successor holds every one of them, and a retired list that kept the shared
    /// storage would keep alive every container appended to it later, until the reclaimer frees the list.
    /// Readers use the unretained list and its own storage, which stay valid.
    func disownContainers() { held = _AppendOnlyList() }

    /// Every container, in order (O(n): diagnostics and configuration only).
    var containers: [Container] { held.array }

    /// The containers a lookup that reaches this list from another container searches (see
    /// ``searchedFromElsewhere``).
    var containersSearchedFromElsewhere: [Container] { Array(held.array.prefix(searchedFromElsewhere)) }

    /// What a lookup that started in another container resolves for `entry`, found in `container`'s own table:
    /// the entry itself, or for a module's scope, the entry's export forwarder, which resolves it in the module
    /// (see ``ServiceEntry/_exportForwarder(in:)``). One load of an immutable flag when the container is no
    /// module's.
    @inline(__always)
    static func found(_ entry: UnsafeMutableRawPointer, in container: Unmanaged<Container>) -> UnsafeMutableRawPointer {
        guard container._withUnsafeGuaranteedRef({ $0.isModuleScope }) else { return entry }
        if let made = _AtomicWords.load(.exportForwarder, ofEntryAt: entry) { return made }
        return exportForwarder(of: entry, in: container)
    }

    /// The export forwarder of `entry`, a registration of a module's scope (`scope`; nil: the container that owns
    /// it): the one it keeps, or one made now. Kept by the entry, which the caller's read section keeps alive.
    @inline(never)
    static func exportForwarder(
        of entry: UnsafeMutableRawPointer, in scope: Unmanaged<Container>?
    ) -> UnsafeMutableRawPointer {
        if let made = _AtomicWords.load(.exportForwarder, ofEntryAt: entry) { return made }
        let forwarder = Unmanaged<AnyObject>.fromOpaque(entry)._withUnsafeGuaranteedRef { object in
            (object as? any _AnyEntry)?._exportForwarder(in: scope?.takeUnretainedValue()) ?? object
        }
        return Unmanaged.passUnretained(forwarder).toOpaque()
    }

    /// Searches the fallback graph below one container for `key`: depth-first, in order, each container once
    /// (a container reached again through another path was already searched), iteratively. `first` is that
    /// container's own list; every list reached from it is searched as far as ``searchedFromElsewhere`` says.
    ///
    /// A chain of single parents — the common shape — is walked with no bookkeeping; the first list with
    /// more than one container switches to a walk with an explicit stack and a visited set.
    ///
    /// - Complexity: O(containers + fallback links) probes.
    @usableFromInline
    static func search(_ first: Unmanaged<_Fallbacks>, _ key: ServiceKey) -> UnsafeMutableRawPointer? {
        var list = first
        var isFirst = true
        while true {
            let (single, searched) = list._withUnsafeGuaranteedRef {
                ($0.unretainedIndex == nil && $0.unretained.count == 1, $0.searchedFromElsewhere)
            }
            guard single else { return searchBranching(list, key, isFirst: isFirst) }
            if !isFirst, searched == 0 { return nil }
            let container = list._withUnsafeGuaranteedRef { $0.unretained[0] }
            if let entry = container._withUnsafeGuaranteedRef({ $0._findOwn(key) }) {
                return found(entry, in: container)
            }
            guard let next = container._withUnsafeGuaranteedRef({ $0.words.loadAcquire(1) }) else { return nil }
            list = Unmanaged<_Fallbacks>.fromOpaque(next)
            isFirst = false
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
    private static func searchBranching(
        _ first: Unmanaged<_Fallbacks>, _ key: ServiceKey, isFirst: Bool
    ) -> UnsafeMutableRawPointer? {
        var budget = 64
        switch searchBudgeted(first, key, isFirst: isFirst, &budget) {
        case .found(let entry): return entry
        case .missed: return nil
        case .exhausted: return searchVisited(first, key, isFirst: isFirst)
        }
    }

    /// How far a search goes in `list`: all of it when it is the list of the container the lookup started in.
    @inline(__always)
    private static func searchedCount(_ list: Unmanaged<_Fallbacks>, isFirst: Bool) -> Int {
        list._withUnsafeGuaranteedRef { isFirst ? $0.unretained.count : $0.searchedFromElsewhere }
    }

    /// The entry `list`'s index has for `key`, as a lookup from elsewhere resolves it (the index stands for modules'
    /// scopes only, so their export forwarder), or nil.
    @inline(__always)
    private static func findInIndex(_ list: Unmanaged<_Fallbacks>, _ key: ServiceKey) -> UnsafeMutableRawPointer? {
        guard let index = list._withUnsafeGuaranteedRef({ $0.unretainedIndex }),
            let entry = index._withUnsafeGuaranteedRef({ $0.find(key) })
        else { return nil }
        return exportForwarder(of: entry, in: nil)
    }

    /// Depth-first, in order, while `budget` lasts; recursion is at most `budget` deep.
    private static func searchBudgeted(
        _ list: Unmanaged<_Fallbacks>, _ key: ServiceKey, isFirst: Bool,
        _ budget: inout Int
    ) -> Outcome {
        let (start, end) = (list._withUnsafeGuaranteedRef { $0.indexedCount }, searchedCount(list, isFirst: isFirst))
        if start > 0, let entry = findInIndex(list, key) { return .found(entry) }
        for position in start..<max(start, end) {
            budget -= 1
            if budget < 0 { return .exhausted }
            let container = list._withUnsafeGuaranteedRef { $0.unretained[position] }
            if let entry = container._withUnsafeGuaranteedRef({ $0._findOwn(key) }) {
                return .found(found(entry, in: container))
            }
            if let deeper = container._withUnsafeGuaranteedRef({ $0.words.loadAcquire(1) }) {
                let outcome = searchBudgeted(Unmanaged<_Fallbacks>.fromOpaque(deeper), key, isFirst: false, &budget)
                if case .missed = outcome { continue }
                return outcome
            }
        }
        return .missed
    }

    /// Depth-first with an explicit stack and a visited set: each container once, at any size.
    private static func searchVisited(
        _ first: Unmanaged<_Fallbacks>, _ key: ServiceKey, isFirst: Bool
    ) -> UnsafeMutableRawPointer? {
        var visited = Set<UnsafeMutableRawPointer>()
        var stack: [(list: Unmanaged<_Fallbacks>, position: Int, end: Int)] = []
        // The fallback index stands for the first containers of the list it belongs to.
        func push(_ list: Unmanaged<_Fallbacks>, isFirst: Bool) -> UnsafeMutableRawPointer? {
            let start = list._withUnsafeGuaranteedRef { $0.indexedCount }
            if start > 0, let entry = findInIndex(list, key) { return entry }
            stack.append((list, start, searchedCount(list, isFirst: isFirst)))
            return nil
        }
        if let entry = push(first, isFirst: isFirst) { return entry }
        while let top = stack.last {
            guard top.position < top.end else {
                stack.removeLast()
                continue
            }
            let container = top.list._withUnsafeGuaranteedRef { $0.unretained[top.position] }
            stack[stack.count - 1].position += 1
            guard visited.insert(container.toOpaque()).inserted else { continue }
            if let entry = container._withUnsafeGuaranteedRef({ $0._findOwn(key) }) {
                return found(entry, in: container)
            }
            if let deeper = container._withUnsafeGuaranteedRef({ $0.words.loadAcquire(1) }),
                let entry = push(Unmanaged<_Fallbacks>.fromOpaque(deeper), isFirst: false)
            {
                return entry
            }
        }
        return nil
    }
}

/// The registrations of the first containers of a fallback list (a module assembler's modules' scopes) merged into
/// one table: for each key, the entry of the earliest module that registers it (the one a search of those
/// containers in order would find first), so that one probe answers for all of them. Whoever builds the list keeps
/// it current with ``offer(_:key:position:)``: the module assembler does as its modules register
/// (Modules/ModuleExporter.swift). A lookup resolves what it finds through the entry's export forwarder.
final class _FallbackIndex: @unchecked Sendable {
    // @unchecked: `table` is a container, and `scopes` an array, written only under `lock`.
    /// Holds the merged entries (its table only: it has no fallbacks, and no walk of the fallback graph
    /// reaches it, so diagnostics see the modules' scopes themselves).
    private let table: Container
    private let lock = _Lock()
    /// The module scopes in the list, in order (identities only): a scope's position decides between two modules
    /// registering one key.
    private var scopes: [ObjectIdentifier] = []

    /// An index for about `expectedEntries` registrations (one a module, say), sized once rather than grown.
    init(expectedEntries: Int = 0) {
        table = Container(label: "fallback index")
        if expectedEntries > 0 {
            table.reserveTable(for: expectedEntries)
            scopes.reserveCapacity(expectedEntries)
        }
    }

    func find(_ key: ServiceKey) -> UnsafeMutableRawPointer? { table._findOwn(key) }

    /// Records that `scope` is the next module scope of the list (its position: the number of scopes added before).
    func add(_ scope: Container) {
        lock.withLock { scopes.append(ObjectIdentifier(scope)) }
    }

    /// Records `entry`, a registration of the module scope at `position`, unless an earlier module registers the
    /// same key (the holder's module is the container that owns it; finding its position is a search, made only
    /// when two modules register one key).
    func offer(_ entry: AnyObject, key: ServiceKey, position: Int) {
        lock.withLock {
            if let holder = table.currentTable.entry(for: key), let scope = holder.owningContainer,
                let held = scopes.firstIndex(of: ObjectIdentifier(scope)), held < position
            {
                return
            }
            _ = table.add(entry, key: key)
        }
    }
}
