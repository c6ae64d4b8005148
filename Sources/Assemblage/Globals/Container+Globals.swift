// The process-wide containers: `main` for registrations, `root` where app-wide resolution starts.
// The Resolver library calls the container searched second a "child"; Assemblage says "parent", as Swinject
// does, or "fallback" in general. The full mapping of Resolver's words is in the doc comment of `main`.

extension Container {
    /// The default container for an app's registrations: what Resolver calls `Resolver.main`.
    ///
    /// Register the app's services here (usually in a ``bootstrap(_:)`` hook, so that they are registered
    /// lazily, once, when the first service is resolved) and resolve them through ``root``, which is `main`
    /// until you assign another container:
    ///
    /// ```swift
    /// Container.bootstrap { main in
    ///     main.register(Session.self) { _ in URLSessionAdapter() }.inObjectScope(.container)
    ///     main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
    /// }
    ///
    /// let network = try Container.root.require(NetworkService.self)
    /// ```
    ///
    /// Reading `main` first runs the bootstrap hook if one is armed; every thread that reads it while the hook
    /// runs waits until the hook has finished, so nobody sees `main` half-registered. Reading and assigning are
    /// safe from any thread. Assigning a new `main` does not run the hook again (``resetGlobals()`` does); while
    /// ``root`` has not been assigned another container, it follows `main`.
    ///
    /// ## Resolver's words in Assemblage
    /// | Resolver | Assemblage |
    /// |---|---|
    /// | `Resolver.main`, `Resolver.root` | `Container.main`, `Container.root` |
    /// | `Resolver(child: main)` ("child": searched second) | `Container(parent: main)` ("parent", as Swinject says) |
    /// | `main.add(child: other)` | `try main.addFallback(other)` ("fallback", the general case) |
    /// | `registerAllServices()` | `Container.bootstrap { main in … }` |
    /// | `Resolver.reset()` | `Container.resetGlobals()` |
    /// | `Resolver.root = mock` | `Container.root = mock`, or `Container.withRoot(mock) { … }` for one section |
    ///
    /// Unlike Resolver, scoped instances live in the container that owns the registration, never in a cache
    /// shared by every container: the same type registered in `mock` and in `main` with `.container` gives two
    /// instances. The flip side: a `.container` service registered in `main` and first resolved through an
    /// overlay is built with the overlay's dependencies and then kept (and shared) by `main`, its owner. Keep
    /// services whose dependencies an overlay replaces in `.graph` or `.transient` scope, or reset the scope.
    public static var main: Container {
        get { _GlobalContainers.shared.ready().main }
        set { _GlobalContainers.shared.setMain(newValue) }
    }

    /// The container where app-wide resolution starts: what Resolver calls `Resolver.root`.
    ///
    /// Property wrappers (``Injected``, ``OptionalInjected``, ``LazyInjected``, ``WeakLazyInjected``) resolve
    /// from here unless given a container. `root` is ``main`` until you assign another container; assigning
    /// puts, for example, a mock in front of `main` for the whole app until you set it back:
    ///
    /// ```swift
    /// let mock = Container(parent: Container.main, label: "mock")   // searched first, then main
    /// mock.register(Session.self) { _ in MockSession() }
    ///
    /// Container.root = mock       // every resolution through root now sees the mock session first
    /// // … the debug section …
    /// Container.root = Container.main
    /// ```
    ///
    /// To switch the root for one section of code only (and only for the current task, so that tests running
    /// in parallel do not see each other's mocks), use ``withRoot(_:_:)`` instead. The root you read is the
    /// *effective* root: the innermost `withRoot` container of the current task if there is one, otherwise
    /// the assigned root. Assigning inside `withRoot` changes the assigned root, which that section does not see.
    ///
    /// Assigning `main` makes root follow `main` again (also when `main` is later replaced). Reading root when
    /// no `withRoot` is active first runs the ``bootstrap(_:)`` hook if one is armed. Reading and assigning are
    /// safe from any thread.
    public static var root: Container {
        get { _Ambient.container ?? _GlobalContainers.shared.ready().root }
        set { _GlobalContainers.shared.setRoot(newValue) }
    }

