// The ambient container: the container code resolves from when it is not handed one, switchable per task. The task-local it
// switches, `_Ambient`, is the core's (Core/Ambient.swift): the stack guard carries it to the thread it hops to.

extension Container {
    /// The container that code running now resolves from when it is not handed one.
    ///
    /// Inside ``withAmbient(_:operation:)`` (sync or async), it is that section's container — for the
    /// current task and the tasks it creates (`async let`, task groups, `Task { }`), never for other tasks
    /// running at the same time. Outside every such section, it is ``Container/root`` as assigned (by default
    /// ``Container/main``). `withAmbient` and ``Container/withRoot(_:_:)`` are the same switch: inside either,
    /// `Container.ambient` and `Container.root` are the same container.
    ///
    /// ```swift
    /// func makeGreeter() throws -> Greeter { try Container.ambient.require(Greeter.self) }
    ///
    /// let app = Container()
    /// app.register(Greeter.self) { _ in Greeter(greeting: "Hello") }
    /// let greeter = try Container.withAmbient(app) { try makeGreeter() }
    /// ```
    ///
    /// Tests running in parallel each install their own container this way (the `AssemblageTesting`
    /// library's `.testContainer` trait does it for you), so that their registrations never meet.
    ///
    /// - Note: Reading it is a task-local lookup: cheap, but not free. Resolve once and keep the service in
    ///   code that runs often.
    public static var ambient: Container {
        _Ambient.container ?? _GlobalContainers.shared.ready().root
    }

    /// Runs `operation` with `container` as the ambient container of the current task.
    ///
    /// Inside `operation`, ``ambient`` is `container`; outside it, and in other tasks and threads running at
    /// the same time, nothing changes. Sections nest: the innermost wins.
    ///
    /// ```swift
    /// let mock = Container(parent: app, label: "mock")
    /// mock.register(Clock.self) { _ in FixedClock(hour: 9) }
    /// let greeting = try Container.withAmbient(mock) {
    ///     try Container.ambient.require(Greeter.self).greet()   // built with the fixed clock
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - container: The container to install.
    ///   - operation: The code that sees `container` as ambient.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @discardableResult
    public static func withAmbient<Result>(_ container: Container,
                                           operation: () throws -> Result) rethrows -> Result {
        try _Ambient.$container.withValue(container, operation: operation)
    }

    /// Runs asynchronous `operation` with `container` as the ambient container of the current task, across
    /// every suspension point and in the child tasks it creates.
    ///
    /// ```swift
    /// @Test func showsTheStubbedUser() async throws {
    ///     let container = Container(parent: app)
    ///     container.register(UserService.self) { _ in StubUserService(name: "Ada") }
    ///     try await Container.withAmbient(container) {
    ///         let model = try await Container.ambient.resolveAsync(ProfileModel.self)
    ///         #expect(await model.title == "Ada")
    ///     }
    /// }
    /// ```
    ///
    /// - Note: As with any task-local, call it inside a child task (`group.addTask { … }`), not directly in
    ///   the body of `withTaskGroup`.
    ///
    /// - Parameters:
    ///   - container: The container to install.
    ///   - isolation: The actor `operation` runs on; inferred from the caller.
    ///   - operation: The code that sees `container` as ambient.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @discardableResult
    public static func withAmbient<Result>(_ container: Container, isolation: isolated (any Actor)? = #isolation,
                                           operation: () async throws -> Result) async rethrows -> Result {
        try await _Ambient.$container.withValue(container, operation: operation, isolation: isolation)
    }
}
