#if Hummingbird
import AsyncHTTPClient
import Assemblage
import AssemblageHummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Testing

/// The Hummingbird integration on a server bound to 127.0.0.1, loaded with AsyncHTTPClient.
@Suite struct RequestScopeMiddlewareTests {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func concurrentRequestsEachSeeOnlyTheirOwnScopedValues() async throws {
        let app = TestApp()
        let count = 200
        let start = ContinuousClock.now
        let answers = try await app.serve { port in
            try await withClient(connections: count) { client in
                try await withThrowingTaskGroup(of: (String, (status: UInt, tag: String?, body: String)).self) {
                    tasks in
                    for index in 0..<count {
                        let tag = "request-\(index)"
                        tasks.addTask { (tag, try await get(client, port: port, "work", tag: tag)) }
                    }
                    return try await tasks.reduce(into: []) { $0.append($1) }
                }
            }
        }
        let elapsed = start.duration(to: .now)
        #expect(answers.count == count)
        var workIDs = Set<String>()
        for (tag, answer) in answers {
            let fields = answer.body.split(separator: " ").map(String.init)
            #expect(answer.status == 200)
            #expect(answer.tag == tag)
            // The tag provided to the scope, the tag the scoped Work was made with, the Request the scope was given,
            // one Work per request.
            #expect(
                fields.count == 5 && fields[0] == tag && fields[1] == tag && fields[2] == tag && fields[3] == "true",
                "\(tag) got \(answer.body)")
            if fields.count == 5 { workIDs.insert(fields[4]) }
        }
        #expect(workIDs.count == count)
        #expect(app.ledger.count(prefix: "made work") == count)
        #expect(app.ledger.count(prefix: "disposed work") == count)
        #expect(Set(app.ledger.all.filter { $0.hasPrefix("disposed work") }).count == count)
        print(
            "[figure] hummingbird: \(count) concurrent requests, \(workIDs.count) distinct scoped instances, "
                + "\(app.ledger.count(prefix: "disposed work")) disposed, in \(elapsed)")
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aThousandRequestsAtConcurrency32HaveNoErrorsAndDisposeEveryScopeOnce() async throws {
        let app = TestApp()
        let total = 1_000
        let concurrency = 32
        let start = ContinuousClock.now
        let failures = try await app.serve { port in
            try await withClient(connections: concurrency) { client in
                try await withThrowingTaskGroup(of: Int.self) { tasks in
                    var next = 0
                    var failures = 0
                    func send(_ index: Int) {
                        tasks.addTask {
                            let tag = "load-\(index)"
                            guard let answer = try? await get(client, port: port, "work", tag: tag),
                                answer.status == 200, answer.tag == tag,
                                answer.body.hasPrefix("\(tag) \(tag) \(tag) true")
                            else { return 1 }
                            return 0
                        }
                    }
                    while next < concurrency {
                        send(next)
                        next += 1
                    }
                    while let failed = try await tasks.next() {
                        failures += failed
                        if next < total {
                            send(next)
                            next += 1
                        }
                    }
                    return failures
                }
            }
        }
        let elapsed = start.duration(to: .now)
        #expect(failures == 0)
        #expect(app.ledger.count(prefix: "made work") == total)
        #expect(app.ledger.count(prefix: "disposed work") == total)
        #expect(Set(app.ledger.all.filter { $0.hasPrefix("disposed work") }).count == total)
        print(
            "[figure] hummingbird: \(total) requests at concurrency \(concurrency), \(failures) errors, "
                + "\(app.ledger.count(prefix: "disposed work")) scopes disposed once each, in \(elapsed)")
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func shutdownDisposesTheSharedInstancesInReverseCreationOrderAfterTheLastRequest() async throws {
        let app = TestApp()
        try await app.serve { port in
            try await withClient(connections: 1) { client in
                let answer = try await get(client, port: port, "shared", tag: "t")
                #expect(answer.status == 200)
            }
            #expect(!app.container.isShutDown)
        }
        #expect(app.container.isShutDown)
        #expect(
            app.ledger.all == [
                "made pool", "made cache", "made mailer",
                "disposed mailer", "disposed cache", "disposed pool",
            ])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func anHTTPErrorKeepsItsResponseGetsTheHeadersAndStillEndsTheScope() async throws {
        let app = TestApp()
        let answer = try await app.serve { port in
            try await withClient(connections: 1) { try await get($0, port: port, "http-error", tag: "e1") }
        }
        #expect(answer.status == 409)
        #expect(answer.tag == "e1")
        #expect(answer.body.contains("Taken."))
        #expect(app.ledger.all == ["made work 1", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func anyOtherErrorIsA500WithTheHeadersAndStillEndsTheScope() async throws {
        let app = TestApp()
        let answer = try await app.serve { port in
            try await withClient(connections: 1) { try await get($0, port: port, "failure", tag: "e2") }
        }
        #expect(answer.status == 500)
        #expect(answer.tag == "e2")
        #expect(app.ledger.all == ["made work 1", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aFailingProvideAnswersItsErrorWithTheHeadersAndRunsNoRoute() async throws {
        let app = TestApp()
        let answer = try await app.serve { port in
            try await withClient(connections: 1) { try await get($0, port: port, "work", tag: nil) }
        }
        #expect(answer.status == 400)
        #expect(answer.tag == "none")
        #expect(answer.body.contains("Send X-Tag."))
        #expect(app.ledger.count(prefix: "made work") == 0)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aClientThatGivesUpStillHasItsScopeEndedOnce() async throws {
        let app = TestApp()
        try await app.serve { port in
            try await withClient(connections: 1) { client in
                await #expect(throws: (any Error).self) {
                    _ = try await get(client, port: port, "slow", tag: "gone", timeout: .milliseconds(200))
                }
            }
            // The server notices the closed connection, or the route's 3 s pass: either way the scope ends.
            let deadline = ContinuousClock.now + .seconds(10)
            while app.ledger.count(prefix: "disposed work") == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(app.ledger.all == ["made work 1", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aCancelledRequestTaskEndsItsScopeOnce() async throws {
        let app = TestApp()
        let ledger = app.ledger
        try await Application(router: app.router()).test(.router) { client in
            let request = Task {
                try await client.execute(uri: "/slow", method: .get, headers: [.tag: "cancelled"]) { _ in }
            }
            while ledger.count(prefix: "made work") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            request.cancel()
            _ = await request.result
        }
        #expect(ledger.all == ["made work 1", "route cancelled", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aRouteWithoutTheMiddlewareIsA500ThatNamesTheFix() async throws {
        let router = Router(context: BasicScopedRequestContext.self)
        router.get("unscoped") { _, context in
            _ = try context.requireScope()
            return "never"
        }
        let app = Application(router: router)
        try await app.test(.router) { client in
            try await client.execute(uri: "/unscoped", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(String(buffer: response.body).contains("no request scope"))
            }
        }
        #expect(MissingRequestScopeError(path: "/unscoped").description.contains("add RequestScopeMiddleware"))
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test(arguments: [TestingSetup.router, .live, .ahc(.http)])
    func withHummingbirdTestingTheContainerIsShutDownWhenTheTestReturns(_ setup: TestingSetup) async throws {
        let app = TestApp()
        var application = Application(router: app.router())
        application.addContainer(app.container)
        try await application.test(setup) { client in
            try await client.execute(uri: "/work", method: .get, headers: [.tag: "router"]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.tag] == "router")
                #expect(String(buffer: response.body).hasPrefix("router router router true"))
            }
        }
        #expect(app.container.isShutDown)
        #expect(app.ledger.all == ["made work 1", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func requestsAfterShutdownAreAnswered503() async throws {
        let app = TestApp()
        try await app.container.shutdown()
        try await Application(router: app.router()).test(.router) { client in
            try await client.execute(uri: "/work", method: .get, headers: [.tag: "late"]) { response in
                #expect(response.status == .serviceUnavailable)
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func addContainerRunningResolvesTheServicesAndStopsThemBeforeTheContainer() async throws {
        let app = TestApp()
        let ledger = app.ledger
        app.container.register(Relay.self) { r in Relay(ledger: ledger, pool: try r.require(Pool.self)) }
        var application = Application(router: app.router())
        try await application.addContainer(app.container, running: [Relay.self])
        try await application.test(.router) { _ in
            while !ledger.all.contains("relay running") { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(ledger.all == ["made pool", "relay running", "relay stopped", "disposed pool"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func withoutResponseHeadersErrorsPassThroughUnchanged() async throws {
        let container = Container(label: "plain")
        let router = Router(context: BasicScopedRequestContext.self)
        router.add(middleware: CatchingMiddleware())
        router.add(middleware: RequestScopeMiddleware(container: container))
        router.get("conflict") { _, _ -> String in throw HTTPError(.conflict) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/conflict", method: .get) { response in
                #expect(response.headers[.tag] == "HTTPError")
            }
        }
    }
}

/// A service the container resolves for the application's ServiceGroup.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
struct Relay: Service {
    let ledger: Ledger
    let pool: Pool
    func run() async throws {
        ledger.record("relay running")
        try? await gracefulShutdown()
        ledger.record("relay stopped")
    }
}

/// Names the type of the error that reaches it, in `X-Tag`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
struct CatchingMiddleware: RouterMiddleware {
    typealias Context = BasicScopedRequestContext
    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Response(status: .ok, headers: [.tag: "\(type(of: error))"])
        }
    }
}
#endif
