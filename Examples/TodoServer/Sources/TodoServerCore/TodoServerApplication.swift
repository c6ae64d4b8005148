import Assemblage
import AssemblageHummingbird
import AssemblageProperties
import Configuration
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the todo server: its container, its router and the Hummingbird application that serves it.
///
/// ```swift
/// let configuration = try await TodoServerConfiguration.load()
/// let server = TodoServerApplication(configuration: configuration, logger: Logger(label: "todo-server"))
/// let app = try await server.makeApplication()
/// try await app.runService()     // SIGTERM / SIGINT: graceful shutdown, then the container is disposed
/// ```
public struct TodoServerApplication: Sendable {
    /// The settings.
    public let configuration: TodoServerConfiguration
    /// The application's container: its `.container` services live as long as the application.
    public let container: Container
    /// The application's logger.
    public let logger: Logger

    /// Creates the container and registers the application's services (``TodoServerAssembly``).
    ///
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - properties: A swift-configuration reader the container reads further settings from (its property
    ///     source), usually the one
    ///     ``TodoServerConfiguration/makeReader(environment:configFile:defaultFile:workingDirectory:)`` made; `nil`
    ///     for defaults.
    ///   - logger: The application's logger.
    ///   - customize: Changes to the container after the application's registrations (tests replace the
    ///     ``DisposalObserver`` here).
    public init(
        configuration: TodoServerConfiguration, properties: ConfigReader? = nil, logger: Logger,
        customize: (Container) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.logger = logger
        let container = Container(label: "todo-server")
        // What the container makes and disposes, at debug level (trait Logging).
        container.addBehavior(ContainerLogger(logger))
        if let properties { container.addPropertySource(properties) }
        TodoServerAssembly(configuration: configuration, logger: logger).assemble(container: container)
        customize(container)
        self.container = container
    }

    /// The router: Assemblage's `RequestScopeMiddleware` around everything (a scope per request, given the
    /// request's ``RequestID``, which it puts on every response), then ``APIResponseMiddleware`` (JSON errors,
    /// 405), `GET /health`, and the todo routes under `/todos` behind ``UserMiddleware``; a `HEAD` for every
    /// `GET`. The routes are those of ``APIRoutes``, which a 405's `Allow` header lists.
    ///
    /// - Returns: The router.
    public func makeRouter() -> Router<TodoRequestContext> {
        let router = Router(context: TodoRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(
            middleware: RequestScopeMiddleware(
                container: container,
                responseHeaders: { scope in
                    scope.resolve(RequestID.self).map { [.requestID: $0.value] } ?? [:]
                }
            ) { request, context, scope in
                let requestID = RequestID(header: request.headers[.requestID])
                try scope.provide(requestID)
                context.requestID = requestID
                context.logger[metadataKey: "request_id"] = "\(requestID)"
            })
        router.add(middleware: APIResponseMiddleware())
        router.get("health") { _, _ in "ok" }
        let todos = router.group("todos").add(middleware: UserMiddleware())
        TodoController().addRoutes(to: todos)
        return router
    }

    /// Opens the database (so that a wrong path or schema fails at start-up, not at the first request), logs the
    /// start's ``StartupProfile`` at debug level, and makes the Hummingbird application, with the container's shutdown among its services (`addContainer`), after
    /// the server has stopped.
    ///
    /// - Parameter onServerRunning: Called with the listening channel once the server accepts connections (its
    ///   local address has the port, useful with port 0).
    /// - Returns: The application, to run with `runService()` or in a `ServiceGroup`.
    /// - Throws: What opening the pool or migrating the schema throws.
    public func makeApplication(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        // The start, recorded: what the container made, how long each took, on which thread (at debug level).
        let startup = try await StartupProfile.record {
            _ = try await container.resolveAsync((any TodoRepository).self)
            _ = try await container.resolveAsync(AuditLog.self)
        }
        logger.debug("startup profile\n\(startup.text)")
        logger.info(
            "starting todo-server",
            metadata: [
                "host": "\(configuration.host)", "port": "\(configuration.port)",
                "database": "\(configuration.databasePath)", "pool_size": "\(configuration.poolSize)",
                "configuration_file": "\(configuration.configurationFile ?? "none")",
            ])
        var app = Application(
            router: makeRouter(),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "todo-server"),
            onServerRunning: onServerRunning,
            logger: logger
        )
        // Hummingbird runs its services before its HTTP server and shuts them down after it, the first last: once
        // the last request has finished, the container's service calls `container.shutdown()`, which disposes the
        // audit log and then the pool (reverse creation order).
        app.addContainer(container)
        return app
    }
}

extension TodoServerApplication {
    /// Runs the server in this task until `body` returns, then shuts it down gracefully and waits until the
    /// container is disposed.
    ///
    /// Used by `todo-server --load-test`; bind port 0 to get a free port.
    ///
    /// ```swift
    /// let figures = try await server.serve { port in try await LoadTest.run(LoadTestOptions(port: port)) }
    /// ```
    ///
    /// - Parameter body: Work against the running server, given the port it listens on.
    /// - Returns: What `body` returns.
    /// - Throws: What start-up, `body` or shutdown throws.
    public func serve<Result: Sendable>(_ body: @Sendable (Int) async throws -> Result) async throws -> Result {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await makeApplication { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                throw CancellationError()
            }
            do {
                let result = try await body(port)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}
