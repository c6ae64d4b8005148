#if Vapor
import AsyncHTTPClient
import Assemblage
import AssemblageVapor
import Testing
import Vapor
import VaporTesting

/// The Vapor integration on a server bound to 127.0.0.1, loaded with AsyncHTTPClient.
@Suite struct RequestScopeMiddlewareTests {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func concurrentRequestsEachSeeOnlyTheirOwnScopedValues() async throws {
        let ledger = Ledger()
        let count = 200
        let start = ContinuousClock.now
        let answers = try await serve(ledger) { _, port in
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
            #expect(
                fields.count == 5 && fields[0] == tag && fields[1] == tag && fields[2] == tag && fields[3] == "true",
                "\(tag) got \(answer.body)")
            if fields.count == 5 { workIDs.insert(fields[4]) }
        }
        #expect(workIDs.count == count)
        #expect(ledger.count(prefix: "made work") == count)
        #expect(ledger.count(prefix: "disposed work") == count)
        #expect(Set(ledger.all.filter { $0.hasPrefix("disposed work") }).count == count)
        print(
            "[figure] vapor: \(count) concurrent requests, \(workIDs.count) distinct scoped instances, "
                + "\(ledger.count(prefix: "disposed work")) disposed, in \(elapsed)")
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aThousandRequestsAtConcurrency32HaveNoErrorsAndDisposeEveryScopeOnce() async throws {
        let ledger = Ledger()
        let total = 1_000
        let concurrency = 32
        let start = ContinuousClock.now
        let failures = try await serve(ledger) { _, port in
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
        #expect(ledger.count(prefix: "made work") == total)
        #expect(ledger.count(prefix: "disposed work") == total)
        #expect(Set(ledger.all.filter { $0.hasPrefix("disposed work") }).count == total)
        print(
            "[figure] vapor: \(total) requests at concurrency \(concurrency), \(failures) errors, "
                + "\(ledger.count(prefix: "disposed work")) scopes disposed once each, in \(elapsed)")
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func applicationShutdownDisposesTheSharedInstancesInReverseCreationOrder() async throws {
        let ledger = Ledger()
        let container = try await serve(ledger) { app, port in
            try await withClient(connections: 1) { client in
                let answer = try await get(client, port: port, "shared", tag: "t")
                #expect(answer.status == 200)
            }
            #expect(!app.container.isShutDown)
            return app.container
        }
        #expect(container.isShutDown)
        #expect(
            ledger.all == [
                "made pool", "made cache", "made mailer",
                "disposed mailer", "disposed cache", "disposed pool",
            ])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func anAbortKeepsItsStatusAndReasonGetsTheHeadersAndStillEndsTheScope() async throws {
        let ledger = Ledger()
        let answer = try await serve(ledger) { _, port in
            try await withClient(connections: 1) { try await get($0, port: port, "abort", tag: "e1") }
        }
        #expect(answer.status == 409)
        #expect(answer.tag == "e1")
        #expect(answer.body.contains("Taken."))
        #expect(ledger.all == ["made work 1", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func anyOtherErrorIsA500WithTheHeadersAndStillEndsTheScope() async throws {
        let ledger = Ledger()
        let answer = try await serve(ledger) { _, port in
            try await withClient(connections: 1) { try await get($0, port: port, "failure", tag: "e2") }
        }
        #expect(answer.status == 500)
        #expect(answer.tag == "e2")
        #expect(ledger.all == ["made work 1", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aFailingProvideAnswersItsErrorWithTheHeadersAndRunsNoRoute() async throws {
        let ledger = Ledger()
        let answer = try await serve(ledger) { _, port in
            try await withClient(connections: 1) { try await get($0, port: port, "work", tag: nil) }
        }
        #expect(answer.status == 400)
        #expect(answer.tag == "none")
        #expect(answer.body.contains("Send X-Tag."))
        #expect(ledger.count(prefix: "made work") == 0)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aClientThatGivesUpStillHasItsScopeEndedOnce() async throws {
        let ledger = Ledger()
        try await serve(ledger) { _, port in
            try await withClient(connections: 1) { client in
                await #expect(throws: (any Error).self) {
                    _ = try await get(client, port: port, "slow", tag: "gone", timeout: .milliseconds(200))
                }
            }
            // The server notices the closed connection, or the route's 3 s pass: either way the scope ends.
            let deadline = ContinuousClock.now + .seconds(10)
            while ledger.count(prefix: "disposed work") == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(ledger.all == ["made work 1", "disposed work 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func aRouteWithoutTheMiddlewareIsA500ThatNamesTheFix() async throws {
        try await withApp { app in
            app.logger.logLevel = .critical
            app.get("unscoped") { req async throws -> String in
                _ = try req.scope
                return "never"
            }
            try await app.testing().test(.GET, "unscoped") { response in
                #expect(response.status == .internalServerError)
                #expect(response.body.string.contains("no request scope"))
            }
        }
        #expect(MissingRequestScopeError(path: "/unscoped").description.contains("RequestScopeMiddleware()"))
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func theContainerIsMadeOnFirstUseAndASetOneIsTheOneShutDown() async throws {
        let mine = Container(label: "mine")
        let made = try await withApp { app in
            let made = app.container
            #expect(made === app.container)
            app.container = mine
            #expect(app.container === mine)
            return made
        }
        #expect(mine.isShutDown)
        #expect(!made.isShutDown)  // replaced before the app ran: the app does not own it any more
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func requestsAfterShutdownAreAnswered503() async throws {
        try await withApp { app in
            app.logger.logLevel = .critical
            app.middleware.use(RequestScopeMiddleware())
            app.get("work") { _ in "never" }
            try await app.container.shutdown()
            try await app.testing().test(.GET, "work") { response in
                #expect(response.status == .serviceUnavailable)
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func withoutResponseHeadersErrorsPassThroughToTheErrorMiddleware() async throws {
        try await withApp { app in
            app.logger.logLevel = .critical
            app.middleware.use(RequestScopeMiddleware())  // after Vapor's ErrorMiddleware
            app.get("conflict") { _ async throws -> String in throw Abort(.conflict, reason: "Taken.") }
            try await app.testing().test(.GET, "conflict") { response in
                #expect(response.status == .conflict)
                #expect(response.body.string.contains("Taken."))
            }
        }
    }
}
#endif
