// The coordination of shared creations across threads (the read section every resolve runs in is in
// Unsafe/Shims.swift).

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

    /// Who creates what and who waits for what: one value, so that each section under the lock makes one
    /// run-time exclusivity check rather than one for each access to a table.
    private struct State {
        /// entry → the thread state creating it, and the entry itself (a `ServiceEntry`, held while it is created;
        /// its key names it in a cycle error, read only then: the common path copies no key in and out of the table,
        /// and holds the entry as an object, whose existential would look up the entry's generic conformance).
        var creators: [_IdentityKey: (state: ObjectIdentifier, entry: AnyObject)] = [:]
        /// thread state → the entry it waits for.
        var waiting: [_IdentityKey: ObjectIdentifier] = [:]
    }

    private let lock = _Lock()
    private let condition = _Condition()
    private var state = State()

    func withLock<R>(_ body: () throws -> R) rethrows -> R { try lock.withLock(body) }

    /// Waits until `entry` is either ready (`isReady` returns a value, evaluated under the lock) or free to be
    /// created by the caller.
    ///
    /// - Returns: The ready value, or `nil` when the caller must create it and then call ``end(_:)``.
    func begin<T>(
        _ entry: AnyObject, key: ServiceKey, state: ObjectIdentifier, path: () -> [ServiceKey],
        isReady: () -> T?
    ) throws(ResolutionError) -> T? {
        var ready: T?
        _ = try begin(entry, key: key, state: state, path: path) {
            ready = isReady()
            return ready != nil
        }
        return ready
    }

    /// ``begin(_:key:state:path:isReady:)`` for a caller that takes the ready value itself (under the lock, in
    /// `isReady`), so that nothing here is generic over its type.
    ///
    /// - Returns: Whether `isReady` said so; false when the caller must create the value and then call
    ///   ``end(_:)``.
    func begin(
        _ entry: AnyObject, key: ServiceKey, state thread: ObjectIdentifier, path: () -> [ServiceKey],
        isReady: () -> Bool
    ) throws(ResolutionError) -> Bool {
        let id = _IdentityKey(ObjectIdentifier(entry))
        lock.lock()
        defer { lock.unlock() }
        while true {
            if isReady() { return true }
            // Whether another thread creates it, so that this one waits (after checking that waiting is safe).
            let mustWait = try withState { (state) throws(ResolutionError) -> Bool in
                guard let owner = state.creators[id]?.state else {
                    state.creators[id] = (thread, entry)
                    return false
                }
                // Who does the owner wait for, and who creates that? If the chain comes back to us, waiting
                // would deadlock.
                var cycle: [ServiceKey] = [key]
                var next = owner
                while let awaited = state.waiting[_IdentityKey(next)],
                    let creator = state.creators[_IdentityKey(awaited)]
                {
                    let awaitedKey = (creator.entry as! any _AnyEntry).key
                    if creator.state == thread {
                        // We create `awaitedKey`, which needs `key`, whose creator needs …, which needs `awaitedKey`.
                        throw ResolutionError(
                            code: .cycle, key: key, path: path() + [key],
                            cycle: [awaitedKey] + cycle + [awaitedKey])
                    }
                    cycle.append(awaitedKey)
                    next = creator.state
                }
                if owner == thread {
                    throw ResolutionError(code: .cycle, key: key, path: path() + [key], cycle: [key, key])
                }
                state.waiting[_IdentityKey(thread)] = ObjectIdentifier(entry)
                return true
            }
            guard mustWait else { return false }
            lock.wait(on: condition)
            withState { $0.waiting[_IdentityKey(thread)] = nil }
        }
    }

    /// Marks the creation of `entry` finished (successfully or not) and wakes the waiters, if any.
    func end(_ entry: ObjectIdentifier) {
        let someoneWaits = lock.withLock {
            withState { state in
                state.creators[_IdentityKey(entry)] = nil
                return !state.waiting.isEmpty
            }
        }
        if someoneWaits { condition.broadcast() }
    }

    /// The state, under the lock (the caller holds it).
    private func withState<R, E>(_ body: (inout State) throws(E) -> R) throws(E) -> R { try body(&state) }
}
