#if Logging
public import Logging

/// Logs what a container makes and disposes through swift-log, at debug level, and disposal failures at error
/// level (trait `Logging`).
///
/// ```swift
/// var logger = Logger(label: "app.di")
/// logger.logLevel = .debug
/// container.addBehavior(ContainerLogger(logger))
/// // debug: made Database (container) in container "app"
/// // debug: scope "request" ended, 3 instances disposed
/// // debug: disposed Database (container "app")
/// ```
///
/// It also adopts ``Behavior``, so registrations are logged at trace level. One logger can serve several
/// containers.
public struct ContainerLogger: Behavior, ContainerObserver {
    /// The logger written to.
    public let logger: Logger

    /// Creates an observer that writes to `logger`.
    ///
    /// - Parameter logger: The logger; set its level to `.debug` to see creations and disposals.
    public init(_ logger: Logger) { self.logger = logger }

    /// Logs the registration at trace level.
    ///
    /// - Parameters:
    ///   - container: The container that registered.
    ///   - type: The registered type.
    ///   - entry: The registration.
    ///   - name: Its name.
    public func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {
        logger.trace("registered \(entry.key) at \(entry.site)", metadata: ["container": "\(container.label)"])
    }

    /// Logs the creation at debug level.
    ///
    /// - Parameters:
    ///   - key: The registration.
    ///   - scope: Its scope.
    ///   - container: The owning container's label.
    public func instanceCreated(_ key: ServiceKey, scope: ObjectScope, container: String) {
        logger.debug("made \(key) (\(scope)) in container \"\(container)\"")
    }

    /// Logs the disposal at debug level.
    ///
    /// - Parameters:
    ///   - key: The registration.
    ///   - owner: What disposed it.
    public func instanceDisposed(_ key: ServiceKey, owner: String) {
        logger.debug("disposed \(key) (\(owner))")
    }

    /// Logs the end of a scope at debug level (at warning level when a disposal failed).
    ///
    /// - Parameters:
    ///   - label: The scope's label.
    ///   - disposed: How many instances it disposed.
    ///   - failures: How many failed.
    public func scopeEnded(_ label: String, disposed: Int, failures: Int) {
        let count = disposed == 1 ? "1 instance" : "\(disposed) instances"
        if failures == 0 {
            logger.debug("scope \"\(label)\" ended, \(count) disposed")
        } else {
            logger.warning("scope \"\(label)\" ended, \(count) disposed, \(failures) failed")
        }
    }

    /// Logs the failure at error level.
    ///
    /// - Parameters:
    ///   - failure: What failed.
    ///   - owner: What was disposing it.
    public func disposalFailed(_ failure: DisposalError.Failure, owner: String) {
        logger.error("disposing \(failure.key) (\(owner)) failed: \(failure)")
    }
}

extension DisposalError {
    /// Sends the disposal failures no caller can receive (see ``unhandledFailureHandler``) to `logger`, at error
    /// level, instead of standard error.
    ///
    /// ```swift
    /// DisposalError.logUnhandledFailures(to: Logger(label: "app.di"))
    /// ```
    ///
    /// - Parameter logger: The logger.
    public static func logUnhandledFailures(to logger: Logger) {
        unhandledFailureHandler = { error in logger.error("\(error)") }
    }
}
#endif
