public import _AssemblageShims

/// A block of pointer-sized words that are read and written atomically.
///
/// Swift gives no stable address to a class's stored property, so words that readers load without a lock
/// live in their own small allocation, owned by the object that holds this value.
@usableFromInline
struct _AtomicWords: @unchecked Sendable {  // @unchecked: every access is an atomic C11 operation.
    @usableFromInline let base: UnsafeMutableRawPointer

    init(count: Int) {
        base = .allocate(
            byteCount: count * MemoryLayout<UnsafeRawPointer>.stride,
            alignment: MemoryLayout<UnsafeRawPointer>.alignment)
        base.initializeMemory(as: UInt.self, repeating: 0, count: count)
    }

    /// `byteCount` zeroed bytes aligned to 8, for a 64-bit counter (`_asm_increment_u64`), whatever the pointer
    /// size.
    init(counterBytes byteCount: Int) {
        base = .allocate(byteCount: byteCount, alignment: 8)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    /// Words at `base`, which another object owns (and frees); never call ``deallocate()`` on them.
    @usableFromInline init(borrowing base: UnsafeMutableRawPointer) { self.base = base }

    func deallocate() { base.deallocate() }

    @inlinable @inline(__always)
    func loadAcquire(_ index: Int) -> UnsafeMutableRawPointer? {
        _asm_load_acquire(base + index &* MemoryLayout<UnsafeRawPointer>.stride)
    }

    @inlinable @inline(__always)
    func storeRelease(_ index: Int, _ value: UnsafeMutableRawPointer?) {
        _asm_store_release(base + index &* MemoryLayout<UnsafeRawPointer>.stride, value)
    }

    @inlinable @inline(__always)
    func exchange(_ index: Int, _ value: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        _asm_exchange(base + index &* MemoryLayout<UnsafeRawPointer>.stride, value)
    }

    /// Stores `desired` in the word if it still holds `expected`; returns whether it did.
    func compareExchange(
        _ index: Int, expected: UnsafeMutableRawPointer?, desired: UnsafeMutableRawPointer?
    ) -> Bool {
        _asm_compare_exchange(base + index &* MemoryLayout<UnsafeRawPointer>.stride, expected, desired)
    }
}

/// A process-wide counter used to mint graph identifiers without random numbers or system calls.
enum _Counter {
    /// A 64-bit counter (eight bytes aligned to 8, also where pointers have four), never freed.
    private static let word = _AtomicWords(counterBytes: 8)
    /// The count of registration entries made (see `ServiceEntry.filterBit`).
    private static let entries = _AtomicWords(counterBytes: 8)

    static func next() -> UInt64 { _asm_increment_u64(word.base) }

    /// The next entry's number.
    static func nextEntry() -> UInt64 { _asm_increment_u64(entries.base) }
}
