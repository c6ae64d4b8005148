#if ServiceLifecycle
import Assemblage
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// Records events in order, from any thread.
private final class Events: @unchecked Sendable {  // @unchecked: `list` is guarded by `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func record(_ event: String) { lock.withLock { list.append(event) } }
    var all: [String] { lock.withLock { list } }
}

/// A pool closed asynchronously at shutdown.
private final class Pool: AsyncDisposable, Sendable {
    let events: Events
    init(events: Events) { self.events = events }
    func dispose() async throws {
        await Task.yield()
        events.record("pool closed")
    }
}

/// A service that uses the pool and runs until graceful shutdown.
private struct Worker: Service {
    let pool: Pool
    let events: Events
    func run() async throws {
        events.record("worker running")
        try? await gracefulShutdown()
        events.record("worker stopped")
    }
}

/// The pool in a module of its own, as a Knit-style app would register it.
private struct PoolModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let events: Events
    func assemble(container: Container) {
        let events = events
        container.register(Pool.self) { _ in Pool(events: events) }.inObjectScope(.container)
    }
}

/// The worker's module, which depends on the pool's.
private struct WorkerModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [PoolModule.self] }
    let events: Events
    func assemble(container: Container) {
        let events = events
        container.register(Worker.self) { r in Worker(pool: try r.require(Pool.self), events: events) }
    }
}

/// Runs `group` until the worker has started, then shuts it down gracefully and waits for it.
private func runUntilTheWorkerRuns(_ group: ServiceGroup, _ events: Events) async throws {
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        while !events.all.contains("worker running") { try await Task.sleep(for: .milliseconds(5)) }
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
}

@Suite struct ServiceLifecycleTests {
    @Test func aModuleGraphsContainerServiceDisposesWhatItsModulesMade() async throws {
        let events = Events()
        let assembler = try ModuleAssembler([WorkerModule(events: events), PoolModule(events: events)])
        let group = try await assembler.container.serviceGroup(running: [Worker.self], logger: Logger(label: "test"))
        try await runUntilTheWorkerRuns(group, events)
        // The pool lives in PoolModule's container: shutting the assembler's container down reached it.
        #expect(events.all == ["worker running", "worker stopped", "pool closed"])
        #expect(throws: ResolutionError.self) { try assembler.resolver.require(Pool.self) }
    }

    private func app(_ events: Events) -> Container {
        let container = Container(label: "app")
        container.register(Pool.self) { _ in Pool(events: events) }.inObjectScope(.container)
        container.register(Worker.self) { r in Worker(pool: try r.require(Pool.self), events: events) }
        return container
    }

    @Test func gracefulShutdownStopsTheServicesThenDisposesTheContainerOnce() async throws {
        let events = Events()
        let container = app(events)
        let group = try await container.serviceGroup(
            running: [Worker.self],
            logger: Logger(label: "test"))
        try await runUntilTheWorkerRuns(group, events)
        #expect(events.all == ["worker running", "worker stopped", "pool closed"])
        try await container.shutdown()  // nothing left to dispose
        #expect(events.all.filter { $0 == "pool closed" }.count == 1)
    }

    @Test func containerServiceDisposesWhenTheGroupIsCancelled() async throws {
        let events = Events()
        let container = app(events)
        _ = try container.require(Pool.self)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [ContainerService(container)], logger: Logger(label: "test")))
        let run = Task { try await group.run() }
        try await Task.sleep(for: .milliseconds(20))
        run.cancel()
        _ = try? await run.value
        #expect(events.all == ["pool closed"])
    }

    @Test func aSiblingsFailureSurfacesItsErrorAndTheContainerIsStillDisposedToCompletion() async throws {
        struct BindFailed: Error {}
        /// Fails at once, as a server whose port is taken does.
        struct Server: Service {
            func run() async throws { throw BindFailed() }
        }
        /// Closes through a cancellation-aware API: in the group's cancelled task it would not close.
        final class Connections: AsyncDisposable, Sendable {
            let events: Events
            init(events: Events) { self.events = events }
            func dispose() async throws {
                try await Task.sleep(for: .milliseconds(5))
                events.record("connections closed")
            }
        }
        let events = Events()
        let container = Container(label: "app")
        container.register(Connections.self) { _ in Connections(events: events) }.inObjectScope(.container)
        container.register(Server.self) { r in
            _ = try r.require(Connections.self)
            return Server()
        }
        let group = try await container.serviceGroup(running: [Server.self], logger: Logger(label: "test"))
        await #expect(throws: BindFailed.self) { try await group.run() }
        #expect(events.all == ["connections closed"])
        #expect(container.isShutDown)
    }

    @Test func aServiceTheContainerCannotMakeFailsBeforeAnythingRuns() async {
        let container = Container(label: "app")
        await #expect(throws: ResolutionError.self) {
            _ = try await container.serviceGroup(running: [Worker.self], logger: Logger(label: "test"))
        }
    }
}
#endif
