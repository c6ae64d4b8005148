#if Hummingbird
public import Assemblage
public import Hummingbird
import Logging

/// Opens a dependency-injection ``Scope`` for each request, gives it the request's values, hands it to the route
/// through the context (``ScopedRequestContext/scope``) and ends it once the response is ready — also when the
/// route throws or the request's task is cancelled — disposing the request's instances, newest first
/// (trait `Hummingbird`).
///
/// ```swift
/// container.registerScopedValue(Request.self)          // optional: the middleware provides it when declared
/// let router = Router(context: BasicScopedRequestContext.self)
/// router.add(middleware: RequestScopeMiddleware(container: container))
/// ```
///
/// **Values from the request.** The request itself is provided to the scope when the container declares it
/// (`container.registerScopedValue(Request.self)`); anything else — chosen headers, the authenticated user — the
/// `provide` closure provides, and it may also change the context (its logger's metadata, say):
///
/// ```swift
/// RequestScopeMiddleware(container: container) { request, context, scope in
///     try scope.provide(RequestID(header: request.headers[.requestID]))
///     try scope.provide(try UserID(header: request.headers[.user]))   // throws 401: no route runs
/// }
/// ```
///
/// **Headers on every response.** `responseHeaders` reads values from the scope and puts them on the response:
/// on a success, and on every error the route, the `provide` closure or a later middleware throws — an error is
/// then rethrown wrapped in an ``ErrorWithResponseHeaders``, which makes the same response as the error would
/// have, with the headers. Without `responseHeaders`, errors pass through unchanged.
///
/// ```swift
/// RequestScopeMiddleware(container: container, responseHeaders: { scope in
///     [.requestID: scope.resolve(RequestID.self)?.value ?? ""]
/// })
/// ```
///
/// Add it before the routes (and before the middleware) that use the scope; put it first on the router to give
/// every route a scope. After ``Container/shutdown()`` a request is answered `503 Service Unavailable`.
///
/// The scope ends when the middleware returns the response, before Hummingbird writes its body: a streamed body
/// that resolves from the scope while it is written finds it ended (``ResolutionError/Code/scopeEnded``); resolve what
/// the body needs before returning the response.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0, *)
public struct RequestScopeMiddleware<Context: ScopedRequestContext>: RouterMiddleware {
    /// Gives the request's scope the values it provides (and may change the context); called before the rest of
    /// the chain, with the scope already in the context.
    public typealias Provide =
        @Sendable (_ request: Request, _ context: inout Context, _ scope: Scope) async throws
        -> Void
    /// The headers to put on every response of the request, read from its scope.
    public typealias ResponseHeaders = @Sendable (_ scope: Scope) -> HTTPFields

    /// The container whose scopes the requests get.
    public let container: Container
    /// Each scope's label in diagnostics and logs.
    public let label: String
    private let provide: Provide
    private let responseHeaders: ResponseHeaders?

    /// Creates the middleware, with the values it provides to each request's scope.
    ///
    /// ```swift
    /// RequestScopeMiddleware(container: container) { request, context, scope in
    ///     try scope.provide(try UserID(header: request.headers[.user]))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - container: The application's container: each request gets a scope of it.
    ///   - label: Each scope's label in diagnostics and logs.
    ///   - responseHeaders: The headers to put on every response, read from the scope; `nil` for none (then
    ///     errors pass through unchanged).
    ///   - provide: Provides the request's values to its scope; the request itself is provided before it when
    ///     the container declares `Request` as a scoped value.
    public init(
        container: Container, label: String = "request", responseHeaders: ResponseHeaders? = nil,
        provide: @escaping Provide
    ) {
        self.container = container
        self.label = label
        self.responseHeaders = responseHeaders
        self.provide = provide
    }

