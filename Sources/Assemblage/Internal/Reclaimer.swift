import _AssemblageShims

/// Frees shared-instance boxes that a reset removed, once no thread is reading them.
///
/// Readers of a `.container`/`.singleton` slot take no lock: they publish the box they are about to read in
/// their thread's hazard word, re-check the slot and copy the instance out. A reset swaps the slot to nil
/// and hands the old box here; it is released at once unless some thread's hazard names it, in which case
/// it waits until a later reset finds it unnamed. Resets are rare; hits stay lock-free and contention-free.
///
/// On Linux the hit publishes its hazard with a plain store (no fence instruction): before scanning the
/// hazards, a reset calls `membarrier`, which runs a full fence on every thread of the process, so any
/// hazard published before a reader re-checked its slot is visible to the scan, and any reader that
/// re-checks after the fence sees the slot already swapped. Elsewhere the hazard store is sequentially
/// consistent.
enum _Reclaimer {
    private struct State {
        var hazards: [UnsafeMutableRawPointer] = []
        var pending: [UnsafeMutableRawPointer] = []
    }
    private static let state = _Locked(State())

    static func register(hazard: UnsafeMutableRawPointer) {
        state.withLock { $0.hazards.append(hazard) }
    }

    static func unregister(hazard: UnsafeMutableRawPointer) {
        state.withLock { state in
            state.hazards.removeAll { $0 == hazard }
        }
    }

    /// Releases `box` (a +1 retained object pointer) as soon as no reader holds it.
    static func retire(_ box: UnsafeMutableRawPointer) {
        var free: [UnsafeMutableRawPointer] = []
        state.withLock { state in
            state.pending.append(box)
            // Readers publish hazards with a plain store where the platform lets this side fence for them;
            // without the fence, nothing may be freed on the strength of what the scan reads.
            guard _asm_heavy_barrier() else { return }
            let inUse = Set(state.hazards.compactMap { _asm_load_seqcst($0) })
            var keep: [UnsafeMutableRawPointer] = []
            for candidate in state.pending {
                if inUse.contains(candidate) { keep.append(candidate) } else { free.append(candidate) }
            }
            state.pending = keep
        }
        // Released outside the lock: an instance's deinit may resolve or reset again.
        for pointer in free { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
    }
}

/// Makes sure a shared (`.container`, `.singleton`, weak or custom-scoped) instance is created once,
/// even when many threads ask at the same moment, and turns cross-thread cycles into errors.
///
/// Only the creation path comes here; hits never do. The thread that creates holds no lock while its
/// factory runs, so factories may resolve anything, on any thread. A thread that finds the registration
/// being created by another waits; before it waits it follows the chain of who-waits-for-whom, and if the
/// chain leads back to itself (thread A creates X and needs Y; thread B creates Y and needs X) it throws a
/// cycle error instead of deadlocking.
final class _Coordinator: @unchecked Sendable {  // @unchecked: all state is guarded by `lock`.
    static let shared = _Coordinator()

    private let lock = _Lock()
    private let condition = _Condition()
    /// entry → the thread state creating it.
    private var creators: [UnsafeRawPointer: UnsafeRawPointer] = [:]
    /// thread state → the entry it waits for.
    private var waiting: [UnsafeRawPointer: UnsafeRawPointer] = [:]
    /// entry → its key, while it is being created (for error messages).
    private var keys: [UnsafeRawPointer: ServiceKey] = [:]

    func withLock<R>(_ body: () throws -> R) rethrows -> R { try lock.withLock(body) }

    /// Waits until `entry` is either ready (`isReady` returns a value, evaluated under the lock) or free to be
    /// created by the caller.
    ///
    /// - Returns: The ready value, or `nil` when the caller must create it and then call ``end(_:)``.
    func begin<T>(_ entry: UnsafeRawPointer, key: ServiceKey, state: UnsafeRawPointer, path: [ServiceKey],
                  isReady: () -> T?) throws(ResolutionError) -> T? {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let ready = isReady() { return ready }
            guard let owner = creators[entry] else {
                creators[entry] = state
                keys[entry] = key
                return nil
            }
            // Who does the owner wait for, and who creates that? If the chain comes back to us, waiting
            // would deadlock.
            var cycle: [ServiceKey] = [key]
            var thread = owner
            while let awaited = waiting[thread], let next = creators[awaited] {
                let awaitedKey = keys[awaited] ?? key
                if next == state {
                    // We create `awaitedKey`, which needs `key`, whose creator needs …, which needs `awaitedKey`.
                    throw ResolutionError(code: .cycle, key: key, path: path + [key],
                                          cycle: [awaitedKey] + cycle + [awaitedKey])
                }
                cycle.append(awaitedKey)
                thread = next
            }
            if owner == state {
                throw ResolutionError(code: .cycle, key: key, path: path + [key], cycle: [key, key])
            }
            waiting[state] = entry
            lock.wait(on: condition)
            waiting[state] = nil
        }
    }

    /// Marks the creation of `entry` finished (successfully or not) and wakes the waiters.
    func end(_ entry: UnsafeRawPointer) {
        lock.withLock {
            creators[entry] = nil
            keys[entry] = nil
        }
        condition.broadcast()
    }
}
