/// The storage of a lazily injected property: resolved at most once at a time, then kept.
///
/// The first reader resolves (outside the lock, so the factory may resolve other services and read other
/// lazy properties); readers arriving meanwhile wait for it and then read what it stored. The resolving thread
/// reading the same property again (a cycle through the property) gets a `cycle` error instead of a deadlock.
/// A failed resolution stores nothing, so a later read tries again.
final class _LazySlot<Stored> {
    private let lock = _Lock()
    private let settled = _Condition()
    private var stored: Stored?
    private var resolving: _ThreadID?

    init() {}

    /// The stored value, resolving it with `resolve` first when there is none.
    func value(for key: ServiceKey, resolve: () throws(ResolutionError) -> Stored) throws(ResolutionError) -> Stored {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let stored { return stored }
            guard let thread = resolving else { break }
            if thread == .current {
                throw ResolutionError(code: .cycle, key: key, path: [key, key], cycle: [key, key])
            }
            lock.wait(on: settled)
        }
        resolving = .current
        lock.unlock()
        let result: Result<Stored, ResolutionError>
        do {
            result = .success(try resolve())
        } catch {
            result = .failure(error)
        }
        lock.lock()
        resolving = nil
        settled.broadcast()
        let made = try result.get()
        stored = made
        return made
    }

    /// The stored value, without resolving.
    var current: Stored? { lock.withLock { stored } }

    /// Replaces the stored value; `nil` makes the next read resolve again.
    func set(_ value: Stored?) { lock.withLock { stored = value } }
}

// @unchecked Sendable: `stored` and `resolving` are only touched under `lock`, and a `Stored` value crosses
// threads only when it is itself Sendable.
extension _LazySlot: @unchecked Sendable where Stored: Sendable {}
