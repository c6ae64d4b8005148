import Assemblage
import AssemblageHummingbird
import Hummingbird
import Logging

/// The context of one request: Hummingbird's core storage, the request's dependency-injection ``Scope`` (from
/// Assemblage's `RequestScopeMiddleware`), and its ``RequestID`` and ``UserID`` (for the log and the error
/// messages).
///
/// ```swift
/// router.get("todos") { request, context in
///     try await context.todoService().list()
/// }
/// ```
public struct TodoRequestContext: ScopedRequestContext {
    /// Hummingbird's per-request storage (logger, parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage
    /// The request's scope, once `RequestScopeMiddleware` has run: it was given the request id (and, on
    /// `/todos`, the user), and makes the request's `.scoped` services; it ends (disposing them) once the
    /// response is ready.
    public var scope: Scope?
    /// The request's identifier, once `RequestScopeMiddleware` has run.
    public var requestID: RequestID?
    /// The user the request acts for, once ``UserMiddleware`` has run.
    public var user: UserID?

    /// Creates the context Hummingbird hands to the middleware chain.
    ///
    /// - Parameter source: Hummingbird's per-request source (channel, logger).
    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// The largest body read: 64 KiB, far more than a todo (a title has at most 500 characters) needs; a larger
    /// one is answered 413.
    public var maxUploadSize: Int { 64 * 1024 }

    /// The request's ``TodoService``, made for this request's user (once per request).
    ///
    /// - Returns: The service.
    /// - Throws: `MissingRequestScopeError` on a route without a scope, or the container's `ResolutionError`.
    public func todoService() async throws -> TodoService {
        try await resolveAsync(TodoService.self)
    }
}
