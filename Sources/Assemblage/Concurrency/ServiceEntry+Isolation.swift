import Dispatch

// Main-actor and async registrations.
//
// They are ordinary entries with two more factory kinds. The synchronous hot path never sees them: its
// `factoryKind == .arity0…3` check fails and sends them to `_resolvePack`, whose one extra comparison routes them
// here. A main-actor factory then runs through the ordinary scoped resolution (`_resolve`) when the caller
// is on the main actor; an async one is always an error on the synchronous path.

extension ServiceEntry {
    /// Where this registration's factory must run.
    ///
    /// Recorded when the registration is made: ``ServiceIsolation/mainActor`` for
    /// `register(_:mainActorFactory:)`, ``ServiceIsolation/async`` for an `async` factory, otherwise
    /// ``ServiceIsolation/nonisolated``. A type added with ``implements(_:name:)`` reports the isolation of
    /// the registration it forwards to.
    ///
    /// ```swift
    /// let entry = container.register(ProfileViewModel.self, mainActorFactory: { _ in ProfileViewModel() })
    /// entry.isolation   // .mainActor
    /// ```
    public var isolation: ServiceIsolation {
        if let forwarded { return (forwarded as! any _IsolatedEntry).isolation }
        switch factoryKind {
        case .async: return .async
        case .mainActor: return .mainActor
        default: return .nonisolated
        }
    }

    /// The synchronous resolve of a main-actor or async registration (reached from `_resolvePack`).
    ///
    /// A main-actor factory runs, through the ordinary scoped path, when the caller is on the main actor (see
    /// ``_MainActorCheck``, so `assumeIsolated` cannot trap); anywhere else, and for any async factory, the
    /// resolve fails with a typed error naming the registration and the path that reached it.
    @usableFromInline
    func _resolveIsolated<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Service {
        guard factoryKind == .mainActor else { throw isolationError(.requiresAsync) }
        guard _MainActorCheck.isOnMainActor else { throw isolationError(.requiresMainActor) }
        let box = factory as! _MainActorFactoryBox<Service, repeat each Arg>
        let passed = _UncheckedSendable((repeat each arguments))
        return try _resolve(
            container, { _argumentList(repeat each arguments) },
            { resolver in
                try MainActor.assumeIsolated {
                    _UncheckedSendable(try box.call(resolver, repeat each passed.value))
                }.value
            })
    }

    /// `requiresAsync` or `requiresMainActor` for this key, with the synchronous path of the calling thread.
    func isolationError(_ code: ResolutionError.Code) -> ResolutionError {
        let path = _ResolutionState.existing?.path ?? []
        return ResolutionError(code: code, key: key, path: path + [key])
    }
}

/// Tells, without trapping, whether the calling code runs on the main actor.
///
/// The main actor's executor is the main dispatch queue. On Apple platforms its jobs run on the main thread;
/// on Linux, once the main thread has handed the queue over (`dispatchMain()`, as async `main` and the test
/// runners do), they run on whichever thread drains it. So the check is "inside the main queue", read
/// through a queue-specific value that is set on the main queue once. (It also holds on the main thread
/// before the queue is handed over.) A program that installs a main executor of its own that is not the
/// main queue gets `requiresMainActor` errors from synchronous resolves, never a crash; `resolveAsync`
/// works there as everywhere.
enum _MainActorCheck {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainActor: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// An entry's isolation, without knowing its service type.
protocol _IsolatedEntry: _AnyEntry {
    var isolation: ServiceIsolation { get }
}

extension ServiceEntry: _IsolatedEntry {}

// MARK: - Boxes

/// Holds an `async` factory with any number of arguments, with its exact function type.
@usableFromInline
final class _AsyncFactoryBox<Service, each Arg>: Sendable {
    let call: @Sendable (any Resolver, repeat each Arg) async throws -> Service
    init(_ call: @escaping @Sendable (any Resolver, repeat each Arg) async throws -> Service) { self.call = call }
}

/// Holds a main-actor factory with any number of arguments, with its exact function type.
@usableFromInline
final class _MainActorFactoryBox<Service, each Arg>: Sendable {
    let call: @MainActor @Sendable (any Resolver, repeat each Arg) throws -> Service
    init(_ call: @escaping @MainActor @Sendable (any Resolver, repeat each Arg) throws -> Service) { self.call = call }
}

/// Carries a value across an isolation boundary that the compiler cannot see is safe.
///
/// Used where resolution hands a caller's arguments to a factory, or a factory's result back to the caller,
/// while the other side waits: the value is never used from two places at once. This is the same contract
/// as the synchronous API, which hands services to whichever thread resolves them.
struct _UncheckedSendable<Value>: @unchecked Sendable {  // @unchecked: handed over, never shared (see above).
    let value: Value
    init(_ value: Value) { self.value = value }
}
