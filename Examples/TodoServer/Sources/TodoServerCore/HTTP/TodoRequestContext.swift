import Assemblage
import Hummingbird
import Logging

/// The context of one request: Hummingbird's core storage, plus the request's ``RequestID`` (from
/// ``APIResponseMiddleware``), and its ``UserID`` and dependency-injection ``Scope`` (from
/// ``RequestScopeMiddleware``).
///
/// ```swift
/// router.get("todos") { request, context in
///     try await context.requireScope().resolveAsync(TodoService.self).list()
/// }
/// ```
public struct TodoRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage
    /// The request's identifier, once ``APIResponseMiddleware`` has run.
    public var requestID: RequestID?
    /// The user the request acts for, once the middleware has run.
    public var user: UserID?
    /// The request's scope, once the middleware has run: it was given the request id and the user, and makes
    /// the request's `.scoped` services; it ends (disposing them) when the middleware returns.
    public var scope: Scope?

    /// Creates the context Hummingbird hands to the middleware chain.
    ///
    /// - Parameter source: Hummingbird's per-request source (channel, logger).
    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// The largest body read: 64 KiB, far more than a todo (a title has at most 500 characters) needs; a larger
    /// one is answered 413.
    public var maxUploadSize: Int { 64 * 1024 }

    /// The request's scope.
    ///
    /// - Returns: The scope ``RequestScopeMiddleware`` opened for this request.
    /// - Throws: `HTTPError(.internalServerError)` on a route that the middleware does not cover.
    public func requireScope() throws -> Scope {
        guard let scope else {
            throw HTTPError(.internalServerError, message: "This route has no request scope.")
        }
        return scope
    }

    /// The request's ``TodoService``, made for this request's user (once per request).
    ///
    /// - Returns: The service.
    /// - Throws: `HTTPError(.internalServerError)` on a route without a scope, or the container's
    ///   `ResolutionError`.
    public func todoService() async throws -> TodoService {
        try await requireScope().resolveAsync(TodoService.self)
    }
}
