#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A unit of work — one request, one job, one task — whose `.scoped` instances live exactly as long as it does.
///
/// Make one from the container that holds the registrations, resolve through it, and end it; ending disposes
/// every instance it made (see ``Disposable``), exactly once, in reverse creation order. The structured form ends
/// it for you, also when the body throws or is cancelled:
///
/// ```swift
/// container.registerScopedValue(Request.self)                 // provided per scope, known to validation
/// container.register(Audit.self) { r in Audit(request: try r.require(Request.self)) }
///     .inObjectScope(.scoped)
///
/// let response = try await container.withScope { scope in
///     try scope.provide(request)
///     return try await handle(try scope.require(Audit.self))   // this request's Audit, no other's
/// }
/// ```
///
/// A scope is a ``Resolver``: everything registered in its container resolves through it, and factories run
/// during its resolutions receive it, so their own dependencies resolve in the same scope. `.container` and
/// `.singleton` instances are shared with the whole container as usual; a `.scoped` registration resolved
/// through anything but a scope fails with ``ResolutionError/Code/noActiveScope``, and a
/// longer-lived instance that would capture a scoped one fails with
/// ``ResolutionError/Code/captiveDependency``.
///
/// A scope is a ``Container`` — a light one, made in two allocations, that shares its container's registrations:
/// a registration made through a scope is made in its container — and so a ``Resolver``: tasks of one request may
/// resolve through it at once (a scoped instance is still made once).
public final class Scope: Container, @unchecked Sendable {
    // @unchecked Sendable: as Container; a scope adds one immutable property.

    /// The module's container a request scope's view resolves in (see ``Container/registryOwner``), or nil for a
    /// scope made from a container, whose registry is its parent's. Nil in the common case so that making a
    /// scope retains no container beyond the one its storage keeps: a container is weakly referenced by its
    /// registrations, so its reference count lives in a side table and each retain and release of it takes the
    /// runtime's slow path.
    let moduleView: Container?

    init(storage: _ScopeStorage, label: String) {
        moduleView = nil
        super.init(scopeOf: storage, over: storage.parent, label: label)
    }

    /// A view of `container` that resolves in the scope of `storage`, which was made from another container: how a
    /// request scope's resolution runs in a module's container it reached through a module registration's forwarder (see
    /// ``_ModuleExportEntry``). Its scoped instances are the request's, disposed when the request's scope ends.
    init(storage: _ScopeStorage, over container: Container, label: String) {
        let owner = container.registryOwner
        moduleView = owner
        super.init(scopeOf: storage, over: owner, label: label)
    }

    /// The container the scope was made from.
    public var container: Container { storage.parent }

    /// Whether the scope has ended: its scoped instances are disposed, and resolving one through it fails with
    /// ``ResolutionError/Code/scopeEnded``.
    public var isEnded: Bool { storage.hasEnded }

    var storage: _ScopeStorage { scopeStorage! }  // set for every scope

    /// `scope "request" of container "app"`.
    var scopeDescription: String { "scope \"\(label)\" of container \"\(container.label)\"" }

    /// Provides the value of a registration declared with ``Container/registerScopedValue(_:name:validationValue:file:line:)`` for this
    /// scope: the request, the caller, the tenant.
    ///
    /// ```swift
    /// try scope.provide(request)
    /// try scope.provide(user, as: User.self, name: "caller")
    /// ```
    ///
    /// Provided values are the caller's: the scope does not dispose them.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - type: The declared type (inferred from `value` when omitted).
    ///   - name: The declared name.
    /// - Throws: ``ScopeError`` when the type is not declared as a scoped value, when this scope already has a
    ///   value for it, or when the scope has ended.
    public func provide<Value>(_ value: Value, as type: Value.Type = Value.self, name: String? = nil) throws(ScopeError)
    {
        let key = ServiceKey(serviceType: Value.self, argumentsType: Void.self, name: name, argumentCount: 0)
        // Through forwarders to the declaration: a module's export forwards into the module that declared it, whose
        // registration keys the value's slot (one slot for the request, whichever container resolves it).
        var found = _lookupRetained(key)
        while let target = found?.forwardTarget { found = target }
        guard let declared = found as? ServiceEntry<Value>, declared.isScopedValueDeclaration else {
            throw ScopeError(code: .notDeclared, key: key, scope: scopeDescription)
        }
        try storage.provide(value, for: declared, key: key, scope: scopeDescription)
    }

