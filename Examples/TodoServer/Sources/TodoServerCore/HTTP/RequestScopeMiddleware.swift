import Assemblage
import Hummingbird
import Logging

/// Opens a request scope around the rest of the chain: reads the request id (`X-Request-ID`, or a new one) and the
/// user (`X-User`), provides them to the request's ``Scope``, hands the scope to the route in the context, and
/// ends the scope (disposing the request's instances) when the response is ready, also when the route throws.
///
/// Every response it returns, errors included, echoes `X-Request-ID`; responses of authenticated requests also
/// carry `X-User` (the user the request sent) and `X-Served-For` (the user the request's ``TodoService`` was made
/// for).
///
/// ```swift
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
    /// - Returns: The response, with the request id (and user) headers.
    /// - Throws: Only what turning an error into a response throws; route errors become responses here.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let requestID = RequestID(header: request.headers[.requestID])
        var context = context
        context.logger[metadataKey: "request_id"] = "\(requestID)"
        context.requestID = requestID
        var response: Response
        do {
            let user = try UserID(header: request.headers[.user])
            context.user = user
            context.logger[metadataKey: "user"] = "\(user)"
            response = try await container.withScope(label: "request") { scope in
                try scope.provide(requestID)
                try scope.provide(user)
                _ = try scope.require(RequestTrace.self)   // first made, so last disposed
                context.scope = scope
                var response = try await next(request, context)
                response.headers[.user] = user.value
                response.headers[.servedFor] = try await scope.resolveAsync(TodoService.self).builtFor.value
                return response
            }
        } catch {
            response = try Self.response(for: error, request: request, context: context)
        }
        response.headers[.requestID] = requestID.value
        return response
    }

    private static func response(for error: any Error, request: Request, context: Context) throws -> Response {
        if let error = error as? any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
        context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
        return try HTTPError(.internalServerError, message: "The server failed; the log has request id "
            + (context.requestID?.value ?? "?") + ".").response(from: request, context: context)
    }
}
