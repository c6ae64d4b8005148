#if Vapor
import Assemblage
import AssemblageVapor
import Testing
import Vapor
import VaporTesting

// The Vapor side of the "Server Apps" article, compiled and run with the `Vapor` trait (see
// GettingStartedDocTests.swift in AssemblageTests for how article code is checked). The services are the
// article's (ServerAppsHummingbirdDocTests.swift holds that snippet); this target has its own copy.

enum ServerAppsVaporDoc {
    final class Database: AsyncDisposable, Sendable {
        static func open() async throws -> Database { Database() }
        func dispose() async throws {}
    }

    struct User: Sendable { let name: String }

    final class TodoService: Disposable, Sendable {
        let database: Database
        let user: User
        init(database: Database, user: User) {
            self.database = database
            self.user = user
        }
        func list() async throws -> [String] { ["\(user.name)'s first todo"] }
        func dispose() {}
    }

    static func register(in container: Container) {
        container.register(Database.self) { _ in try await Database.open() }.inObjectScope(.container)
        container.registerScopedValue(User.self)
        container.register(TodoService.self) { r in
            TodoService(database: try await r.resolveAsync(Database.self), user: try r.require(User.self))
        }.inObjectScope(.scoped)
    }

    // snippet: server-apps-vapor
    static func configure(_ app: Application) throws {
        register(in: app.container)  // app.container: made on first use, shut down with the app
        app.middleware.use(
            RequestScopeMiddleware { req, scope in
                try scope.provide(User(name: req.headers.first(name: "X-User") ?? "guest"))
            })
        app.get("todos") { req in
            try await req.scope.resolveAsync(TodoService.self).list().joined(separator: "\n")
        }
    }
    // end-snippet

    @Suite("Docs: Server Apps (Vapor)") struct Samples {
        @Test func aScopePerRequestAndTheContainerShutDownWithTheApp() async throws {
            let container = try await withApp { app in
                app.logger.logLevel = .critical
                try configure(app)
                try await app.testing().test(.GET, "todos", headers: ["X-User": "ada"]) { response in
                    #expect(response.body.string == "ada's first todo")
                }
                return app.container
            }
            #expect(container.isShutDown)
        }

        @Test func headersOnEveryResponse() async throws {
            try await withApp { app in
                app.logger.logLevel = .critical
                register(in: app.container)
                // snippet: server-apps-vapor-headers
                app.middleware.use(
                    RequestScopeMiddleware(responseHeaders: { scope in
                        // On every response: successes, errors the routes throw, a failed provide.
                        ["X-User": scope.resolve(User.self)?.name ?? "none"]
                    }) { req, scope in
                        guard let name = req.headers.first(name: "X-User") else {
                            throw Abort(.unauthorized, reason: "Send X-User.")  // no route runs
                        }
                        try scope.provide(User(name: name))
                    }, at: .beginning)  // first: around Vapor's ErrorMiddleware too
                // end-snippet
                app.get("todos") { req in
                    try await req.scope.resolveAsync(TodoService.self).list().joined(separator: "\n")
                }
                try await app.testing().test(.GET, "todos") { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers.first(name: "X-User") == "none")
                }
            }
        }

        @Test func aContainerOfYourOwn() async throws {
            let assembled = Container(label: "assembled")
            try await withApp { app in
                // snippet: server-apps-vapor-own-container
                app.container = assembled  // before the app boots; it is shut down with the app
                // end-snippet
            }
            #expect(assembled.isShutDown)
        }
    }
}
#endif
