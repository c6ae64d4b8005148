// Disposal: instances a container or a scope made are disposed exactly once, in reverse creation order, when the
// scope ends or the container shuts down. What counts as disposable: a service that adopts `Disposable` or
// `AsyncDisposable`, or a registration with an `onDispose` closure.

/// A service that releases what it holds (a connection, a file, a subscription) when its scope ends or its
/// container shuts down, possibly asynchronously.
///
/// Adopt it when releasing must await (closing a connection pool, flushing to a server). A scope or container
/// that holds such an instance must then be ended with `await` (``Scope/end()``,
/// ``Container/shutdown()``, or the `async` ``Container/withScope(label:isolation:_:)``); ending it
/// synchronously reports the instance in ``DisposalError`` instead of skipping it silently.
///
/// ```swift
/// final class ConnectionPool: AsyncDisposable {
///     func dispose() async throws { try await closeAll() }
/// }
/// ```
public protocol AsyncDisposable {
    /// Releases what the instance holds. Called once, by the scope or container that made the instance.
    ///
    /// - Throws: Anything; the error is collected into the ``DisposalError`` of the scope's end or the container's
    ///   shutdown, and the other instances are disposed all the same.
    func dispose() async throws
}

/// A service that releases what it holds when its scope ends or its container shuts down.
///
/// Instances that Assemblage made — `.scoped` ones when their scope ends, `.container`, `.singleton` and
/// `.multiton` ones when their container shuts down, and `.transient` or `.graph` ones resolved through a
/// scope, when that scope ends — are disposed exactly once, in reverse creation order, so a service is
/// disposed before the services it depends on. A synchronous `dispose()` also serves asynchronous ends; a type
/// that adopts both protocols is disposed with its `async` method when its owner ends with `await`.
///
/// ```swift
/// final class UnitOfWork: Disposable {
///     func dispose() throws { try rollbackIfOpen() }
/// }
/// container.register(UnitOfWork.self) { _ in UnitOfWork() }.inObjectScope(.scoped)
/// ```
///
/// Instances are not disposed when a reset (``Container/resetObjectScope(_:)-(ObjectScope)``) or a replacement
/// drops them: whoever still holds them owns them then. A registration can choose its own disposal with
/// ``ServiceEntry/onDispose(_:)-2860t``.
public protocol Disposable {
    /// Releases what the instance holds. Called once, by the scope or container that made the instance.
    ///
    /// - Throws: Anything; the error is collected into the ``DisposalError`` of the scope's end or the container's
    ///   shutdown, and the other instances are disposed all the same.
    func dispose() throws
}

/// A failure to dispose: a disposer that needs `await`, reached by a synchronous end.
struct _RequiresAsyncDisposal: Error, CustomStringConvertible {
    var description: String { "can only be disposed asynchronously" }
}

// MARK: - Internal machinery

/// How instances of one type (or one registration) are disposed, without knowing their type.
@usableFromInline
protocol _AnyDisposer: AnyObject, Sendable {
    /// `true` for ``ServiceEntry/notDisposed()``: the instance is not disposed at all.
    var isNone: Bool { get }
    /// Disposes synchronously; throws ``_RequiresAsyncDisposal`` when only an asynchronous disposal exists.
    func disposeSynchronously(_ instance: Any) throws
    /// ``disposeSynchronously(_:)`` for an instance of a class type (a scope holds those as objects): a class
    /// cast instead of opening an `Any`.
    func disposeSynchronously(object: AnyObject) throws
    /// Disposes, awaiting an asynchronous disposal.
    func dispose(_ instance: Any) async throws
}

extension _AnyDisposer {
    func disposeSynchronously(object: AnyObject) throws { try disposeSynchronously(object as Any) }
}

/// The closure of ``ServiceEntry/onDispose(_:)-2860t``.
final class _Disposer<Service>: _AnyDisposer, Sendable {
    let sync: (@Sendable (Service) throws -> Void)?
    let async: (@Sendable (Service) async throws -> Void)?

    init(sync: (@Sendable (Service) throws -> Void)?, async: (@Sendable (Service) async throws -> Void)?) {
        self.sync = sync
        self.async = async
    }

