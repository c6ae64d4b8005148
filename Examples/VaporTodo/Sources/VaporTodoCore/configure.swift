import Assemblage
import AssemblageVapor
import Vapor

extension Todo: Content {}

/// The body of `POST /todos`.
struct NewTodo: Content {
    var title: String
}

/// Sets the application up: its registrations in `app.container`, the request-scope middleware, the routes.
///
/// ```swift
/// let app = try await Application.make(.detect())
/// try configure(app)
/// try await app.execute()
/// try await app.asyncShutdown()   // the container disposes the audit log, then the store
/// ```
///
/// | service | scope | made from |
/// |---|---|---|
/// | ``DisposalObserver`` | container | the one given, or one that logs at debug level |
/// | ``TodoStore`` | container | empty; disposed at shutdown, after the audit log |
/// | ``AuditLog`` | container | over the store; flushed at shutdown |
/// | ``RequestID`` | scoped value | every request: the caller's `X-Request-ID` or a new one |
/// | ``UserID`` | scoped value | the `/todos` requests: `X-User` |
/// | ``RequestTrace`` | scoped | per `/todos` request; disposed when its scope ends |
/// | ``TodoService`` | scoped | per `/todos` request, for its user |
///
/// - Parameters:
///   - app: The application.
///   - observer: Told of every disposal (tests record them); `nil` to log them at debug level.
/// - Throws: Nothing today; Vapor's `configure` convention.
public func configure(_ app: Application, observer: (any DisposalObserver)? = nil) throws {
    let container = app.container  // made here; shut down by app.asyncShutdown()
    let logger = app.logger
    let observer = observer ?? LoggingObserver(logger: logger)
    container.register((any DisposalObserver).self) { _ in observer }.inObjectScope(.container)
    container.register(TodoStore.self) { r in TodoStore(observer: try r.require()) }.inObjectScope(.container)
    container.register(AuditLog.self) { r in
        AuditLog(store: try r.require(), observer: try r.require(), logger: logger)
    }.inObjectScope(.container)

    container.registerScopedValue(RequestID.self)
    container.registerScopedValue(UserID.self)
    container.register(RequestTrace.self) { r in
        RequestTrace(requestID: try r.require(), observer: try r.require())
    }.inObjectScope(.scoped)
    container.register(TodoService.self) { r in
        TodoService(user: try r.require(), requestID: try r.require(), store: try r.require(), audit: try r.require())
    }.inObjectScope(.scoped)

    // First, so that every response — errors, /health, unknown paths — carries X-Request-ID.
    app.middleware.use(
        RequestScopeMiddleware(responseHeaders: { scope in
            ["X-Request-ID": scope.resolve(RequestID.self)?.value ?? ""]
        }) { req, scope in
            let id = RequestID(header: req.headers.first(name: "X-Request-ID"))
            try scope.provide(id)
            req.logger[metadataKey: "request_id"] = "\(id)"
        }, at: .beginning)

    app.get("health") { _ in "ok" }
    let todos = app.grouped("todos").grouped(UserMiddleware())
    todos.get { req async throws -> [Todo] in
        try await req.scope.resolveAsync(TodoService.self).list()
    }
    todos.post { req async throws -> Response in
        let new = try req.content.decode(NewTodo.self)
        guard (1...500).contains(new.title.count) else {
            throw Abort(.badRequest, reason: "A title has 1 to 500 characters.")
        }
        let todo = try await req.scope.resolveAsync(TodoService.self).add(title: new.title)
        let response = try await todo.encodeResponse(status: .created, for: req)
        response.headers.replaceOrAdd(name: .location, value: "/todos/\(todo.id)")
        return response
    }
}

/// Reads the user (`X-User`) and provides it to the request's scope, starts the request's trace, and puts
/// `X-User` and `X-Served-For` (the user the request's ``TodoService`` was made for) on the response, so that a
/// client can check that request values never leak.
struct UserMiddleware: AsyncMiddleware {
    func respond(to req: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let user = try UserID(header: req.headers.first(name: "X-User"))
        let scope = try req.scope
        try scope.provide(user)
        _ = try scope.require(RequestTrace.self)  // first made, so last disposed
        req.logger[metadataKey: "user"] = "\(user)"
        let response = try await next.respond(to: req)
        response.headers.replaceOrAdd(name: "X-User", value: user.value)
        response.headers.replaceOrAdd(
            name: "X-Served-For",
            value: try await scope.resolveAsync(TodoService.self).user.value)
        return response
    }
}

/// Logs each disposal at debug level.
struct LoggingObserver: DisposalObserver {
    let logger: Logger
    func didDispose(_ component: String) { logger.debug("disposed", metadata: ["component": "\(component)"]) }
}
