import Assemblage
import AssemblageHummingbird
import Hummingbird

/// The `/todos` routes' authentication stand-in: reads the user (`X-User`), provides it to the request's scope
/// (which Assemblage's `RequestScopeMiddleware` opened), starts the request's ``RequestTrace``, and puts `X-User`
/// (the user the request sent) and `X-Served-For` (the user the request's ``TodoService`` was made for) on the
/// response.
///
/// ```swift
/// router.group("todos").add(middleware: UserMiddleware())
/// ```
public struct UserMiddleware: RouterMiddleware {
    /// The request context this middleware works on.
    public typealias Context = TodoRequestContext

    /// Creates the middleware.
    public init() {}

    /// Runs the rest of the chain with the user in the request's scope.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context, with its scope.
    ///   - next: The rest of the chain.
    /// - Returns: The response, with the user headers.
    /// - Throws: `HTTPError` 401 or 400 for a missing or malformed `X-User`, and what the route throws.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let user = try UserID(header: request.headers[.user])
        let scope = try context.requireScope()
        try scope.provide(user)
        _ = try scope.require(RequestTrace.self)  // first made, so last disposed
        var context = context
        context.user = user
        context.logger[metadataKey: "user"] = "\(user)"
        var response = try await next(request, context)
        response.headers[.user] = user.value
        response.headers[.servedFor] = try await scope.resolveAsync(TodoService.self).builtFor.value
        return response
    }
}