    /// Runs `operation` with `root` switched to `container`, for the current task only.
    ///
    /// Inside `operation`, ``root`` (and so every property wrapper) resolves from `container`; outside it, and
    /// in other tasks and threads running at the same time, nothing changes. Tasks created inside the
    /// operation with `async let`, task groups or `Task { }` inherit the switch; `Task.detached` does not.
    /// Calls nest: the innermost wins.
    ///
    /// ```swift
    /// let mock = Container(parent: Container.main, label: "mock")
    /// mock.register(Session.self) { _ in MockSession() }
    ///
    /// let service = Container.withRoot(mock) {
    ///     try? Container.root.require(NetworkService.self)   // built by main's factory, with the mock session
    /// }
    /// ```
    ///
    /// - Note: The switch is a `@TaskLocal` value. As with any task-local, do not call `withRoot` directly in
    ///   the body of `withTaskGroup`; call it inside the child task (`group.addTask { Container.withRoot(…) }`).
    ///
    /// - Parameters:
    ///   - container: The container to resolve from inside `operation`.
    ///   - operation: The code that sees `container` as the root.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @discardableResult
    public static func withRoot<Result>(_ container: Container, _ operation: () throws -> Result) rethrows -> Result {
        try _Ambient.$container.withValue(container, operation: operation)
    }

    /// Runs asynchronous `operation` with `root` switched to `container`, for the current task only, also
    /// across suspension points.
    ///
    /// The switch holds across every `await` inside `operation`, whatever thread the task resumes on, and in
    /// child tasks; other tasks keep their own root. That makes it the way for tests running in parallel to
    /// each resolve from their own container:
    ///
    /// ```swift
    /// @Test func showsTheMockUser() async throws {
    ///     let mock = Container(parent: Container.main)
    ///     mock.register(UserService.self) { _ in StubUserService(name: "Ada") }
    ///     try await Container.withRoot(mock) {
    ///         let model = ProfileModel()        // @Injected var users: UserService
    ///         await model.load()
    ///         #expect(model.title == "Ada")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - container: The container to resolve from inside `operation`.
    ///   - isolation: The actor `operation` runs on; inferred from the caller.
    ///   - operation: The code that sees `container` as the root.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @discardableResult
    public static func withRoot<Result>(
        _ container: Container, isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await _Ambient.$container.withValue(container, operation: operation, isolation: isolation)
    }

    /// Sets the hook that registers the app's services into ``main``, lazily: it runs once, on the first read
    /// of `main` or `root` (that is, on the first resolve through them): Resolver's `registerAllServices`.
    ///
    /// The hook runs exactly once per arming, even when many threads resolve their first service at the same
    /// moment: one thread runs it, the others wait until it has finished. Setting a hook arms it (replacing a
    /// hook that has not run yet); ``resetGlobals()`` arms the current hook again for the fresh `main`; `nil`
    /// removes the hook.
    ///
    /// ```swift
    /// // At app start, before anything resolves:
    /// Container.bootstrap { main in
    ///     main.register(Session.self) { _ in LiveSession() }.inObjectScope(.container)
    ///     main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
    ///     #if DEBUG
    ///     let mock = Container(parent: main, label: "mock")
    ///     mock.register(Session.self) { _ in MockSession() }
    ///     Container.root = mock
    ///     #endif
    /// }
    /// ```
    ///
    /// The hook receives whichever container is `main` when it runs, and may read and assign `Container.main`
    /// and `Container.root` itself. It runs on the thread of the first reader, so it must not wait for another
    /// thread that is itself reading `main` or `root`. Because `Container.main.register(…)` reads `main`, it
    /// runs the hook first: registrations made that way come after the hook's and win over them under the same
    /// key (the last registration wins).
    ///
    /// - Parameter registering: Registers services into the `main` container it receives; `nil` removes the hook.
    public static func bootstrap(_ registering: (@Sendable (_ main: Container) -> Void)?) {
        _GlobalContainers.shared.setBootstrap(registering)
    }

    /// Starts the globals over: a fresh, empty ``main``, ``root`` following it, and the ``bootstrap(_:)`` hook
    /// armed again: Resolver's `Resolver.reset()`.
    ///
    /// Instances kept by the old `main`'s registrations go with it (unless something else holds the old
    /// container). Containers created with `Container(parent: oldMain)` keep falling back to the old `main`.
    /// `withRoot` sections already running keep their container.
    ///
    /// ```swift
    /// Container.resetGlobals()
    /// Container.main.resolve(Session.self)   // runs the bootstrap hook again, into the new main
    /// ```
    ///
    /// - Note: The globals are shared by the whole process. Tests that assign `main` or `root` or reset them
    ///   must not run in parallel with each other (put them in one `.serialized` suite and restore the state);
    ///   tests that only need their own root should use ``withRoot(_:_:)`` instead.
    public static func resetGlobals() {
        _GlobalContainers.shared.reset()
    }
}
