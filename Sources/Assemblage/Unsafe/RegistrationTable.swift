public import _AssemblageShims

/// A hash table from ``ServiceKey`` to entries, readable without a lock, that owns its entries.
///
/// Two parts: an open-addressing *index* of 32-bit slots (at most half full, so a probe always meets an empty
/// slot), each holding 1 + the position of a key in the *dense* arrays — the keys, the entries and their
/// registration order, in the order keys were first added. A slot costs 4 bytes and a key is stored once,
/// so a registration costs about a hundred bytes of table instead of two or three full keys' worth.
///
/// Writers (serialised by the container's lock) fill a dense position's key and entry and then publish the
/// position in its index slot with a release store; readers acquire-load the slot, compare the key, and
/// acquire-load the entry. Index slots are never emptied and dense positions never move: replacing a
/// registration swaps the entry pointer, and `removeAll` or growth builds a new table that the container
/// publishes whole and retires the old one, which the reclaimer frees once no read section can hold it.
///
/// The table holds each entry it lists (+1); a replaced entry's reference goes to the reclaimer.
@usableFromInline
final class _RegistrationTable: @unchecked Sendable {
    // @unchecked Sendable: the index slots and entry words follow the publication protocol above; keys below
    // a published position are immutable; `count`, `orders` and everything else are used under the container's
    // lock only.
    let capacity: Int
    @usableFromInline let mask: Int
    /// The index: `capacity` 32-bit slots, 0 when empty, else 1 + a dense position.
    @usableFromInline let slots: UnsafeMutableRawPointer
    /// Dense: the keys, `capacity / 2` of them at most.
    @usableFromInline let keys: UnsafeMutablePointer<ServiceKey>
    /// Dense: the entries (retained by the table), as atomic words.
    @usableFromInline let entries: _AtomicWords
    /// Dense: when each position's entry was registered (the container's counter).
    let orders: UnsafeMutablePointer<Int>
    /// Dense positions in use.
    private(set) var count = 0
    /// Whether the table still holds its entries (+1 each). An outgrown table hands them to its successor.
    private var ownsEntries = true
    /// Whether the table owns its keys' names. An outgrown table's keys are moved, bit for bit, into its successor,
    /// which then owns them: the old table's copies stay readable for the sections that loaded it (its successor
    /// is unpublished no earlier than it, so it is freed no earlier either) but are not destroyed with it.
    private var ownsKeys = true

    /// The capacity of a new registry's table: room for two registrations before it grows. Most containers a
    /// program makes (modules, their exports, scopes' mirrors in validation) hold a few registrations.
    static var initialCapacity: Int { 4 }

    init(capacity: Int) {
        precondition(capacity > 1 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        self.capacity = capacity
        mask = capacity - 1
        // One block, in this order: the entry words, the keys, the orders, the index slots (each part's size is a
        // multiple of the next one's alignment). A table is made with every container, module and scope's
        // registry: one allocation instead of four.
        let dense = capacity / 2
        let keysOffset = dense * MemoryLayout<UnsafeRawPointer>.stride
        let ordersOffset = keysOffset + dense * MemoryLayout<ServiceKey>.stride
        let slotsOffset = ordersOffset + dense * MemoryLayout<Int>.stride
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: slotsOffset + capacity * 4,
            alignment: max(MemoryLayout<ServiceKey>.alignment, MemoryLayout<UnsafeRawPointer>.alignment))
        block.initializeMemory(as: UInt.self, repeating: 0, count: dense)
        entries = _AtomicWords(borrowing: block)
        keys = (block + keysOffset).bindMemory(to: ServiceKey.self, capacity: dense)
        orders = (block + ordersOffset).bindMemory(to: Int.self, capacity: dense)
        slots = block + slotsOffset
        slots.initializeMemory(as: UInt32.self, repeating: 0, count: capacity)
    }

    deinit {
        if ownsEntries { releaseEntries() }
        if ownsKeys { keys.deinitialize(count: count) }
        entries.base.deallocate()  // the whole block (see `init`)
    }

    @inlinable @inline(__always)
    func slot(_ index: Int) -> UInt32 { _asm_load_acquire_u32(slots + index &* 4) }

    /// The dense position of `key`, or nil.
    @inline(__always)
    func position(of key: ServiceKey) -> Int? {
        var index = key.hash & mask
        while true {
            let slot = self.slot(index)
            guard slot != 0 else { return nil }
            let position = Int(slot &- 1)
            if ServiceKey._same(keys[position], key) { return position }
            index = (index &+ 1) & mask
        }
    }

