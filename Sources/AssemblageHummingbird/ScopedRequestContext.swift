#if Hummingbird
public import Assemblage
public import Hummingbird
import Logging

/// A Hummingbird request context that carries the request's dependency-injection ``Scope``, which
/// ``RequestScopeMiddleware`` opens before the route runs and ends after the response (trait `Hummingbird`).
///
/// Any `RequestContext` adopts it with one stored property:
///
/// ```swift
/// struct AppContext: ScopedRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var scope: Scope?                                  // set by RequestScopeMiddleware
///     init(source: Source) { coreContext = .init(source: source) }
/// }
///
/// router.get("todos") { _, context in
///     try await context.resolveAsync(TodoService.self).list()   // this request's TodoService
/// }
/// ```
///
/// An app that needs nothing else in its context uses ``BasicScopedRequestContext``.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0, *)
public protocol ScopedRequestContext: RequestContext {
    /// The request's scope: `nil` until ``RequestScopeMiddleware`` has run, then the scope it opened for this
    /// request (it ends, disposing the request's instances, once the response is ready).
    var scope: Scope? { get set }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0, *)
extension ScopedRequestContext {
    /// The request's scope.
    ///
    /// ```swift
    /// let scope = try context.requireScope()
    /// ```
    ///
    /// - Returns: The scope ``RequestScopeMiddleware`` opened for this request.
    /// - Throws: ``MissingRequestScopeError`` (a 500 response) on a route that no ``RequestScopeMiddleware``
    ///   covers.
    public func requireScope() throws(MissingRequestScopeError) -> Scope {
        guard let scope else { throw MissingRequestScopeError(path: endpointPath) }
        return scope
    }

    /// Resolves a service in the request's scope, synchronously.
    ///
    /// ```swift
    /// let user = try context.require(UserID.self)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred when omitted.
    ///   - name: The registration name.
    /// - Returns: The service: a `.scoped` one is this request's.
    /// - Throws: ``MissingRequestScopeError`` without a scope, `ResolutionError` when it cannot be resolved.
    public func require<Service>(_ serviceType: Service.Type = Service.self, name: String? = nil) throws -> Service {
        try requireScope().require(Service.self, name: name)
    }

    /// Resolves a service in the request's scope: any registration, `async` factories included.
    ///
    /// ```swift
    /// let todos = try await context.resolveAsync(TodoService.self)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred when omitted.
    ///   - name: The registration name.
    ///   - isolation: The caller's actor, inferred.
    /// - Returns: The service: a `.scoped` one is this request's.
    /// - Throws: ``MissingRequestScopeError`` without a scope, `ResolutionError` when it cannot be resolved.
    public func resolveAsync<Service>(
        _ serviceType: Service.Type = Service.self, name: String? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Service {
        try await requireScope().resolveAsync(Service.self, name: name, isolation: isolation)
    }
}

/// A request context with Hummingbird's core storage and the request's ``Scope``: for an app whose context needs
/// nothing else.
///
/// ```swift
/// let router = Router(context: BasicScopedRequestContext.self)
/// router.add(middleware: RequestScopeMiddleware(container: container))
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0, *)
public struct BasicScopedRequestContext: ScopedRequestContext {
    /// Hummingbird's per-request storage (logger, parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage
    /// The request's scope, once ``RequestScopeMiddleware`` has run.
    public var scope: Scope?

    /// Creates the context Hummingbird hands to the middleware chain.
    ///
    /// - Parameter source: Hummingbird's per-request source (channel, logger).
    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}

/// A route asked for its request's scope, and no ``RequestScopeMiddleware`` covers it: a mistake in the router's
/// set-up, answered `500 Internal Server Error` and logged at error level with the fix.
///
/// ```swift
/// router.group("todos").add(middleware: RequestScopeMiddleware(container: container))   // the fix
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0, *)
public struct MissingRequestScopeError: HTTPResponseError, CustomStringConvertible {
    /// The route's path, when the router has matched one.
    public let path: String?

    /// Creates the error.
    ///
    /// - Parameter path: The route's path.
    public init(path: String?) { self.path = path }

    /// `500 Internal Server Error`.
    public var status: HTTPResponse.Status { .internalServerError }

    /// What went wrong, and the fix.
    public var description: String {
        "The route \(path ?? "(unmatched)") asked for its request scope, but no RequestScopeMiddleware runs before "
            + "it: add RequestScopeMiddleware(container:) to the router (or to the route's group) before the route."
    }

    /// Logs ``description`` at error level and answers 500 with a JSON message that says the route has no
    /// request scope (nothing of the app's internals).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context.
    /// - Returns: The response.
    /// - Throws: What encoding the body throws.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        context.logger.error("\(description)")
        return try HTTPError(.internalServerError, message: "This route has no request scope.")
            .response(from: request, context: context)
    }
}
#endif
