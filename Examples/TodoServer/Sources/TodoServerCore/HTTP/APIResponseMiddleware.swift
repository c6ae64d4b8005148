import HTTPTypes
import Hummingbird
import NIOCore

/// The paths the API serves and the methods of each: what the router routes, and what a 405's `Allow` header
/// lists. ``TodoServerApplication/makeRouter()`` adds exactly these routes (a test checks every method of every
/// path against them).
///
/// ```swift
/// APIRoutes.allowedMethods(for: "/todos/7")   // [.get, .head, .patch, .delete]
/// ```
public enum APIRoutes {
    /// Each path pattern (`:id` stands for one path segment) with the methods it serves, `HEAD` included
    /// (the router makes a `HEAD` for every `GET`).
    public static let all: [(path: String, methods: [HTTPRequest.Method])] = [
        ("/health", [.get, .head]),
        ("/todos", [.get, .head, .post]),
        ("/todos/:id", [.get, .head, .patch, .delete]),
    ]

    /// The methods served at a request path, or `nil` when the API has no such path.
    ///
    /// - Parameter path: The request's path, without the query.
    /// - Returns: The methods, in the order of ``all``.
    public static func allowedMethods(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for route in all {
            let pattern = route.path.split(separator: "/", omittingEmptySubsequences: true)
            guard pattern.count == segments.count else { continue }
            if zip(pattern, segments).allSatisfy({ $0.hasPrefix(":") || $0 == $1 }) { return route.methods }
        }
        return nil
    }
}

/// The error-to-response middleware, on the router right after Assemblage's `RequestScopeMiddleware` (which
/// puts `X-Request-ID` on every response, this one's included), so that it sees every request, routed or not:
///
/// - it turns every error into a JSON error response, `{"error": {"message": "…"}}`, with a message for the
///   statuses that come without one (413 for a body over the limit, 404 for an unknown path);
/// - a method that a known path does not serve gets 405 with an `Allow` header (the router alone would answer
///   404 with an empty body);
/// - an error that is not an HTTP error is logged with the request id and answered 500 without its details.
///
/// ```swift
/// let router = Router(context: TodoRequestContext.self)
/// router.add(middleware: RequestScopeMiddleware(container: container) { … })
/// router.add(middleware: APIResponseMiddleware())   // inside the scope: it wraps everything added after it
/// ```
public struct APIResponseMiddleware: RouterMiddleware {
    /// The request context this middleware works on.
    public typealias Context = TodoRequestContext

    /// Creates the middleware.
    public init() {}

    /// Runs the rest of the chain, and makes its error a JSON response.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context.
    ///   - next: The rest of the chain: the router's route, or its not-found responder.
    /// - Returns: The response.
    /// - Throws: Only what encoding an error body throws.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.response(for: error, request: request, context: context)
        }
    }

    private static func response(for error: any Error, request: Request, context: Context) throws -> Response {
        switch error {
        case let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound":
            // The router found no route: a path it does not have, or a method its path does not serve.
            let path = request.uri.path
            guard let allowed = APIRoutes.allowedMethods(for: path) else {
                return try HTTPError(
                    .notFound,
                    message: "There is no \(path); the API serves "
                        + APIRoutes.all.map(\.path).joined(separator: ", ") + "."
                ).response(from: request, context: context)
            }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            return try HTTPError(
                .methodNotAllowed, headers: [.allow: list],
                message: "\(path) takes \(list), not \(request.method.rawValue)."
            )
            .response(from: request, context: context)
        case var error as HTTPError:
            if error.body == nil { error.body = defaultMessage(for: error.status, context: context) }
            return try error.response(from: request, context: context)
        case is NIOTooManyBytesError:
            return try HTTPError(.contentTooLarge, message: defaultMessage(for: .contentTooLarge, context: context))
                .response(from: request, context: context)
        case let error as any HTTPResponseError:
            let response = try error.response(from: request, context: context)
            guard response.body.contentLength == 0 else { return response }
            var headers = response.headers
            headers[.contentLength] = nil
            headers[.contentType] = nil
            return try HTTPError(
                response.status, headers: headers,
                message: defaultMessage(for: response.status, context: context)
            )
            .response(from: request, context: context)
        default:
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try HTTPError(
                .internalServerError,
                message: "The server failed; the log has request id "
                    + (context.requestID?.value ?? "?") + "."
            ).response(from: request, context: context)
        }
    }

    private static func defaultMessage(for status: HTTPResponse.Status, context: Context) -> String {
        switch status {
        case .contentTooLarge:
            "The body is larger than the \(context.maxUploadSize / 1024) KiB the API accepts."
        default:
            "\(status.code) \(status.reasonPhrase)."
        }
    }
}
