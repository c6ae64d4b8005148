#if Hummingbird
import AsyncHTTPClient
import Assemblage
import AssemblageHummingbird
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// What the app made and disposed, in order, from any thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
final class Ledger: Sendable {
    private let events = Mutex<[String]>([])
    private let counter = Mutex(0)

    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
    func count(prefix: String) -> Int { all.filter { $0.hasPrefix(prefix) }.count }
    func nextID() -> Int {
        counter.withLock {
            $0 += 1
            return $0
        }
    }
}

/// A request's tag, from its `X-Tag` header: a value each request scope provides.
struct Tag: Sendable, Equatable {
    let value: String
}

/// One request's unit of work: `.scoped`, disposed when the request's scope ends.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
final class Work: Disposable, Sendable {
    let id: Int
    let tag: Tag
    let ledger: Ledger
    init(id: Int, tag: Tag, ledger: Ledger) {
        self.id = id
        self.tag = tag
        self.ledger = ledger
        ledger.record("made work \(id)")
    }
    func dispose() { ledger.record("disposed work \(id)") }
}

/// An application-lifetime component, disposed at shutdown.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
final class Component: AsyncDisposable, Sendable {
    let name: String
    let ledger: Ledger
    init(_ name: String, ledger: Ledger) {
        self.name = name
        self.ledger = ledger
        ledger.record("made \(name)")
    }
    func dispose() async { ledger.record("disposed \(name)") }
}

struct Pool: Sendable { let component: Component }
struct Cache: Sendable { let component: Component }
struct Mailer: Sendable { let component: Component }

struct TestFailure: Error {}

extension HTTPField.Name {
    static var tag: Self { Self("X-Tag")! }
}

/// The app under test: a container with three shared components and a scoped `Work`, and routes that use the
/// request's scope.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
struct TestApp {
    let ledger = Ledger()
    let container = Container(label: "test-app")

    init() {
        let ledger = ledger
        container.register(Pool.self) { _ in Pool(component: Component("pool", ledger: ledger)) }
            .inObjectScope(.container).onDispose { await $0.component.dispose() }
        container.register(Cache.self) { r in
            _ = try r.require(Pool.self)
            return Cache(component: Component("cache", ledger: ledger))
        }.inObjectScope(.container).onDispose { await $0.component.dispose() }
        container.register(Mailer.self) { r in
            _ = try r.require(Cache.self)
            return Mailer(component: Component("mailer", ledger: ledger))
        }.inObjectScope(.container).onDispose { await $0.component.dispose() }
        container.registerScopedValue(Tag.self)
        container.registerScopedValue(Request.self)
        container.register(Work.self) { r in
            Work(id: ledger.nextID(), tag: try r.require(Tag.self), ledger: ledger)
        }.inObjectScope(.scoped)
    }

    /// The router: the scope middleware first, providing the tag and putting it on every response.
    func router() -> Router<BasicScopedRequestContext> {
        let ledger = ledger
        let router = Router(context: BasicScopedRequestContext.self)
        router.add(
            middleware: RequestScopeMiddleware(
                container: container,
                responseHeaders: { scope in
                    [.tag: scope.resolve(Tag.self)?.value ?? "none"]
                }
            ) { request, _, scope in
                guard let tag = request.headers[.tag] else { throw HTTPError(.badRequest, message: "Send X-Tag.") }
                try scope.provide(Tag(value: tag))
            })
        // The request's own tag, the tag its Work was made with and the Work's identity, after a pause so that
        // concurrent requests overlap.
        router.get("work") { request, context in
            let work = try context.require(Work.self)
            let again = try await context.resolveAsync(Work.self)
            try await Task.sleep(for: .milliseconds(20))
            let seen = try context.require(Request.self).headers[.tag] ?? "?"
            return "\(try context.require(Tag.self).value) \(work.tag.value) \(seen) \(work === again) \(work.id)"
        }
        router.get("shared") { _, context in
            _ = try context.require(Mailer.self)
            return "ok"
        }
        router.get("http-error") { _, context -> String in
            _ = try context.require(Work.self)
            throw HTTPError(.conflict, message: "Taken.")
        }
        router.get("failure") { _, context -> String in
            _ = try context.require(Work.self)
            throw TestFailure()
        }
        // Waits until cancelled (or 3 s): the client gives up first.
        router.get("slow") { _, context in
            _ = try context.require(Work.self)
            do {
                try await Task.sleep(for: .seconds(3))
            } catch {
                ledger.record("route cancelled")
                throw error
            }
            return "late"
        }
        return router
    }

    /// The application on 127.0.0.1, an ephemeral port, with the container's shutdown among its services.
    func application(onPort: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        var app = Application(
            router: router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await onPort($0.localAddress?.port ?? 0) },
            logger: Logger(label: "test-app"))
        app.addContainer(container)
        return app
    }

    /// Runs the application until `body` returns, then shuts it down gracefully and waits for the container's
    /// disposal.
    func serve<R: Sendable>(_ body: @Sendable (Int) async throws -> R) async throws -> R {
        try await serveApplication(application, body)
    }
}

/// Runs the application `makeApplication` builds (given the callback that receives its port) until `body` returns,
/// then shuts it down gracefully and waits for its services, the container's disposal among them.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
func serveApplication<App: ApplicationProtocol, R: Sendable>(
    _ makeApplication: (@escaping @Sendable (Int) async -> Void) -> App,
    _ body: @Sendable (Int) async throws -> R
) async throws -> R {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = makeApplication { port in
        continuation.yield(port)
        continuation.finish()
    }
    let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test-app")))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure() }
        do {
            let result = try await body(port)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            throw error
        }
    }
}

/// A client with enough connections for every request of a burst to be in flight at once.
@discardableResult
func withClient<R>(connections: Int, _ body: (HTTPClient) async throws -> R) async throws -> R {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Status, the `X-Tag` header and the body of one request.
func get(
    _ client: HTTPClient, port: Int, _ path: String, tag: String?,
    timeout: TimeAmount = .seconds(30)
) async throws -> (status: UInt, tag: String?, body: String) {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/\(path)")
    if let tag { request.headers.add(name: "X-Tag", value: tag) }
    let response = try await client.execute(request, timeout: timeout)
    let body = try await response.body.collect(upTo: 1 << 20)
    return (response.status.code, response.headers.first(name: "X-Tag"), String(buffer: body))
}
#endif
