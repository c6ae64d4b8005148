import Assemblage
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
/// | ``AuditLog`` | container | over the pool; flushed at shutdown, before the pool closes |
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

        container.register(SQLiteConnectionPool.self) { r in
            let configuration = try r.require(TodoServerConfiguration.self)
            return try await SQLiteConnectionPool.open(
                path: configuration.databasePath, size: configuration.poolSize, logger: try r.require(Logger.self))
        }.inObjectScope(.container)

        container.register((any TodoRepository).self) { r in
            let repository = SQLiteTodoRepository(pool: try await r.resolveAsync(SQLiteConnectionPool.self))
            try await repository.migrate()
            return repository
        }.inObjectScope(.container)

        container.register(AuditLog.self) { r in
            let audit = AuditLog(pool: try await r.resolveAsync(SQLiteConnectionPool.self),
                                 logger: try r.require(Logger.self))
            try await audit.migrate()
            return audit
        }.inObjectScope(.container)
    }
}
