// The creation hook: told when a factory starts and when its instance is finished (steps and decorators
// included), on the thread that runs it. The startup profiler (Profiling/) is the one hook; the core declares it
// so that it reaches no layer above its own.

/// What is being made: the registration, where it lives and who is making it.
struct _Creation {
    /// The registration.
    let key: ServiceKey
    /// Its object scope's name (`transient`, `container`, a custom scope's description).
    let scope: String
    /// Where it was registered.
    let site: RegistrationSite
    /// The label of the container (or scope) that makes it.
    let container: String
    /// The entry, to tell an async factory's own synchronous finish from a nested resolution.
    let entry: ObjectIdentifier
}

/// Told about every instance a container makes while it is installed (see ``_CreationHooks``).
protocol _CreationHook: AnyObject, Sendable {
    /// Runs `make`, a synchronous factory call and what follows it (steps, decorators), on the calling thread.
    ///
    /// - Parameter thread: The resolution state of the thread (a continuation thread of the stack guard shares
    ///   its caller's), whose nested creations are this one's children.
    func observe<T>(_ creation: _Creation, thread: ObjectIdentifier, _ make: () throws -> T) rethrows -> T

    /// Runs `make`, an `async` factory and its synchronous finish.
    func observeAsync<T, E: Error>(_ creation: _Creation, _ make: () async throws(E) -> T) async throws(E) -> T
}

/// The installed creation hook, if any. Reading it costs one relaxed load when none is installed (the flag it
/// shares with decorators, which also sends factory calls to the out-of-line path).
enum _CreationHooks {
    private static let installed = _Locked<(any _CreationHook)?>(nil)

    /// The installed hook; nil (one relaxed load) when there is none.
    static var current: (any _CreationHook)? {
        guard _Shim.creationHookInstalled else { return nil }
        return installed.withLock { $0 }
    }

    /// Installs `hook`, or removes the installed one (nil).
    static func install(_ hook: (any _CreationHook)?) {
        installed.withLock { current in
            current = hook
            _Shim.setCreationHookInstalled(hook != nil)
        }
    }
}

extension ServiceEntry {
    /// The creation hook's description of this registration made through `container`.
    func _creation(_ container: Container) -> _Creation {
        _Creation(
            key: key, scope: objectScope.description, site: site, container: container.label,
            entry: ObjectIdentifier(self))
    }
}
