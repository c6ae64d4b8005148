#if ServiceLifecycle
import Assemblage
import Foundation
import Logging
import ServiceLifecycle
import Testing

// Lifecycle with request scopes: a service of a `ServiceGroup` (made by `container.serviceGroup(running:…)`) that
// handles each request in a `withScope`, while the `ContainerService` waits to dispose the container's shared
// instances at graceful shutdown.

/// Records events in order, from any thread.
private final class ScopeEvents: @unchecked Sendable {  // @unchecked: `list` is guarded by `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func record(_ event: String) { lock.withLock { list.append(event) } }
    var all: [String] { lock.withLock { list } }
    func count(of event: String) -> Int { lock.withLock { list.filter { $0 == event }.count } }
}

/// The request a scope serves, provided by the worker.
private struct ScopeRequestID: Sendable, Equatable {
    let id: Int
}

/// Shared by every request; closed at shutdown.
private final class ScopePool: AsyncDisposable, Sendable {
    let events: ScopeEvents
    init(events: ScopeEvents) { self.events = events }
    func dispose() async throws {
        await Task.yield()
        events.record("pool closed")
    }
}

/// One request's unit of work over the shared pool.
private final class ScopeUnit: Disposable, Sendable {
    let request: ScopeRequestID
    let pool: ScopePool
    init(request: ScopeRequestID, pool: ScopePool) {
        self.request = request
        self.pool = pool
    }
    func dispose() throws { pool.events.record("unit \(request.id) disposed") }
}

/// Handles the given requests, each in a scope of its own, then waits for graceful shutdown.
private struct ScopeWorker: Service {
    let container: Container
    let pool: ScopePool
    let requests: [Int]
    let events: ScopeEvents

    func run() async throws {
        for id in requests {
            try await container.withScope(label: "request \(id)") { scope in
                try scope.provide(ScopeRequestID(id: id))
                let unit = try scope.require(ScopeUnit.self)
                #expect(unit === (try scope.require(ScopeUnit.self)))
                #expect(unit.pool === pool)
                events.record("request \(unit.request.id) handled")
            }
        }
        events.record("requests done")
        try? await gracefulShutdown()
        events.record("worker stopped")
    }
}

/// Is still handling a request when graceful shutdown begins, and finishes it.
private struct ScopeDrainingWorker: Service {
    let container: Container
    let events: ScopeEvents

    func run() async throws {
        try await container.withScope(label: "request 1") { scope in
            try scope.provide(ScopeRequestID(id: 1))
            _ = try scope.require(ScopeUnit.self)
            events.record("request 1 started")
            try? await gracefulShutdown()  // the request is in flight when shutdown begins
            events.record("request 1 finished")
        }
        events.record("worker stopped")
    }
}

/// A service that is `.scoped`: a group cannot run it, since nothing provides the scope.
private struct ScopedOnlyService: Service {
    func run() async throws {}
}

@Suite struct ServiceLifecycleScopeTests {
    private func app(_ events: ScopeEvents, requests: [Int] = []) -> Container {
        let container = Container(label: "app")
        container.register(ScopePool.self) { _ in ScopePool(events: events) }.inObjectScope(.container)
        container.registerScopedValue(ScopeRequestID.self)
        container.register(ScopeUnit.self) { r in
            ScopeUnit(request: try r.require(ScopeRequestID.self), pool: try r.require(ScopePool.self))
        }.inObjectScope(.scoped)
        container.register(ScopeWorker.self) { r in
            ScopeWorker(
                container: container, pool: try r.require(ScopePool.self), requests: requests,
                events: events)
        }
        container.register(ScopeDrainingWorker.self) { _ in
            ScopeDrainingWorker(container: container, events: events)
        }
        container.register(ScopedOnlyService.self) { _ in ScopedOnlyService() }.inObjectScope(.scoped)
        return container
    }

    /// Runs `group` until `ready`, then `whileRunning`, then triggers graceful shutdown and waits for the group.
    private func run(
        _ group: ServiceGroup, until ready: @escaping @Sendable () -> Bool,
        whileRunning: @Sendable () async throws -> Void = {}
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            while !ready() { try await Task.sleep(for: .milliseconds(5)) }
            try await whileRunning()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    @Test func eachRequestScopeDisposesItsUnitWhenItEndsAndTheSharedPoolClosesAtShutdownOnce() async throws {
        let events = ScopeEvents()
        let container = app(events, requests: [1, 2, 3])
        let group = try await container.serviceGroup(running: [ScopeWorker.self], logger: Logger(label: "test"))
        try await run(group) { events.all.contains("requests done") }
        #expect(
            events.all == [
                "request 1 handled", "unit 1 disposed",
                "request 2 handled", "unit 2 disposed",
                "request 3 handled", "unit 3 disposed",
                "requests done", "worker stopped", "pool closed",
            ])
    }

    @Test func aRequestInFlightAtGracefulShutdownFinishesAndIsDisposedBeforeTheContainer() async throws {
        let events = ScopeEvents()
        let container = app(events)
        _ = try container.require(ScopePool.self)  // the app's pool, made before any request
        let group = try await container.serviceGroup(
            running: [ScopeDrainingWorker.self],
            logger: Logger(label: "test"))
        try await run(group) { events.all.contains("request 1 started") }
        #expect(
            events.all == [
                "request 1 started", "request 1 finished", "unit 1 disposed", "worker stopped", "pool closed",
            ])
    }

    @Test func concurrentRequestScopesWhileTheGroupRunsKeepTheirOwnUnitsAndShareThePool() async throws {
        let events = ScopeEvents()
        let container = app(events)  // the worker handles no request itself: the test's tasks do
        let group = try await container.serviceGroup(running: [ScopeWorker.self], logger: Logger(label: "test"))
        let pool = try container.require(ScopePool.self)  // made when the group's worker was resolved
        try await run(
            group, until: { events.all.contains("requests done") },
            whileRunning: {
                let ids = try await withThrowingTaskGroup(of: Int.self) { tasks in
                    for id in 1...8 {
                        tasks.addTask {
                            try await container.withScope(label: "request \(id)") { scope in
                                try scope.provide(ScopeRequestID(id: id))
                                let unit = try scope.require(ScopeUnit.self)
                                #expect(unit.pool === pool)
                                return unit.request.id
                            }
                        }
                    }
                    return try await tasks.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(ids.sorted() == Array(1...8))
                for id in 1...8 { #expect(events.count(of: "unit \(id) disposed") == 1) }
                #expect(events.count(of: "pool closed") == 0)
            })
        #expect(events.count(of: "pool closed") == 1)
        #expect(Array(events.all.suffix(2)) == ["worker stopped", "pool closed"])
    }

    @Test func aScopedServiceCannotBeAGroupServiceAndNothingRuns() async {
        let events = ScopeEvents()
        let container = app(events)
        await #expect {
            _ = try await container.serviceGroup(running: [ScopedOnlyService.self], logger: Logger(label: "test"))
        } throws: { error in
            (error as? ResolutionError)?.code == .noActiveScope
        }
        #expect(events.all.isEmpty)
    }
}
#endif