    /// Creates the middleware: each request's scope gets the request (when the container declares `Request` as a
    /// scoped value) and nothing else.
    ///
    /// ```swift
    /// router.add(middleware: RequestScopeMiddleware(container: container))
    /// ```
    ///
    /// - Parameters:
    ///   - container: The application's container: each request gets a scope of it.
    ///   - label: Each scope's label in diagnostics and logs.
    ///   - responseHeaders: The headers to put on every response, read from the scope; `nil` for none (then
    ///     errors pass through unchanged).
    public init(container: Container, label: String = "request", responseHeaders: ResponseHeaders? = nil) {
        self.init(container: container, label: label, responseHeaders: responseHeaders) { _, _, _ in }
    }

    /// Runs the rest of the chain inside the request's scope, and ends the scope after it.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context; the rest of the chain gets it with ``ScopedRequestContext/scope`` set.
    ///   - next: The rest of the chain.
    /// - Returns: The response, with the declared headers.
    /// - Throws: What the chain, `provide` or the scope's end throws (wrapped in ``ErrorWithResponseHeaders`` when
    ///   there are response headers); `HTTPError(.serviceUnavailable)` after the container's shutdown.
    public func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if container.isShutDown { throw HTTPError(.serviceUnavailable) }
        var context = context
        var headers = HTTPFields()
        do {
            var response = try await container.withRequestScope(
                label: label, request: request, responseHeaders: responseHeaders, headers: &headers
            ) { scope in
                context.scope = scope
                try await provide(request, &context, scope)
                return try await next(request, context)
            }
            if responseHeaders != nil { response.headers.replace(with: headers) }
            return response
        } catch let error as ErrorWithResponseHeaders {
            throw error
        } catch {
            // Also a disposal failure after a response was made: that response is lost, the error is answered.
            guard responseHeaders != nil else { throw error }
            throw ErrorWithResponseHeaders(error, headers: headers)
        }
    }
}

/// An error thrown inside a ``RequestScopeMiddleware`` that declares response headers: it answers what the
/// error would have answered, with those headers added (trait `Hummingbird`).
///
/// An error that is an `HTTPResponseError` (such as `HTTPError`) makes its own response; any other error is
/// answered `500 Internal Server Error` without a body, as Hummingbird answers it, and logged at error level with
/// the request's logger (its details never reach the client). A middleware outside the scope middleware that maps
/// errors to responses finds the original in ``underlying``:
///
/// ```swift
/// } catch let error as ErrorWithResponseHeaders {
///     let original = error.underlying
/// }
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0, *)
public struct ErrorWithResponseHeaders: HTTPResponseError, CustomStringConvertible {
    /// The error thrown.
    public let underlying: any Error
    /// The headers added to its response.
    public let headers: HTTPFields

    /// Wraps an error.
    ///
    /// - Parameters:
    ///   - underlying: The error.
    ///   - headers: The headers its response gets.
    public init(_ underlying: any Error, headers: HTTPFields) {
        self.underlying = underlying
        self.headers = headers
    }

    /// The underlying error's status, or `500 Internal Server Error`.
    public var status: HTTPResponse.Status {
        (underlying as? any HTTPResponseError)?.status ?? .internalServerError
    }

    /// The underlying error's description.
    public var description: String { String(describing: underlying) }

    /// The underlying error's response (`500` without a body for an error that makes none), with ``headers``.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context.
    /// - Returns: The response.
    /// - Throws: What the underlying error's `response(from:context:)` throws.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        if let underlying = underlying as? any HTTPResponseError {
            response = try underlying.response(from: request, context: context)
        } else {
            // A cancelled request is no failure of the app's.
            if !(underlying is CancellationError) {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: underlying))"])
            }
            response = Response(status: .internalServerError)
        }
        response.headers.replace(with: headers)
        return response
    }
}

extension HTTPFields {
    /// Sets every field of `fields`, replacing the values this already has for the same names.
    mutating func replace(with fields: HTTPFields) {
        for name in Set(fields.map(\.name)) {
            self[values: name] = fields[values: name]
        }
    }
}
#endif