    /// Ends the scope: disposes every disposable instance it made, in reverse creation order, awaiting
    /// asynchronous disposals. Ending twice disposes nothing the second time.
    ///
    /// ```swift
    /// let scope = container.makeScope(label: "job")
    /// defer { Task { try? await scope.end() } }   // prefer withScope, which cannot forget
    /// ```
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw; the others were disposed all the same.
    public func end() async throws(DisposalError) {
        guard var ended = storage.markEnded() else { return }
        let observers = self.observers
        var disposed = 0
        var failures: [DisposalError.Failure] = []
        if ended.lastOwned >= 0 {
            // In a task of its own, which does not inherit the caller's cancellation: disposal runs to completion
            // (a cancellation-aware `close()` still closes) even when the request's task was cancelled.
            let label = self.label
            let back = await _inTaskOfItsOwn(handing: (storage, consume ended)) { work in
                let storage = work.0
                return await storage.disposeOwned(&work.1, label: label, observers: observers)
            }
            ended = back.value.1
            (disposed, failures) = back.result
        }
        storage.releaseAll(&ended)
        report(disposed: disposed, failures: failures, observers)
        if !failures.isEmpty { throw DisposalError(owner: ownerDescription, failures: failures) }
    }

    /// `scope "request"`.
    var ownerDescription: String { _ScopeStorage.ownerDescription(label: label) }

    private func report(disposed: Int, failures: [DisposalError.Failure], _ observers: [any ContainerObserver]) {
        for observer in observers { observer.scopeEnded(label, disposed: disposed, failures: failures.count) }
    }

    /// Ends the scope synchronously: disposes every disposable instance it made, in reverse creation order.
    ///
    /// An instance that can only be disposed asynchronously is reported in the error (its
    /// ``DisposalError/Failure/requiresAsyncDisposal`` set) rather than skipped in silence.
    ///
    /// ```swift
    /// try scope.endSynchronously()
    /// ```
    ///
    /// (A name of its own rather than an overload of ``end()``: the compiler chooses a synchronous overload in
    /// the top-level code of a `main.swift` even after `await`.)
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw or could not run.
    @available(*, noasync, message: "in an async context, use `try await scope.end()`, which awaits async disposers")
    public func endSynchronously() throws(DisposalError) {
        // The storage unowned: this scope keeps it.
        let failures = _Unowned(storage).with {
            storage -> [DisposalError.Failure] in
            guard var ended = storage.markEnded() else { return [] }
            let observers = self.observers
            let (disposed, failures) = storage.disposeOwnedSynchronously(
                &ended, label: observers.isEmpty ? nil : label, observers: observers)  // the label is for observers
            storage.releaseAll(&ended)
            if !observers.isEmpty { report(disposed: disposed, failures: failures, observers) }
            return failures
        }
        if !failures.isEmpty { throw DisposalError(owner: ownerDescription, failures: failures) }
    }
}

extension Container {
    /// Makes a scope for one unit of work. End it with ``Scope/end()``; prefer
    /// ``withScope(label:isolation:_:)``, which cannot forget to.
    ///
    /// ```swift
    /// let scope = container.makeScope(label: "request")
    /// let audit = try scope.require(Audit.self)
    /// try await scope.end()
    /// ```
    ///
    /// A scope that is dropped without being ended disposes its synchronously disposable instances when its last
    /// copy goes away, and reports that (and any instance it could not dispose) to
    /// ``DisposalError/unhandledFailureHandler``.
    ///
    /// - Parameter label: The scope's name in diagnostics.
    /// - Returns: The scope.
    public func makeScope(label: String = "scope") -> Scope {
        Scope(storage: _ScopeStorage.make(parent: self), label: label)
    }

