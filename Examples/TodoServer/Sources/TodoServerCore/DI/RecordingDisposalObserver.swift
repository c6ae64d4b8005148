import Synchronization

/// A ``DisposalObserver`` that records every disposal in order, for the tests and for
/// `todo-server --load-test`, which check that shutdown disposed each component exactly once and in reverse
/// creation order.
///
/// ```swift
/// let recorder = RecordingDisposalObserver()
/// let server = TodoServerApplication(configuration: configuration, logger: logger) { container in
///     container.register((any DisposalObserver).self) { _ in recorder }
/// }
/// // … run and stop the server …
/// print(recorder.disposals)   // ["RequestTrace r-1", …, "AuditLog", "SQLiteConnectionPool"]
/// ```
public final class RecordingDisposalObserver: DisposalObserver {
    private let recorded = Mutex<[String]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Appends the component to ``disposals``.
    ///
    /// - Parameter component: The component disposed.
    public func didDispose(_ component: String) {
        recorded.withLock { $0.append(component) }
    }

    /// The components disposed so far, in the order they were disposed.
    public var disposals: [String] {
        recorded.withLock { $0 }
    }

    /// The application-level disposals (those that are not a request's), in order.
    public var applicationDisposals: [String] {
        disposals.filter { !$0.hasPrefix("RequestTrace ") }
    }
}