    var isNone: Bool { sync == nil && async == nil }

    func disposeSynchronously(_ instance: Any) throws {
        guard let sync else { throw _RequiresAsyncDisposal() }
        try sync(_exactCast(instance, to: Service.self))  // the entry made it: it is a Service
    }

    func disposeSynchronously(object: AnyObject) throws {
        guard let sync else { throw _RequiresAsyncDisposal() }
        try sync(_assumeClass(object, is: Service.self))  // held as an object only when Service is a class
    }

    func dispose(_ instance: Any) async throws {
        if let async { return try await async(_exactCast(instance, to: Service.self)) }
        try sync?(_exactCast(instance, to: Service.self))
    }
}

/// Disposes instances of one type that adopts ``Disposable``: found once per registration and type, so that
/// making an instance costs no conformance lookup (see ``_DisposalCache``).
final class _SyncDisposer<T: Disposable>: _AnyDisposer, Sendable {
    var isNone: Bool { false }
    func disposeSynchronously(_ instance: Any) throws { try _exactCast(instance, to: T.self).dispose() }
    func dispose(_ instance: Any) async throws { try _exactCast(instance, to: T.self).dispose() }
}

/// ``_SyncDisposer`` for a class: `T` is a reference in the unspecialised code too, so a scope's object is disposed
/// without being copied and destroyed through the runtime's value witnesses.
final class _SyncObjectDisposer<T: AnyObject & Disposable>: _AnyDisposer, Sendable {
    var isNone: Bool { false }
    func disposeSynchronously(_ instance: Any) throws { try _exactCast(instance, to: T.self).dispose() }
    // The cache that found this disposer is keyed by the instance's exact class, T: no runtime cast (`as!` on a
    // generic class is a runtime type test on every instance here).
    func disposeSynchronously(object: AnyObject) throws { try _assumeClass(object, is: T.self).dispose() }
    func dispose(_ instance: Any) async throws { try _exactCast(instance, to: T.self).dispose() }
}

/// Disposes instances of one type that adopts only ``AsyncDisposable``.
final class _AsyncDisposer<T: AsyncDisposable>: _AnyDisposer, Sendable {
    var isNone: Bool { false }
    func disposeSynchronously(_ instance: Any) throws { throw _RequiresAsyncDisposal() }
    func dispose(_ instance: Any) async throws {
        let disposable = _UncheckedSendable(_exactCast(instance, to: T.self))  // handed over by its ending owner
        try await disposable.value.dispose()
    }
}

/// Disposes instances of one type that adopts both protocols: synchronously or asynchronously, as its owner ends.
final class _EitherDisposer<T: Disposable & AsyncDisposable>: _AnyDisposer, Sendable {
    var isNone: Bool { false }
    func disposeSynchronously(_ instance: Any) throws { try _exactCast(instance, to: T.self).dispose() as Void }
    func disposeSynchronously(object: AnyObject) throws { try _assumeClass(object, is: T.self).dispose() as Void }
    func dispose(_ instance: Any) async throws {
        let disposable = _UncheckedSendable(_exactCast(instance, to: T.self))
        try await disposable.value.dispose()
    }
}

