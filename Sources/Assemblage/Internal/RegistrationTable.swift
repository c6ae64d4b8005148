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
    // @unchecked Sendable: `keys` and `entries` follow the publication protocol above; `count` is only used
    // under the container's lock. The table does not own its entries: the container's `entries` list does.
    let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let keys: UnsafeMutablePointer<ServiceKey?>
    @usableFromInline let entries: _AtomicWords
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        self.capacity = capacity
        mask = capacity - 1
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: nil, count: capacity)
        entries = _AtomicWords(count: capacity)
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

    /// The entry for `key` when it sits in its home slot (the common case at half load), else nil: the part
    /// of ``find(_:)`` that is inlined into each resolve.
    @inlinable @inline(__always)
    func findAtHome(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        let index = key.hash & mask
        guard let entry = entries.loadAcquire(index) else { return nil }
        return ServiceKey._same(keys[index].unsafelyUnwrapped, key) ? entry : nil
    }

    /// Whether one more key fits without passing the load factor.
    var hasRoomForOneMore: Bool { (count + 1) * 2 <= capacity }

    /// Inserts or replaces (writers only). Returns the address of the entry it replaced.
    @discardableResult
    func insert(_ entry: any _AnyEntry) -> UnsafeMutableRawPointer? {
        insert(entry.key, Unmanaged.passUnretained(entry as AnyObject).toOpaque())
    }

    @discardableResult
    private func insert(_ key: ServiceKey, _ entry: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        var index = key.hash & mask
        while let existing = keys[index] {
            if existing == key {
                let old = entries.loadAcquire(index)
                entries.storeRelease(index, entry)
                return old
            }
            index = (index &+ 1) & mask
        }
        precondition(hasRoomForOneMore, "registration table over its load factor")
        keys[index] = key
        count += 1
        entries.storeRelease(index, entry)
        return nil
    }

    /// The addresses of the entries registered now (writers and slow paths, under the container's lock).
    var liveAddresses: Set<UnsafeMutableRawPointer> {
        var result = Set<UnsafeMutableRawPointer>(minimumCapacity: count)
        for index in 0..<capacity {
            if let entry = entries.loadAcquire(index) { result.insert(entry) }
        }
        return result
    }

    /// A larger copy holding the same entries (writers only).
    func grown() -> _RegistrationTable {
        let table = _RegistrationTable(capacity: capacity * 2)
        for index in 0..<capacity {
            if let entry = entries.loadAcquire(index) { table.insert(keys[index].unsafelyUnwrapped, entry) }
        }
        return table
    }
}
