import _AssemblageShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-recursive mutex over `pthread_mutex_t`, usable on every platform Assemblage supports.
///
/// The Synchronization module's `Mutex` needs macOS 15 / iOS 18; Assemblage supports older systems,
/// so it keeps its own small box. The mutex lives in its own allocation so its address is stable.
@usableFromInline
final class _Lock: @unchecked Sendable {  // @unchecked: all access to `mutex` goes through pthread calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex; `recursive` lets the thread that holds it lock it again (for `Container.synchronize()`).
    init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        guard recursive else {
            pthread_mutex_init(mutex, nil)
            return
        }
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits on `condition`, which must be used only with this lock.
    func wait(on condition: _Condition) { pthread_cond_wait(condition.cond, mutex) }
}

/// A non-recursive lock in one word of an `_AtomicWords` block that its owner already allocates: the C shim's word
/// lock (a futex on Linux, `os_unfair_lock` on Apple platforms). A registry's writer lock is one: every container,
/// module's scope and validation mirror has a registry, and a `_Lock` would cost each two more allocations.
@usableFromInline
struct _WordLock: @unchecked Sendable {  // @unchecked: the word is only touched through the shim's atomics.
    private let word: UnsafeMutableRawPointer

    /// The lock in word `index` of `words` (which must be 0, unlocked, and outlive the lock).
    init(in words: _AtomicWords, at index: Int) { word = words.base + index &* MemoryLayout<UnsafeRawPointer>.stride }

    func lock() { _asm_word_lock(word) }
    func unlock() { _asm_word_unlock(word) }

    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable paired with a `_Lock`.
final class _Condition: @unchecked Sendable {  // @unchecked: all access goes through pthread calls.
    let cond: UnsafeMutablePointer<pthread_cond_t>

    init() {
        cond = .allocate(capacity: 1)
        cond.initialize(to: pthread_cond_t())
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        cond.deinitialize(count: 1)
        cond.deallocate()
    }

    func broadcast() { pthread_cond_broadcast(cond) }
}

/// A value guarded by a lock: the one place shared mutable state lives.
final class _Locked<Value>: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = _Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
