#if Vapor
public import Assemblage
public import Vapor

/// Opens a dependency-injection ``Scope`` of ``Vapor/Application/container`` for each request, gives it the
/// request's values, makes it the request's ``Vapor/Request/scope`` and ends it once the response is ready —
/// also when the route throws or the request's task is cancelled — disposing the request's instances, newest
/// first (trait `Vapor`).
///
/// ```swift
/// app.container.registerScopedValue(Request.self)   // optional: the middleware provides it when declared
/// app.middleware.use(RequestScopeMiddleware())
/// app.get("todos") { req in try await req.scope.resolveAsync(TodoService.self).list() }
/// ```
///
/// **Values from the request.** The request itself is provided to the scope when the container declares it;
/// anything else — chosen headers, the authenticated user — the `provide` closure provides:
///
/// ```swift
/// RequestScopeMiddleware { req, scope in
///     try scope.provide(try UserID(header: req.headers.first(name: "X-User")))   // throws 401: no route runs
/// }
/// ```
///
/// **Headers on every response.** `responseHeaders` reads values from the scope and puts them on the response,
/// on a success and on an error alike: with it, an error that reaches the middleware is answered here as Vapor's
/// default `ErrorMiddleware` answers it (status, reason and headers of an `AbortError`; 500 otherwise), with
/// the headers. Without it, errors pass through unchanged to the error middleware before it.
///
/// Vapor's default middleware is `RouteLoggingMiddleware` then `ErrorMiddleware`: `use(_:)` adds this one after
/// them, so a route's errors become responses inside the scope. With `responseHeaders`, add it first
/// (`app.middleware.use(…, at: .beginning)`) so that its headers are on every response. After the container's
/// shutdown a request is answered `503 Service Unavailable`.
///
/// The scope ends when the middleware returns the response, before Vapor writes its body: a streamed body that
/// resolves from the scope while it is written finds it ended; resolve what the body needs before returning.
public struct RequestScopeMiddleware: AsyncMiddleware {
    /// Gives the request's scope the values it provides; called before the rest of the chain, once the scope is
    /// the request's.
    public typealias Provide = @Sendable (_ request: Request, _ scope: Scope) async throws -> Void
    /// The headers to put on every response of the request, read from its scope.
    public typealias ResponseHeaders = @Sendable (_ scope: Scope) -> HTTPHeaders

    /// Each scope's label in diagnostics and logs.
    public let label: String
    private let provide: Provide
    private let responseHeaders: ResponseHeaders?

    /// Creates the middleware, with the values it provides to each request's scope.
    ///
    /// ```swift
    /// app.middleware.use(RequestScopeMiddleware { req, scope in
    ///     try scope.provide(try UserID(header: req.headers.first(name: "X-User")))
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - label: Each scope's label in diagnostics and logs.
    ///   - responseHeaders: The headers to put on every response, read from the scope; `nil` for none (then
    ///     errors pass through unchanged).
    ///   - provide: Provides the request's values to its scope; the request itself is provided before it when
    ///     the container declares `Request` as a scoped value.
    public init(label: String = "request", responseHeaders: ResponseHeaders? = nil, provide: @escaping Provide) {
        self.label = label
        self.responseHeaders = responseHeaders
        self.provide = provide
    }

    /// Creates the middleware: each request's scope gets the request (when the container declares `Request` as a
    /// scoped value) and nothing else.
    ///
    /// ```swift
    /// app.middleware.use(RequestScopeMiddleware())
    /// ```
    ///
    /// - Parameters:
    ///   - label: Each scope's label in diagnostics and logs.
    ///   - responseHeaders: The headers to put on every response, read from the scope; `nil` for none (then
    ///     errors pass through unchanged).
    public init(label: String = "request", responseHeaders: ResponseHeaders? = nil) {
        self.init(label: label, responseHeaders: responseHeaders) { _, _ in }
    }

