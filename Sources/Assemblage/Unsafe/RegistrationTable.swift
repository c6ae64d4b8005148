public import _AssemblageShims

/// A hash table from ``ServiceKey`` to entries, readable without a lock, that owns its entries.
///
/// Two parts: an open-addressing *index* of 32-bit slots (at most half full, so a probe always meets an empty
/// slot), each holding 1 + a position in the *dense* arrays — the entries, their registration order and the low 32
/// bits of their keys' hashes, in the order keys were first added. The table keeps no keys: each entry is a
/// `ServiceEntry` or a `_MemoEntry`, whose first stored property is its key, and a probe compares that in place
/// (the resolve that finds the entry reads it next anyway) once the stored hash matches. A registration costs a
/// pointer, an order and a hash in the dense arrays and two 4-byte slots in the index.
///
/// Writers (serialised by the container's lock) fill a dense position's entry and then publish the position in
/// its index slot with a release store; readers acquire-load the slot, acquire-load the entry and compare its
/// key. Index slots are never emptied and dense positions never move: replacing a registration swaps the entry
/// pointer for one with the same key, and `removeAll` or growth builds a new table that the container publishes
/// whole and retires the old one, which the reclaimer frees once no read section can hold it (nor the entries
/// it lists: a replaced entry is retired too).
///
/// The table holds each entry it lists (+1); a replaced entry's reference goes to the reclaimer.
@usableFromInline
final class _RegistrationTable: @unchecked Sendable {
    // @unchecked Sendable: the index slots and entry words follow the publication protocol above; an entry's key
    // is immutable; `count`, `orders` and everything else are used under the container's lock only.
    let capacity: Int
    @usableFromInline let mask: Int
    /// The index: `capacity` 32-bit slots, 0 when empty, else 1 + a dense position.
    @usableFromInline let slots: UnsafeMutableRawPointer
    /// Dense: the entries (retained by the table, each one whose first stored property is its key), `capacity / 2`
    /// of them at most, as atomic words.
    @usableFromInline let entries: _AtomicWords
    /// Dense: when each position's entry was registered (the container's counter, which ``renumbered()`` brings
    /// back down before it passes 32 bits).
    let orders: UnsafeMutablePointer<UInt32>
    /// Dense: the low 32 bits of each position's key hash, so that growth re-files entries and a probe passes over
    /// other keys without reading their entries (scattered across the heap: a cache miss each, when cold).
    let hashes: UnsafeMutablePointer<UInt32>
    /// Dense positions in use.
    private(set) var count = 0
    /// Whether the table still holds its entries (+1 each). An outgrown table hands them to its successor.
    private var ownsEntries = true

    /// The capacity of a new registry's table: room for two registrations before it grows. Most containers a
    /// program makes (modules, scopes' mirrors in validation) hold a few registrations.
    static var initialCapacity: Int { 4 }

    init(capacity: Int) {
        precondition(capacity > 1 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        self.capacity = capacity
        mask = capacity - 1
        // One block, in this order: the entry words, the orders, the hashes, the index slots (each part's size is a
        // multiple of the next one's alignment). A table is made with every container, module and scope's
        // registry: one allocation instead of four.
        let dense = capacity / 2
        let ordersOffset = dense * MemoryLayout<UnsafeRawPointer>.stride
        let hashesOffset = ordersOffset + dense * MemoryLayout<UInt32>.stride
        let slotsOffset = hashesOffset + dense * MemoryLayout<UInt32>.stride
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: slotsOffset + capacity * 4, alignment: MemoryLayout<UnsafeRawPointer>.alignment)
        // Only the index is cleared: a dense position is written before the slot that publishes it, and nothing
        // reads a position at or past `count` (so growth does not clear the entry words, a third of the block).
        entries = _AtomicWords(borrowing: block)
        orders = (block + ordersOffset).bindMemory(to: UInt32.self, capacity: dense)
        hashes = (block + hashesOffset).bindMemory(to: UInt32.self, capacity: dense)
        slots = block + slotsOffset
        slots.initializeMemory(as: UInt32.self, repeating: 0, count: capacity)
    }

    deinit {
        if ownsEntries { releaseEntries() }
        entries.base.deallocate()  // the whole block (see `init`)
    }

    @inlinable @inline(__always)
    func slot(_ index: Int) -> UInt32 { _asm_load_acquire_u32(slots + index &* 4) }

    /// The key of `entry`, a `ServiceEntry` or a `_MemoEntry`, in place: both declare it as their first stored
    /// property, which a root class lays out at the start of its stored properties. (A common base class holding
    /// the key made every `ServiceEntry<Service>` a generic subclass, whose metadata the runtime builds for each
    /// new service type by demangling its superclass: thousands of instructions per type on a cold start.)
    /// `insert` checks it in debug builds.
    @inlinable @inline(__always)
    static func key(of entry: UnsafeMutableRawPointer) -> UnsafePointer<ServiceKey> {
        Unmanaged<AnyObject>.fromOpaque(entry)._withUnsafeGuaranteedRef {
            UnsafePointer(_getUnsafePointerToStoredProperties($0).assumingMemoryBound(to: ServiceKey.self))
        }
    }

