import Assemblage
import AssemblageProperties
import Logging

/// Registers the application's services in a container.
///
/// | service | scope | made from |
/// |---|---|---|
/// | ``TodoServerConfiguration`` | container | the value given |
/// | `Logger` | container | the logger given |
/// | ``DisposalObserver`` | container | ``LoggingDisposalObserver`` (tests register a recorder after this) |
/// | ``SQLiteConnectionPool`` | container | opened with the configured path and size; closed at shutdown |
/// | ``TodoRepository`` | container | ``SQLiteTodoRepository`` over the pool, its schema migrated |
/// | ``AuditLog`` | container | over the pool, batch size from the property `audit.batchSize`; flushed at shutdown, before the pool closes |
/// | ``RequestID`` | scoped value | provided to each request's scope by Assemblage's `RequestScopeMiddleware` |
/// | ``UserID`` | scoped value | provided to each `/todos` request's scope by ``UserMiddleware`` |
/// | ``RequestTrace`` | scoped | per request; disposed when the request's scope ends |
/// | ``TodoService`` | scoped | per request, for the request's user |
///
/// ```swift
/// let container = Container()
/// TodoServerAssembly(configuration: configuration, logger: logger).assemble(container: container)
/// ```
public struct TodoServerAssembly: Assembly {
    /// The settings registered for the factories.
    public let configuration: TodoServerConfiguration
    /// The application's logger.
    public let logger: Logger

    /// Creates the assembly.
    ///
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - logger: The application's logger.
    public init(configuration: TodoServerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Registers the services of the table above.
    ///
    /// - Parameter container: The application's container.
    public func assemble(container: Container) {
        let configuration = configuration
        let logger = logger
        container.register(TodoServerConfiguration.self) { _ in configuration }.inObjectScope(.container)
        container.register(Logger.self) { _ in logger }.inObjectScope(.container)
        container.register((any DisposalObserver).self) { r in
            LoggingDisposalObserver(logger: try r.require(Logger.self))
        }.inObjectScope(.container)

        // Application lifetime: made once, disposed by `container.shutdown()` in reverse creation order.
        container.register(SQLiteConnectionPool.self) { r in
            let configuration = try r.require(TodoServerConfiguration.self)
            return try await SQLiteConnectionPool.open(
                path: configuration.databasePath, size: configuration.poolSize, logger: try r.require(Logger.self),
                observer: try r.require((any DisposalObserver).self))
        }.inObjectScope(.container)

        container.register((any TodoRepository).self) { r in
            let repository = SQLiteTodoRepository(pool: try await r.resolveAsync(SQLiteConnectionPool.self))
            try await repository.migrate()
            return repository
        }.inObjectScope(.container)

        container.register(AuditLog.self) { r in
            let audit = AuditLog(
                pool: try await r.resolveAsync(SQLiteConnectionPool.self),
                logger: try r.require(Logger.self),
                batchSize: r.property("audit.batchSize", as: Int.self) ?? AuditLog.defaultBatchSize,
                observer: try r.require((any DisposalObserver).self))
            try await audit.migrate()
            return audit
        }.inObjectScope(.container)

        // Request lifetime: values each request's scope provides, and services made once per request.
        container.registerScopedValue(RequestID.self, validationValue: { RequestID("validation") })
        container.registerScopedValue(UserID.self, validationValue: { UserID("validation") })

        container.register(RequestTrace.self) { r in
            RequestTrace(
                requestID: try r.require(RequestID.self), logger: try r.require(Logger.self),
                observer: try r.require((any DisposalObserver).self))
        }.inObjectScope(.scoped)

        container.register(TodoService.self) { r in
            TodoService(
                requestID: try r.require(RequestID.self), user: try r.require(UserID.self),
                repository: try await r.resolveAsync((any TodoRepository).self),
                audit: try await r.resolveAsync(AuditLog.self),
                logger: try r.require(Logger.self))
        }.inObjectScope(.scoped)
    }
}
