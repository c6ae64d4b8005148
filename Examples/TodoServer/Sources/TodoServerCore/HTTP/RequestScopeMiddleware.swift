import Assemblage
import Hummingbird
import Logging

/// Opens a request scope around the rest of the chain: reads the user (`X-User`), provides the request id (read
/// by ``APIResponseMiddleware``, the outer middleware) and the user to the request's ``Scope``, hands the scope to
/// the route in the context, and ends the scope (disposing the request's instances) when the response is ready,
/// also when the route throws.
///
/// Responses of authenticated requests carry `X-User` (the user the request sent) and `X-Served-For` (the user
/// the request's ``TodoService`` was made for). Errors go on to ``APIResponseMiddleware``, which makes them JSON
/// responses with the request id.
///
/// ```swift
/// router.add(middleware: APIResponseMiddleware())
/// router.group("todos").add(middleware: RequestScopeMiddleware(container: container))
/// ```
public struct RequestScopeMiddleware: RouterMiddleware {
    /// The request context this middleware works on.
    public typealias Context = TodoRequestContext

    /// The application's container, the parent of every request scope.
    public let container: Container

    /// Creates the middleware.
    ///
    /// - Parameter container: The application's container.
    public init(container: Container) { self.container = container }

    /// Runs the rest of the chain inside a request scope.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context.
    ///   - next: The rest of the chain.
    /// - Returns: The response, with the user headers.
    /// - Throws: `HTTPError` 401 or 400 for a missing or malformed `X-User` (no scope is opened), and what the
    ///   route or the scope throws.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let requestID = context.requestID ?? RequestID(header: request.headers[.requestID])
        context.requestID = requestID
        let user = try UserID(header: request.headers[.user])
        context.user = user
        context.logger[metadataKey: "user"] = "\(user)"
        return try await container.withScope(label: "request") { scope in
            try scope.provide(requestID)
            try scope.provide(user)
            _ = try scope.require(RequestTrace.self)   // first made, so last disposed
            context.scope = scope
            var response = try await next(request, context)
            response.headers[.user] = user.value
            response.headers[.servedFor] = try await scope.resolveAsync(TodoService.self).builtFor.value
            return response
        }
    }
}
