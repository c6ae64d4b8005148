#if Vapor
import AsyncHTTPClient
import Assemblage
import AssemblageVapor
import NIOCore
import Synchronization
import Vapor
import VaporTesting

/// What the app made and disposed, in order, from any thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
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
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
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
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
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

/// Registers the app under test in `app.container` and adds its routes: three shared components, a scoped
/// `Work`, the scope middleware first, providing the tag and putting it on every response.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func configure(_ app: Application, ledger: Ledger) {
    app.logger.logLevel = .critical
    let container = app.container
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

    app.middleware.use(
        RequestScopeMiddleware(responseHeaders: { scope in
            ["X-Tag": scope.resolve(Tag.self)?.value ?? "none"]
        }) { request, scope in
            guard let tag = request.headers.first(name: "X-Tag") else {
                throw Abort(.badRequest, reason: "Send X-Tag.")
            }
            try scope.provide(Tag(value: tag))
        }, at: .beginning)

    // The request's own tag, the tag its Work was made with, the Request the scope was given and the Work's
    // identity, after a pause so that concurrent requests overlap.
    app.get("work") { req async throws -> String in
        let work = try req.scope.require(Work.self)
        let again = try await req.scope.resolveAsync(Work.self)
        try await Task.sleep(for: .milliseconds(20))
        let seen = try req.scope.require(Request.self).headers.first(name: "X-Tag") ?? "?"
        return "\(try req.scope.require(Tag.self).value) \(work.tag.value) \(seen) \(work === again) \(work.id)"
    }
    app.get("shared") { req async throws -> String in
        _ = try req.scope.require(Mailer.self)
        return "ok"
    }
    app.get("abort") { req async throws -> String in
        _ = try req.scope.require(Work.self)
        throw Abort(.conflict, reason: "Taken.")
    }
    app.get("failure") { req async throws -> String in
        _ = try req.scope.require(Work.self)
        throw TestFailure()
    }
    // Waits until cancelled (or 3 s): the client gives up first.
    app.get("slow") { req async throws -> String in
        _ = try req.scope.require(Work.self)
        try? await Task.sleep(for: .seconds(3))
        return "late"
    }
}

/// Runs a configured application on 127.0.0.1 (an ephemeral port) until `body` returns, then stops the server
/// and shuts the application down, which shuts its container down.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func serve<R>(_ ledger: Ledger, _ body: (Application, Int) async throws -> R) async throws -> R {
    try await withApp { app in
        configure(app, ledger: ledger)
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        do {
            guard let port = app.http.server.shared.localAddress?.port else { throw TestFailure() }
            let result = try await body(app, port)
            await app.server.shutdown()
            return result
        } catch {
            await app.server.shutdown()
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
