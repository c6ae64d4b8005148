public import _AssemblageShims

/// A block of pointer-sized words that are read and written atomically.
///
/// Swift gives no stable address to a class's stored property, so words that readers load without a lock
/// live in their own small allocation, owned by the object that holds this value.
@usableFromInline
struct _AtomicWords: @unchecked Sendable {  // @unchecked: every access is an atomic C11 operation.
    @usableFromInline let base: UnsafeMutableRawPointer

    init(count: Int) {
        base = Self.allocateZeroed(byteCount: count * MemoryLayout<UnsafeRawPointer>.stride)
    }

    /// `byteCount` zeroed bytes aligned to 8, for a 64-bit counter (`_asm_increment_u64`), whatever the pointer
    /// size.
    init(counterBytes byteCount: Int) {
        base = Self.allocateZeroed(byteCount: byteCount)
    }

    /// Words at `base`, which another object owns (and frees); never call ``deallocate()`` on them.
    init(borrowing base: UnsafeMutableRawPointer) { self.base = base }

    func deallocate() { Self.deallocate(base) }

    /// `byteCount` (a multiple of 8) zeroed bytes aligned to 8, freed with ``deallocate(_:)``.
    static func allocateZeroed(byteCount: Int) -> UnsafeMutableRawPointer {
        let block = allocate(byteCount: byteCount)
        block.initializeMemory(as: UInt64.self, repeating: 0, count: byteCount / 8)
        return block
    }

    /// `byteCount` uninitialised bytes aligned to 8, freed with ``deallocate(_:)``. (Swift's allocation; `malloc`
    /// through the C shim, which skips the runtime's `posix_memalign` path on Linux, bought about 2% of
    /// `register.10000`, under the unsafe-code ledger's rule.)
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        .allocate(byteCount: byteCount, alignment: MemoryLayout<UInt>.alignment)
    }

    /// Frees a block from ``allocateZeroed(byteCount:)`` or ``allocate(byteCount:)``.
    static func deallocate(_ block: UnsafeMutableRawPointer) { block.deallocate() }

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
}

/// A process-wide counter used to mint graph identifiers without random numbers or system calls.
enum _Counter {
    /// A 64-bit counter (eight bytes aligned to 8, also where pointers have four), never freed.
    private static let word = _AtomicWords(counterBytes: 8)

    static func next() -> UInt64 { _asm_increment_u64(word.base) }
}