    /// Runs the rest of the chain inside the request's scope, and ends the scope after it.
    ///
    /// - Parameters:
    ///   - request: The request; ``Vapor/Request/scope`` is its scope until the response is ready.
    ///   - next: The rest of the chain.
    /// - Returns: The response, with the declared headers.
    /// - Throws: What the chain, `provide` or the scope's end throws, unless there are response headers (then
    ///   the error is answered here); `Abort(.serviceUnavailable)` after the container's shutdown.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let container = request.application.container
        if container.isShutDown { throw Abort(.serviceUnavailable) }
        var headers = HTTPHeaders()
        do {
            let response = try await container.withRequestScope(
                label: label, request: request, responseHeaders: responseHeaders, headers: &headers
            ) { scope in
                request.storage[ScopeKey.self] = scope
                defer { request.storage[ScopeKey.self] = nil }
                try await provide(request, scope)
                return try await next.respond(to: request)
            }
            if responseHeaders != nil { response.headers.replace(with: headers) }
            return response
        } catch {
            // Also a disposal failure after a response was made: that response is lost, the error is answered.
            guard responseHeaders != nil else { throw error }
            let response = try await ErrorMiddleware.default(environment: request.application.environment)
                .respond(to: request, chainingTo: FailingResponder(error: error)).get()
            response.headers.replace(with: headers)
            return response
        }
    }
}

extension Request {
    /// The request's dependency-injection scope, which ``RequestScopeMiddleware`` opened for it (trait `Vapor`).
    ///
    /// ```swift
    /// app.get("todos") { req in
    ///     try await req.scope.resolveAsync(TodoService.self).list()   // this request's TodoService
    /// }
    /// ```
    ///
    /// Its `.scoped` instances are this request's, disposed when the response is ready.
    ///
    /// - Throws: ``MissingRequestScopeError`` (a 500 response, logged with the fix) on a route that no
    ///   ``RequestScopeMiddleware`` covers.
    public var scope: Scope {
        get throws(MissingRequestScopeError) {
            guard let scope = storage[ScopeKey.self] else { throw MissingRequestScopeError(path: url.path) }
            return scope
        }
    }
}

/// A route asked for its request's scope, and no ``RequestScopeMiddleware`` covers it: a mistake in the
/// application's set-up, answered `500 Internal Server Error` (trait `Vapor`).
///
/// ```swift
/// app.middleware.use(RequestScopeMiddleware())   // the fix
/// ```
public struct MissingRequestScopeError: AbortError, CustomStringConvertible {
    /// The request's path.
    public let path: String

    /// Creates the error.
    ///
    /// - Parameter path: The request's path.
    public init(path: String) { self.path = path }

    /// `500 Internal Server Error`.
    public var status: HTTPResponseStatus { .internalServerError }

    /// What the client reads: that the route has no request scope (nothing of the app's internals).
    public var reason: String { "This route has no request scope." }

    /// What went wrong, and the fix: Vapor's `ErrorMiddleware` logs it.
    public var description: String {
        "The route \(path) asked for its request scope, but no RequestScopeMiddleware runs before it: add "
            + "app.middleware.use(RequestScopeMiddleware()) (or to the route's group) before the route."
    }
}

/// The request's scope in its storage.
enum ScopeKey: StorageKey {
    typealias Value = Scope
}

/// A responder that fails with an error, for `ErrorMiddleware` to answer.
struct FailingResponder: Responder {
    let error: any Error

    func respond(to request: Request) -> EventLoopFuture<Response> {
        request.eventLoop.makeFailedFuture(error)
    }
}

extension HTTPHeaders {
    /// Sets every header of `headers`, replacing the values this already has for the same names.
    mutating func replace(with headers: HTTPHeaders) {
        for name in Set(headers.map { $0.name.lowercased() }) {
            remove(name: name)
        }
        for (name, value) in headers { add(name: name, value: value) }
    }
}
#endif