/// The disposer a registration found for the last type it made: instances of one registration nearly always
/// have one type, so the conformance lookup, the dearest step of disposal, runs once, not per instance.
@usableFromInline
final class _DisposalCache: Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let disposer: (any _AnyDisposer)?

    init(type: ObjectIdentifier, disposer: (any _AnyDisposer)?) {
        self.type = type
        self.disposer = disposer
    }

    /// How instances of `type` (an instance's dynamic type) are disposed, by conformance: looked up once per type in
    /// the process.
    ///
    /// Every registration keeps the answer for its last instance's type (``ServiceEntry/_disposer(for:)``), but a new
    /// container's registrations start empty, so the answer is also kept here, by type: a type's conformances never
    /// change. Asking the runtime is several dynamic casts, the first of each a scan of every conformance the
    /// process has; the table costs one lock and one lookup.
    static func find(for type: Any.Type) -> (any _AnyDisposer)? {
        let key = _IdentityKey(type)
        if let known = byType.withLock({ $0[key] }) { return known }
        let found = lookUp(type)
        byType.withLock { $0[key] = .some(found) }
        return found
    }

    /// The disposers found so far, by the instance's dynamic type (nil: its type is not disposable).
    private static let byType = _Locked<[_IdentityKey: (any _AnyDisposer)?]>([:])

    /// The conformance of `type` to the disposal protocols. Metatypes are cast, not instances, so that a type that
    /// conforms to neither costs no check for a bridged representation.
    private static func lookUp(_ type: Any.Type) -> (any _AnyDisposer)? {
        func either<T: Disposable & AsyncDisposable>(_: T.Type) -> any _AnyDisposer { _EitherDisposer<T>() }
        func sync<T: Disposable>(_: T.Type) -> any _AnyDisposer { _SyncDisposer<T>() }
        func syncObject<T: AnyObject & Disposable>(_: T.Type) -> any _AnyDisposer { _SyncObjectDisposer<T>() }
        func async<T: AsyncDisposable>(_: T.Type) -> any _AnyDisposer { _AsyncDisposer<T>() }
        if let disposable = type as? any (Disposable & AsyncDisposable).Type { return either(disposable) }
        if let disposable = type as? any (AnyObject & Disposable).Type { return syncObject(disposable) }
        if let disposable = type as? any Disposable.Type { return sync(disposable) }
        if let disposable = type as? any AsyncDisposable.Type { return async(disposable) }
        return nil
    }
}

/// One instance waiting for its disposal.
struct _OwnedInstance {
    let key: ServiceKey
    /// The registration that made it (identity only), so that a reset or a replacement can drop the record.
    let entry: ObjectIdentifier
    let disposer: any _AnyDisposer
    let instance: Any
}

/// The instances a container made that it disposes when it shuts down, in the order they were made.
final class _DisposalList: @unchecked Sendable {  // @unchecked: `records` and `closed` are only touched under `lock`.
    private let lock = _Lock()
    private var records: [_OwnedInstance] = []
    /// Set, for good, when the container shut down: nothing is admitted after the records were taken.
    private var closed = false

    /// Takes `record` unless the container has shut down.
    ///
    /// - Returns: `false` after shutdown: the caller disposes the instance itself and fails. Under the lock that
    ///   shutdown takes the records with, so an instance is either in what shutdown disposes or refused here.
    func admit(_ record: _OwnedInstance) -> Bool {
        lock.withLock {
            if closed { return false }
            records.append(record)
            return true
        }
    }

    /// Forgets the records of one registration (its instances were dropped by a reset or replacement).
    func forget(entry: ObjectIdentifier) {
        let dropped: [_OwnedInstance] = lock.withLock {
            var dropped: [_OwnedInstance] = []
            records.removeAll { record in
                guard record.entry == entry else { return false }
                dropped.append(record)
                return true
            }
            return dropped
        }
        _ = dropped  // released outside the lock: a deinit may resolve again
    }

    /// Takes every record, newest first; `closing` refuses every later one (see ``admit(_:)``).
    func takeAll(closing: Bool) -> [_OwnedInstance] {
        lock.withLock {
            if closing { closed = true }
            defer { records = [] }
            return records.reversed()
        }
    }
}

/// Disposes `records` in order (callers pass them newest first), collecting every failure and telling
/// `observers`.
func _disposeSynchronously(
    _ records: [_OwnedInstance], owner: String,
    observers: [any ContainerObserver]
) -> [DisposalError.Failure] {
    var failures: [DisposalError.Failure] = []
    for record in records {
        do {
            try record.disposer.disposeSynchronously(record.instance)
            for observer in observers { observer.instanceDisposed(record.key, owner: owner) }
        } catch {
            let failure = DisposalError.Failure(key: record.key, thrown: error)
            for observer in observers { observer.disposalFailed(failure, owner: owner) }
            failures.append(failure)
        }
    }
    return failures
}