    /// Runs `body` in a new scope and ends it afterwards — also when `body` throws — disposing what it made.
    ///
    /// ```swift
    /// let total = try await container.withScope(label: "import") { scope in
    ///     try await scope.require(Importer.self).run()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - label: The scope's name in diagnostics.
    ///   - isolation: The caller's actor, inferred.
    ///   - body: The unit of work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (then disposal failures go to ``DisposalError/unhandledFailureHandler``), or
    ///   ``DisposalError`` when `body` succeeded and a disposer failed.
    public func withScope<R>(
        label: String = "scope", isolation: isolated (any Actor)? = #isolation,
        _ body: (Scope) async throws -> R
    ) async throws -> R {
        if isShutDown { throw _scopeRefusedAfterShutdown() }
        let scope = makeScope(label: label)
        let result: R
        do {
            result = try await body(scope)
        } catch {
            do {
                try await scope.end()
            } catch let disposal {
                DisposalError.reportUnhandled(disposal)
            }
            throw error
        }
        try await scope.end()
        return result
    }

    /// Runs `body` in a new scope and ends it synchronously afterwards — also when `body` throws: for code that
    /// cannot `await` (in an async context, use ``withScope(label:isolation:_:)``, which awaits async disposers).
    ///
    /// ```swift
    /// let report = try container.withSynchronousScope { scope in try scope.require(ReportBuilder.self).build() }
    /// ```
    ///
    /// - Parameters:
    ///   - label: The scope's name in diagnostics.
    ///   - body: The unit of work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``DisposalError`` when `body` succeeded and a disposer failed or needed
    ///   `await`.
    @available(*, noasync, message: "in an async context, use `try await withScope`, which awaits async disposers")
    public func withSynchronousScope<R>(label: String = "scope", _ body: (Scope) throws -> R) throws -> R {
        if isShutDown { throw _scopeRefusedAfterShutdown() }
        let scope = makeScope(label: label)
        let result: R
        do {
            result = try body(scope)
        } catch {
            do {
                try scope.endSynchronously()
            } catch let disposal {
                DisposalError.reportUnhandled(disposal)
            }
            throw error
        }
        try scope.endSynchronously()
        return result
    }

    /// Declares a value that each scope provides (the request, the authenticated user), so that scoped services
    /// can depend on it and ``validate(_:)`` knows it exists.
    ///
    /// ```swift
    /// container.registerScopedValue(Request.self)
    /// container.register(Audit.self) { r in Audit(request: try r.require(Request.self)) }.inObjectScope(.scoped)
    /// try await container.withScope { scope in
    ///     try scope.provide(request)
    ///     _ = try scope.require(Audit.self)
    /// }
    /// ```
    ///
    /// Resolving the value in a scope that did not provide it fails with
    /// ``ResolutionError/Code/scopedValueNotProvided``. Validation cannot make the value, so it
    /// checks what depends on it up to it, unless you give it a `validationValue`.
    ///
    /// - Parameters:
    ///   - type: The value's type.
    ///   - name: A name, to declare several values of one type.
    ///   - validationValue: A stand-in value that ``validate(_:)`` uses, so that it checks everything that depends
    ///     on the value too.
    ///   - file: The file of the declaration, for diagnostics.
    ///   - line: The line of the declaration, for diagnostics.
    /// - Returns: The registration.
    @discardableResult
    public func registerScopedValue<Value>(
        _ type: Value.Type, name: String? = nil,
        validationValue: (@Sendable () -> Value)? = nil,
        file: String = #fileID, line: Int = #line
    ) -> ServiceEntry<Value> {
        let key = ServiceKey(serviceType: Value.self, argumentsType: Void.self, name: name, argumentCount: 0)
        let entry = register(Value.self, name: name, file: file, line: line) { (r: any Resolver) throws -> Value in
            if let validationValue, r._container?._isValidationSandbox == true { return validationValue() }
            throw ResolutionError(
                code: .scopedValueNotProvided, key: key, path: _ResolutionState.pathOnThisThread(to: key))
        }
        entry.inObjectScope(.scoped).notDisposed()
        entry._markScopedValueDeclaration()
        return entry
    }
}
