import Assemblage
import Hummingbird
import Logging

/// The context of one request: Hummingbird's core storage, plus what ``RequestScopeMiddleware`` adds: the
/// request's ``RequestID``, its ``UserID`` and its services.
///
/// ```swift
/// router.get("todos") { request, context in
///     try await context.todoService().list()
/// }
/// ```
public struct TodoRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage
    /// The request's identifier, once the middleware has run.
    public var requestID: RequestID?
    /// The user the request acts for, once the middleware has run.
    public var user: UserID?
    /// The request's services, once the middleware has run.
    public var services: RequestServices?

    /// Creates the context Hummingbird hands to the middleware chain.
    ///
    /// - Parameter source: Hummingbird's per-request source (channel, logger).
    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// The request's ``TodoService``.
    ///
    /// - Returns: The service made for this request's user.
    /// - Throws: `HTTPError(.internalServerError)` on a route that ``RequestScopeMiddleware`` does not cover, or
    ///   the container's resolution error.
    public func todoService() async throws -> TodoService {
        guard let services else {
            throw HTTPError(.internalServerError, message: "This route has no request scope.")
        }
        return try await services.todoService()
    }
}

/// The services of one request (provisional: made by hand from the container until the library's request scopes
/// land).
public final class RequestServices: Sendable {
    /// The request.
    public let requestID: RequestID
    /// The user.
    public let user: UserID
    private let container: Container

    init(requestID: RequestID, user: UserID, container: Container) {
        self.requestID = requestID
        self.user = user
        self.container = container
    }

    /// The request's todo service.
    ///
    /// - Returns: A service for this request's user.
    /// - Throws: The container's resolution error.
    public func todoService() async throws -> TodoService {
        TodoService(requestID: requestID, user: user,
                    repository: try await container.resolveAsync((any TodoRepository).self),
                    audit: try await container.resolveAsync(AuditLog.self),
                    logger: try container.require(Logger.self))
    }
}
