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

    /// `byteCount` zeroed bytes aligned to 16 (`malloc` through the C shim, see `_asm_malloc`, then zeroed here:
    /// for the few words of a registration, cheaper than `calloc`), freed with ``deallocate(_:)``.
    static func allocateZeroed(byteCount: Int) -> UnsafeMutableRawPointer {
        let block = allocate(byteCount: byteCount)
        let words = byteCount / MemoryLayout<UInt>.stride
        block.initializeMemory(as: UInt.self, repeating: 0, count: words)
        let tail = byteCount - words * MemoryLayout<UInt>.stride
        if tail > 0 { (block + (byteCount - tail)).initializeMemory(as: UInt8.self, repeating: 0, count: tail) }
        return block
    }

    /// `byteCount` uninitialised bytes aligned to 16 (`malloc`), freed with ``deallocate(_:)``. Running out of
    /// memory stops the process, as Swift's own allocation does.
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        guard let block = _asm_malloc(byteCount) else { fatalError("Assemblage: out of memory") }
        return block
    }

    /// Frees a block from ``allocateZeroed(byteCount:)`` or ``allocate(byteCount:)``.
    static func deallocate(_ block: UnsafeMutableRawPointer) { _asm_free(block) }

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
