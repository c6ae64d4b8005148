import Assemblage
import Logging

/// The trace of one request: made first in the request's scope and so disposed last when the scope ends, when it
/// logs how long the request took and tells the ``DisposalObserver``.
///
/// Being `.scoped` and ``Disposable``, it shows that a request's instances are disposed once per request, when
/// the request's scope ends, and never by another request.
///
/// ```swift
/// container.register(RequestTrace.self) { r in
///     RequestTrace(requestID: try r.require(RequestID.self), logger: try r.require(Logger.self),
///                  observer: try r.require((any DisposalObserver).self))
/// }.inObjectScope(.scoped)
/// ```
public final class RequestTrace: Disposable, Sendable {
    /// The request traced.
    public let requestID: RequestID
    private let logger: Logger
    private let observer: any DisposalObserver
    private let start = ContinuousClock.now

    /// Starts a trace.
    ///
    /// - Parameters:
    ///   - requestID: The request.
    ///   - logger: Where the request's duration is logged, at debug level.
    ///   - observer: Told when the trace is disposed.
    public init(requestID: RequestID, logger: Logger, observer: any DisposalObserver) {
        self.requestID = requestID
        self.logger = logger
        self.observer = observer
    }

    /// Logs the request's duration and tells the observer; called once, when the request's scope ends.
    public func dispose() {
        let elapsed = start.duration(to: .now)
        logger.debug("request scope ended", metadata: ["request_id": "\(requestID)", "duration": "\(elapsed)"])
        observer.didDispose("RequestTrace \(requestID)")
    }
}
