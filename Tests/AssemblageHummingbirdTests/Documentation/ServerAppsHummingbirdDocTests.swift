#if Hummingbird
import Assemblage
import AssemblageHummingbird
import AssemblageProperties
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
#if Configuration
import Configuration
#endif

// The Hummingbird side of the "Server Apps" article, compiled and run with the `Hummingbird` trait (see
// GettingStartedDocTests.swift in AssemblageTests for how article code is checked).

// snippet: server-apps-services
/// The app's connection pool: one for the app, closed when it stops.
final class Database: AsyncDisposable, Sendable {
    static func open() async throws -> Database { Database() }
    func dispose() async throws {
        // close the connections
    }
}

/// The user a request acts for, provided to each request's scope.
struct User: Sendable { let name: String }

/// What one request does: made once per request, for its user.
final class TodoService: Disposable, Sendable {
    let database: Database
    let user: User
    init(database: Database, user: User) {
        self.database = database
        self.user = user
    }
    func list() async throws -> [String] { ["\(user.name)'s first todo"] }
    func dispose() {
        // roll back what the request did not commit
    }
}

func makeContainer() -> Container {
    let container = Container(label: "app")
    container.register(Database.self) { _ in try await Database.open() }.inObjectScope(.container)
    container.registerScopedValue(User.self)
    container.register(TodoService.self) { r in
        TodoService(database: try await r.resolveAsync(Database.self), user: try r.require(User.self))
    }.inObjectScope(.scoped)
    return container
}
// end-snippet

@Suite("Docs: Server Apps (Hummingbird)") struct ServerAppsHummingbirdDocTests {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aScopePerRequestAndTheContainerShutDownWithTheApp() async throws {
        // snippet: server-apps-hummingbird
        let container = makeContainer()
        let router = Router(context: BasicScopedRequestContext.self)
        router.add(
            middleware: RequestScopeMiddleware(container: container) { request, _, scope in
                try scope.provide(User(name: request.headers[HTTPField.Name("X-User")!] ?? "guest"))
            })
        router.get("todos") { _, context in
            try await context.resolveAsync(TodoService.self).list().joined(separator: "\n")
        }
        var app = Application(router: router)
        app.addContainer(container)  // disposed after the server and every other service
        // try await app.runService()
        // end-snippet
        try await app.test(.router) { client in
            try await client.execute(uri: "/todos", method: .get, headers: [HTTPField.Name("X-User")!: "ada"]) {
                #expect(String(buffer: $0.body) == "ada's first todo")
            }
        }
        #expect(container.isShutDown)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func ownContextAndHeadersOnEveryResponse() async throws {
        let container = makeContainer()
        // snippet: server-apps-hummingbird-context
        struct AppContext: ScopedRequestContext {
            var coreContext: CoreRequestContextStorage
            var scope: Scope?  // the one stored property
            init(source: Source) { coreContext = .init(source: source) }
        }

        let router = Router(context: AppContext.self)
        router.add(
            middleware: RequestScopeMiddleware(
                container: container,
                responseHeaders: { scope in
                    // On every response: successes, errors the routes throw, a failed provide.
                    [HTTPField.Name("X-User")!: scope.resolve(User.self)?.name ?? "none"]
                }
            ) { request, context, scope in
                guard let name = request.headers[HTTPField.Name("X-User")!] else {
                    throw HTTPError(.unauthorized, message: "Send X-User.")  // no route runs
                }
                try scope.provide(User(name: name))
                context.logger[metadataKey: "user"] = "\(name)"
            })
        // end-snippet
        router.get("todos") { _, context in
            try await context.resolveAsync(TodoService.self).list().joined(separator: "\n")
        }
        var app = Application(router: router)
        app.addContainer(container)
        try await app.test(.router) { client in
            try await client.execute(uri: "/todos", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[HTTPField.Name("X-User")!] == "none")
            }
        }
    }

    #if Configuration
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func oneConfigReaderForTheServerAndTheContainer() async throws {
        // snippet: server-apps-hummingbird-configuration
        let reader = ConfigReader(providers: [
            EnvironmentVariablesProvider(environmentVariables: ["HTTP_PORT": "0", "TODOS_PAGE_SIZE": "50"])
        ])
        let container = makeContainer()
        container.addPropertySource(reader)  // factories: r.property("todos.pageSize", as: Int.self)
        let router = Router(context: BasicScopedRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(container: container))
        var app = Application(
            router: router, configuration: ApplicationConfiguration(reader: reader.scoped(to: "http")))
        app.addContainer(container)
        // end-snippet
        #expect(container.property("todos.pageSize", as: Int.self) == 50)
        #expect(app.configuration.address == .hostname("127.0.0.1", port: 0))
    }
    #endif
}
#endif
