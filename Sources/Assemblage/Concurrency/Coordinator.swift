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

    private let lock = _Lock()
    private let condition = _Condition()
    /// entry → the thread state creating it, and the entry's key (for error messages).
    private var creators: [_IdentityKey: (state: ObjectIdentifier, key: ServiceKey)] = [:]
    /// thread state → the entry it waits for.
    private var waiting: [_IdentityKey: ObjectIdentifier] = [:]

    func withLock<R>(_ body: () throws -> R) rethrows -> R { try lock.withLock(body) }

    /// Waits until `entry` is either ready (`isReady` returns a value, evaluated under the lock) or free to be
    /// created by the caller.
    ///
    /// - Returns: The ready value, or `nil` when the caller must create it and then call ``end(_:)``.
    func begin<T>(
        _ entry: ObjectIdentifier, key: ServiceKey, state: ObjectIdentifier, path: () -> [ServiceKey],
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
        _ entry: ObjectIdentifier, key: ServiceKey, state: ObjectIdentifier, path: () -> [ServiceKey],
        isReady: () -> Bool
    ) throws(ResolutionError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if isReady() { return true }
            guard let owner = creators[_IdentityKey(entry)]?.state else {
                creators[_IdentityKey(entry)] = (state, key)
                return false
            }
            // Who does the owner wait for, and who creates that? If the chain comes back to us, waiting
            // would deadlock.
            var cycle: [ServiceKey] = [key]
            var thread = owner
            while let awaited = waiting[_IdentityKey(thread)], let (next, awaitedKey) = creators[_IdentityKey(awaited)]
            {
                if next == state {
                    // We create `awaitedKey`, which needs `key`, whose creator needs …, which needs `awaitedKey`.
                    throw ResolutionError(
                        code: .cycle, key: key, path: path() + [key],
                        cycle: [awaitedKey] + cycle + [awaitedKey])
                }
                cycle.append(awaitedKey)
                thread = next
            }
            if owner == state {
                throw ResolutionError(code: .cycle, key: key, path: path() + [key], cycle: [key, key])
            }
            waiting[_IdentityKey(state)] = entry
            lock.wait(on: condition)
            waiting[_IdentityKey(state)] = nil
        }
    }

    /// Marks the creation of `entry` finished (successfully or not) and wakes the waiters.
    func end(_ entry: ObjectIdentifier) {
        lock.withLock {
            creators[_IdentityKey(entry)] = nil
        }
        condition.broadcast()
    }
}
