import _AssemblageShims

/// A block of pointer-sized words that are read and written atomically.
///
/// Swift gives no stable address to a class's stored property, so words that readers load without a lock
/// live in their own small allocation, owned by the object that holds this value.
@usableFromInline
struct _AtomicWords: @unchecked Sendable {  // @unchecked: every access is an atomic C11 operation.
    @usableFromInline let base: UnsafeMutableRawPointer

    init(count: Int) {
        base = .allocate(byteCount: count * MemoryLayout<UnsafeRawPointer>.stride,
                         alignment: MemoryLayout<UnsafeRawPointer>.alignment)
        base.initializeMemory(as: UInt.self, repeating: 0, count: count)
    }

    /// Words at `base`, which another object owns (and frees); never call ``deallocate()`` on them.
    init(borrowing base: UnsafeMutableRawPointer) { self.base = base }

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
}

/// A process-wide counter used to mint graph identifiers without random numbers or system calls.
enum _Counter {
    nonisolated(unsafe) private static let word: UnsafeMutableRawPointer = {
        let p = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        p.storeBytes(of: UInt64(0), as: UInt64.self)
        return p
    }()

    static func next() -> UInt64 { _asm_increment_u64(word) }
}