    /// The entry at dense position `position` when it is registered under `key`, else nil (a published position
    /// always has an entry).
    @inlinable @inline(__always)
    func entry(at position: Int, ifKeyed key: ServiceKey) -> UnsafeMutableRawPointer? {
        guard let entry = entries.loadAcquire(position) else { return nil }
        return ServiceKey._same(Self.key(of: entry).pointee, key) ? entry : nil
    }

    /// The dense position of `key` and its entry, or nil.
    @inline(__always)
    func position(of key: ServiceKey) -> (position: Int, entry: UnsafeMutableRawPointer)? {
        var index = key.hash & mask
        while true {
            let slot = self.slot(index)
            guard slot != 0 else { return nil }
            let position = Int(slot &- 1)
            // The hash first: another key's entry is not read (a cache miss, when cold) unless its hash matches.
            if hashes[position] == UInt32(truncatingIfNeeded: key.hash), let entry = entry(at: position, ifKeyed: key) {
                return (position, entry)
            }
            index = (index &+ 1) & mask
        }
    }

    /// The entry registered under `key`, as an unretained pointer, or nil.
    @inline(__always)
    func find(_ key: ServiceKey) -> UnsafeMutableRawPointer? { position(of: key)?.entry }

    /// The entry for `key` when its index slot is its home slot (the common case at half load), else nil: the
    /// part of ``find(_:)`` that is inlined into each resolve.
    @inlinable @inline(__always)
    func findAtHome(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        let slot = self.slot(key.hash & mask)
        guard slot != 0 else { return nil }
        return entry(at: Int(slot &- 1), ifKeyed: key)
    }

    /// Whether one more key fits without passing the load factor.
    var hasRoomForOneMore: Bool { count < capacity / 2 }

    /// Inserts or replaces `entry`, which is registered under its key (writers only). Returns the replaced entry,
    /// +1 (the caller retires it).
    @discardableResult
    func insert(_ entry: AnyObject, key: ServiceKey, order: UInt32) -> AnyObject? {
        let pointer = Unmanaged.passRetained(entry).toOpaque()
        assert(ServiceKey._same(Self.key(of: pointer).pointee, key), "an entry's first stored property is not its key")
        if let (position, old) = position(of: key) {
            orders[position] = order
            entries.storeRelease(position, pointer)
            return Unmanaged<AnyObject>.fromOpaque(old).takeRetainedValue()
        }
        precondition(hasRoomForOneMore, "registration table over its load factor")
        publish(at: count, hash: UInt32(truncatingIfNeeded: key.hash), pointer, order: order)
        return nil
    }

    /// Publishes a +1 entry pointer at dense position `position` (the next one), under its key's `hash`.
    private func publish(at position: Int, hash: UInt32, _ entry: UnsafeMutableRawPointer, order: UInt32) {
        orders[position] = order
        hashes[position] = hash
        entries.storeRelease(position, entry)
        count += 1
        var index = Int(hash) & mask  // the low 32 bits are the key's hash & mask: a table has at most 2^32 slots
        while slot(index) != 0 { index = (index &+ 1) & mask }
        _asm_store_release_u32(slots + index &* 4, UInt32(position + 1))
    }

    /// The entries, with their registration order (writers and slow paths, under the container's lock).
    var liveEntries: [(entry: any _AnyEntry, order: UInt32)] {
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

    /// Numbers the positions' entries 1, 2, … in their registration order (writers only), for a counter about to
    /// pass 32 bits: four billion registrations into one container, a long-lived one re-registering as it runs.
    /// Returns the last number given.
    func renumbered() -> UInt32 {
        let byOrder = (0..<count).sorted { orders[$0] < orders[$1] }
        for (number, position) in byOrder.enumerated() { orders[position] = UInt32(number + 1) }
        return UInt32(count)
    }

    private func releaseEntries() {
        for position in 0..<count {
            if let entry = entries.loadAcquire(position) { Unmanaged<AnyObject>.fromOpaque(entry).release() }
        }
    }

    /// A larger copy holding the same entries, to which this table hands its references to them (writers only):
    /// it stays readable for sections that loaded it, but no longer keeps its entries — and what they hold — alive
    /// while it waits to be freed. Neither the move nor the re-filing by the stored hashes reads an entry (each one
    /// would be a cache miss when cold: they are scattered across the heap).
    func grown() -> _RegistrationTable {
        let table = _RegistrationTable(capacity: capacity * 2)
        for position in 0..<count {
            let entry = entries.loadAcquire(position)!  // a position is published with its entry, never emptied
            table.publish(at: position, hash: hashes[position], entry, order: orders[position])
        }
        ownsEntries = false
        return table
    }
}
