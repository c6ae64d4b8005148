/// An open-addressing hash table from ``ServiceKey`` to entries, readable without a lock.
///
/// Writers (serialised by the container's lock) fill a slot's key first and then publish the entry pointer
/// with a release store; readers acquire-load the entry pointer first and read the key only when it is set.
/// Slots are never emptied: replacing a registration swaps the pointer, and `removeAll` or growth builds a
/// new table that the container publishes whole. Old tables stay alive until the container is freed, so a
/// reader that loaded one a moment ago can finish with it safely. The load factor stays at or below one
/// half, so a probe always meets an empty slot.
@usableFromInline
final class _RegistrationTable: @unchecked Sendable {
    // @unchecked Sendable: `keys` and `entries` follow the publication protocol above; `refs` and `count`
    // are only used under the container's lock.
    let capacity: Int
    private let mask: Int
    private let keys: UnsafeMutablePointer<ServiceKey?>
    private let entries: _AtomicWords
    /// The entries as objects, for writers and slow paths (under the container's lock).
    private(set) var refs: [(any _AnyEntry)?]
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        self.capacity = capacity
        mask = capacity - 1
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: nil, count: capacity)
        entries = _AtomicWords(count: capacity)
        refs = Array(repeating: nil, count: capacity)
    }

    deinit {
        keys.deinitialize(count: capacity)
        keys.deallocate()
        entries.deallocate()
    }

    /// The entry registered under `key`, as an unretained pointer, or nil.
    @inline(__always)
    func find(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        var index = key.hash & mask
        while true {
            guard let entry = entries.loadAcquire(index) else { return nil }
            if keys[index].unsafelyUnwrapped == key { return entry }
            index = (index &+ 1) & mask
        }
    }

    /// Whether one more key fits without passing the load factor.
    var hasRoomForOneMore: Bool { (count + 1) * 2 <= capacity }

    /// Inserts or replaces (writers only). Returns the entry it replaced.
    @discardableResult
    func insert(_ entry: any _AnyEntry) -> (any _AnyEntry)? {
        let key = entry.key
        var index = key.hash & mask
        while let existing = keys[index] {
            if existing == key {
                let old = refs[index]
                refs[index] = entry
                entries.storeRelease(index, Unmanaged.passUnretained(entry as AnyObject).toOpaque())
                return old
            }
            index = (index &+ 1) & mask
        }
        precondition(hasRoomForOneMore, "registration table over its load factor")
        keys[index] = key
        refs[index] = entry
        count += 1
        entries.storeRelease(index, Unmanaged.passUnretained(entry as AnyObject).toOpaque())
        return nil
    }

    /// A larger copy holding the same entries (writers only).
    func grown() -> _RegistrationTable {
        let table = _RegistrationTable(capacity: capacity * 2)
        for case let entry? in refs { table.insert(entry) }
        return table
    }
}