    /// The entry registered under `key`, as an unretained pointer, or nil.
    @inline(__always)
    func find(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        guard let position = position(of: key) else { return nil }
        return entries.loadAcquire(position)
    }

    /// The entry for `key` when its index slot is its home slot (the common case at half load), else nil: the
    /// part of ``find(_:)`` that is inlined into each resolve.
    @inlinable @inline(__always)
    func findAtHome(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        let slot = self.slot(key.hash & mask)
        guard slot != 0 else { return nil }
        let position = Int(slot &- 1)
        return ServiceKey._same(keys[position], key) ? entries.loadAcquire(position) : nil
    }

    /// Whether one more key fits without passing the load factor.
    var hasRoomForOneMore: Bool { count < capacity / 2 }

    /// Inserts or replaces `entry`, registered under `key` (writers only). Returns the replaced entry, +1 (the caller
    /// retires it).
    @discardableResult
    func insert(_ entry: AnyObject, key: ServiceKey, order: Int) -> AnyObject? {
        let pointer = Unmanaged.passRetained(entry).toOpaque()
        if let position = position(of: key) {
            let old = entries.loadAcquire(position)
            orders[position] = order
            entries.storeRelease(position, pointer)
            return old.map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
        }
        append(key, pointer, order: order)
        return nil
    }

    /// Adds a key that is not in the table, with a +1 entry pointer.
    private func append(_ key: ServiceKey, _ entry: UnsafeMutableRawPointer, order: Int) {
        precondition(hasRoomForOneMore, "registration table over its load factor")
        // The name is copied on its own, then the key rebuilt around it: Swift 6.3 copies a whole key's `String?`
        // through the optional type's value witnesses, a lone `String?` with one retain (see "Setup" in
        // Benchmarks/README.md).
        (keys + count).initialize(to: ServiceKey(copying: key, name: _copiedName(key.name)))
        publish(at: count, hash: key.hash, entry, order: order)
    }

    /// Publishes the key already stored at dense position `position` (the next one), with a +1 entry pointer.
    private func publish(at position: Int, hash: Int, _ entry: UnsafeMutableRawPointer, order: Int) {
        orders[position] = order
        entries.storeRelease(position, entry)
        count += 1
        var index = hash & mask
        while slot(index) != 0 { index = (index &+ 1) & mask }
        _asm_store_release_u32(slots + index &* 4, UInt32(position + 1))
    }

    /// `name`, copied (out of line, so that the optimiser keeps it a copy of a lone `String?`; see `append`).
    @inline(never)
    private func _copiedName(_ name: String?) -> String? { name }

    /// The entries, with their registration order (writers and slow paths, under the container's lock).
    var liveEntries: [(entry: any _AnyEntry, order: Int)] {
        (0..<count).compactMap { position in
            entries.loadAcquire(position).map {
                (Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() as! any _AnyEntry, orders[position])
            }
        }
    }

    /// The entry under `key`, retained (under the container's lock).
    func entry(for key: ServiceKey) -> (any _AnyEntry)? {
        find(key).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() as! any _AnyEntry }
    }

    private func releaseEntries() {
        for position in 0..<count {
            if let entry = entries.loadAcquire(position) { Unmanaged<AnyObject>.fromOpaque(entry).release() }
        }
    }

    /// Gives up this table's references to its entries once ``grown()`` made its successor, which holds every
    /// one of them (writers only). The table stays readable for sections that loaded it, but no longer keeps
    /// its entries — and what they hold — alive while it waits to be freed.
    func disownEntries() {
        guard ownsEntries else { return }
        ownsEntries = false
        releaseEntries()
    }

    /// A larger copy holding the same entries (writers only). The keys move to the copy (see ``ownsKeys``).
    func grown() -> _RegistrationTable {
        let table = _RegistrationTable(capacity: capacity * 2)
        for position in 0..<count {
            let entry = entries.loadAcquire(position)!  // a position is published with its entry, never emptied
            UnsafeMutableRawPointer(table.keys + position).copyMemory(
                from: keys + position, byteCount: MemoryLayout<ServiceKey>.stride)
            table.publish(
                at: position, hash: keys[position].hash, Unmanaged<AnyObject>.fromOpaque(entry).retain().toOpaque(),
                order: orders[position])
        }
        ownsKeys = false
        return table
    }
}
