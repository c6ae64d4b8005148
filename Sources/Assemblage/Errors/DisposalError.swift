// Errors of disposal: the disposers that threw when a scope ended or a container shut down.

#if canImport(FoundationEssentials)
import FoundationEssentials  // LocalizedError's defaults, which the AssemblageError conformance uses
#else
import Foundation
#endif

/// Why disposing the instances of a scope or a container failed: every disposer that threw, none lost.
///
/// ```swift
/// do {
///     try await container.shutdown()
/// } catch {
///     for failure in error.failures { logger.error("\(failure)") }
/// }
/// ```
public struct DisposalError: AssemblageError {
    /// One instance whose disposal failed.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The registration that made the instance.
        public let key: ServiceKey
        /// What its disposer threw (or ``requiresAsyncDisposal``'s description when it could not run).
        public let underlying: any Error
        /// `true` when the instance can only be disposed asynchronously and was ended synchronously: it was not
        /// disposed; end the scope or shut the container down with `await`.
        public let requiresAsyncDisposal: Bool

        /// `Database: connection already closed`.
        public var description: String { detail.description }

        /// The failure as a line of its error: `Database: connection already closed`, what a disposer threw
        /// beneath it when that was an ``AssemblageError`` with details of its own.
        var detail: ErrorDetail {
            if requiresAsyncDisposal {
                return ErrorDetail(
                    "\(key) can only be disposed asynchronously (AsyncDisposable or an async "
                        + "onDispose), but its owner was ended synchronously: it was not disposed. End it with `await`."
                )
            }
            if let error = underlying as? any AssemblageError {
                return ErrorDetail(key.description, error.summary, details: error.details)
            }
            return ErrorDetail(key.description, String(describing: underlying))
        }
    }

    /// What was being disposed: `scope "request"` or `container "app"`.
    public let owner: String
    /// Every failure, in the order the instances were disposed (reverse creation order).
    public let failures: [Failure]

    /// ``DisposalError/Code/scopeNeverEnded`` when a scope was dropped without being ended, ``DisposalError/Code/disposerFailed`` when a
    /// disposer threw, ``DisposalError/Code/requiresAsyncDisposal`` when every failure is an instance that needed `await`.
    public var code: Code {
        if failures.contains(where: { $0.underlying is _NeverEnded }) { return .scopeNeverEnded }
        if failures.allSatisfy(\.requiresAsyncDisposal) { return .requiresAsyncDisposal }
        return .disposerFailed
    }

    /// What was being disposed, and for how many instances it failed.
    public var summary: String {
        let count = failures.count == 1 ? "1 instance" : "\(failures.count) instances"
        return "Disposing \(owner) failed for \(count):"
    }

    /// One line per failure: the registration and what its disposer threw.
    public var details: [ErrorDetail] { failures.map(\.detail) }

    /// Where disposal failures go that no caller can receive: those of a scope whose body threw (the body's error
    /// is rethrown), and those of a scope that was never ended (disposed when its last reference went away). By
    /// default they are written to standard error; the `Logging` integration sends them to a `Logger`.
    ///
    /// ```swift
    /// DisposalError.unhandledFailureHandler = { error in logger.error("\(error)") }
    /// ```
    public static var unhandledFailureHandler: @Sendable (DisposalError) -> Void {
        get { _unhandledDisposalHandler.withLock { $0 }.call }
        set { _unhandledDisposalHandler.withLock { $0 = _DisposalHandler(call: newValue) } }
    }

    static func reportUnhandled(_ error: DisposalError) { _unhandledDisposalHandler.withLock { $0 }.call(error) }
}

extension DisposalError.Failure {
    /// The failure of a disposer that threw `error` for an instance of `key`: a `_RequiresAsyncDisposal` error
    /// means the instance was left undisposed because only an `await` could dispose it.
    init(key: ServiceKey, thrown error: any Error) {
        self.init(key: key, underlying: error, requiresAsyncDisposal: error is _RequiresAsyncDisposal)
    }
}

/// The handler, boxed: a closure kept as a generic lock's value would be wrapped in reabstraction thunks on every
/// read, each report calling through all the earlier ones.
private final class _DisposalHandler: Sendable {
    let call: @Sendable (DisposalError) -> Void
    init(call: @escaping @Sendable (DisposalError) -> Void) { self.call = call }
}

private let _unhandledDisposalHandler = _Locked(
    _DisposalHandler { error in
        _writeToStandardError("Assemblage: \(error)\n")
    })

extension DisposalError {
    /// The kinds of ``DisposalError``.
    ///
    /// New codes may be added: match with `==`, or switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"disposerFailed"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// A disposer threw (``DisposalError/Failure/underlying`` says what).
        public static var disposerFailed: Self { Self("disposerFailed") }
        /// Every failure is an instance that can only be disposed asynchronously, in a scope or container that was
        /// ended synchronously: end it with `await`.
        public static var requiresAsyncDisposal: Self { Self("requiresAsyncDisposal") }
        /// A scope was dropped without being ended: its synchronously disposable instances were disposed when its last
        /// reference went away, and the report went to ``DisposalError/unhandledFailureHandler``.
        public static var scopeNeverEnded: Self { Self("scopeNeverEnded") }
    }
}
