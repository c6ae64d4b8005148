// Observers: behaviors told what a container makes and disposes.

/// Told what a container makes and disposes: the hook that logging (the `Logging` trait's ``ContainerLogger``)
/// and metrics attach to.
///
/// Add an observer as a behavior: every container notifies the behaviors that also adopt this protocol.
///
/// ```swift
/// final class DisposalCounter: Behavior, ContainerObserver { … }
/// container.addBehavior(DisposalCounter())
/// ```
///
/// Calls come from the thread that made or disposed the instance, outside every lock. Every method has an
/// empty default.
public protocol ContainerObserver: Sendable {
    /// A `.container`, `.singleton` or `.multiton` instance was made (scoped and transient instances are not
    /// reported one by one: they are too many).
    ///
    /// - Parameters:
    ///   - key: The registration.
    ///   - scope: Its object scope.
    ///   - container: The label of the container that owns the registration.
    func instanceCreated(_ key: ServiceKey, scope: ObjectScope, container: String)

    /// An instance was disposed.
    ///
    /// - Parameters:
    ///   - key: The registration that made it.
    ///   - owner: What disposed it: `scope "request"` or `container "app"`.
    func instanceDisposed(_ key: ServiceKey, owner: String)

    /// A scope ended.
    ///
    /// - Parameters:
    ///   - label: The scope's label.
    ///   - disposed: How many instances it disposed.
    ///   - failures: How many of them failed to dispose.
    func scopeEnded(_ label: String, disposed: Int, failures: Int)

    /// A disposer failed (the failure is also in the ``DisposalError`` thrown, or reported as unhandled).
    ///
    /// - Parameters:
    ///   - failure: What failed.
    ///   - owner: What was disposing it.
    func disposalFailed(_ failure: DisposalError.Failure, owner: String)
}

extension ContainerObserver {
    /// Does nothing.
    public func instanceCreated(_ key: ServiceKey, scope: ObjectScope, container: String) {}
    /// Does nothing.
    public func instanceDisposed(_ key: ServiceKey, owner: String) {}
    /// Does nothing.
    public func scopeEnded(_ label: String, disposed: Int, failures: Int) {}
    /// Does nothing.
    public func disposalFailed(_ failure: DisposalError.Failure, owner: String) {}
}
