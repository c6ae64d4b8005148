import Logging

/// Told when the application disposes one of its components: the connection pool, the audit log, a request's
/// trace. The container registers ``LoggingDisposalObserver``; tests register a recorder instead, to check that
/// shutdown disposes everything exactly once and in reverse creation order.
///
/// ```swift
/// struct PrintingObserver: DisposalObserver {
///     func didDispose(_ component: String) { print("disposed", component) }
/// }
/// ```
public protocol DisposalObserver: Sendable {
    /// Called once a component has released its resources.
    ///
    /// - Parameter component: The component's name, such as `"SQLiteConnectionPool"` or
    ///   `"RequestTrace <request id>"`.
    func didDispose(_ component: String)
}

/// Logs each disposal at debug level.
///
/// ```swift
/// let observer = LoggingDisposalObserver(logger: Logger(label: "todo-server"))
/// ```
public struct LoggingDisposalObserver: DisposalObserver {
    /// Where the disposals are logged.
    public let logger: Logger

    /// Creates an observer that logs to `logger`.
    ///
    /// - Parameter logger: The logger.
    public init(logger: Logger) { self.logger = logger }

    /// Logs `disposed` with the component's name at debug level.
    ///
    /// - Parameter component: The component disposed.
    public func didDispose(_ component: String) {
        logger.debug("disposed", metadata: ["component": "\(component)"])
    }
}