/// ``_dispose(_:owner:observers:)`` run to completion whatever the caller's cancellation: in a task of its own,
/// which does not inherit it, so that a disposer's cancellation-aware `close()` still closes (the caller waits for
/// the task, which is never cancelled: disposal takes no cancellation, as in .NET).
func _disposeToCompletion(
    _ records: [_OwnedInstance], owner: String,
    observers: [any ContainerObserver]
) async -> [DisposalError.Failure] {
    guard !records.isEmpty else { return [] }
    // Taken by this caller, which alone disposes them.
    return await _inTaskOfItsOwn(handing: records) { records in
        await _dispose(_UncheckedSendable(records), owner: owner, observers: observers)
    }.result
}

/// Runs `body` on `value` in a task of its own, which does not inherit the caller's cancellation, and gives the
/// value back.
///
/// The value goes over and comes back through a lock rather than the task's capture and result: a task keeps both
/// until it is torn down, which may be after this caller resumed, and whatever the value holds (the instances being
/// disposed) would then outlive the call on another thread. `body`'s copies end with the function that runs it,
/// before the task completes.
func _inTaskOfItsOwn<Value, Result>(
    handing value: consuming Value, _ body: @escaping @Sendable (inout Value) async -> Result
) async -> (value: Value, result: Result) {
    let handoff = _Locked<Value?>(value)  // handed to one task, which gives it back before it completes
    let result = await Task { await _run(body, on: handoff) }.value.value
    return (handoff.withLock { $0.take()! }, result)
}

/// ``_inTaskOfItsOwn(handing:_:)``'s task: takes the value, runs `body` on it, puts it back.
private func _run<Value, Result>(
    _ body: @Sendable (inout Value) async -> Result, on handoff: _Locked<Value?>
) async -> _UncheckedSendable<Result> {
    var value = handoff.withLock { $0.take()! }
    let result = await body(&value)
    handoff.withLock { $0 = value }
    return _UncheckedSendable(result)
}

/// Disposes `records` in order, awaiting asynchronous disposals, collecting every failure.
///
/// The records were taken from their scope or container by this caller, which alone disposes them.
func _dispose(
    _ records: _UncheckedSendable<[_OwnedInstance]>, owner: String,
    observers: [any ContainerObserver]
) async -> [DisposalError.Failure] {
    var failures: [DisposalError.Failure] = []
    for record in records.value {
        do {
            try await record.disposer.dispose(record.instance)
            for observer in observers { observer.instanceDisposed(record.key, owner: owner) }
        } catch {
            let failure = DisposalError.Failure(key: record.key, underlying: error, requiresAsyncDisposal: false)
            for observer in observers { observer.disposalFailed(failure, owner: owner) }
            failures.append(failure)
        }
    }
    return failures
}

// MARK: - Registration

extension ServiceEntry {
    /// Disposes instances of this registration with `dispose` instead of their ``Disposable`` conformance.
    ///
    /// ```swift
    /// container.register(Connection.self) { _ in try Connection.open() }
    ///     .inObjectScope(.scoped)
    ///     .onDispose { connection in connection.close() }
    /// ```
    ///
    /// - Parameter dispose: Called once per instance, when its scope ends or its container shuts down.
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func onDispose(_ dispose: @escaping @Sendable (Service) throws -> Void) -> Self {
        _setDisposer(_Disposer<Service>(sync: dispose, async: nil))
    }

    /// Disposes instances of this registration with an asynchronous closure; their owner must then be ended with
    /// `await`.
    ///
    /// ```swift
    /// container.register(Pool.self) { _ in Pool() }
    ///     .inObjectScope(.container)
    ///     .onDispose { pool in await pool.drain() }
    /// ```
    ///
    /// - Parameter dispose: Called once per instance, when its scope ends or its container shuts down.
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func onDispose(_ dispose: @escaping @Sendable (Service) async throws -> Void) -> Self {
        _setDisposer(_Disposer<Service>(sync: nil, async: dispose))
    }

    /// Never disposes instances of this registration, even when they adopt ``Disposable``: for instances the
    /// factory does not own (one made elsewhere and handed over).
    ///
    /// ```swift
    /// container.register(Logger.self) { _ in sharedLogger }.inObjectScope(.container).notDisposed()
    /// ```
    ///
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func notDisposed() -> Self {
        _setDisposer(_Disposer<Service>(sync: nil, async: nil))
    }
}
