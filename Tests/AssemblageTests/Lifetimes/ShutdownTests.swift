import Foundation
import Testing

@testable import Assemblage

/// A pool whose close is cancellation-aware, as a real connection pool's is: in a cancelled task it would not
/// close (it throws `CancellationError`).
private final class CancellationAwarePool: AsyncDisposable, Sendable {
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }

    func dispose() async throws {
        try await Task.sleep(for: .milliseconds(1))
        log.record("closed")
    }
}

/// What a resolve on another thread returned.
private final class Outcome<Value>: @unchecked Sendable {  // @unchecked: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: Result<Value, any Error>?
    func set(_ value: Result<Value, any Error>) { lock.withLock { stored = value } }
    var value: Result<Value, any Error>? { lock.withLock { stored } }
}

/// `shutdown()` is final: afterwards the container, its scopes and `withScope` fail with typed errors.
@Suite struct ShutdownTests {
    func isShutDownError(_ error: any Error, _ type: String) -> Bool {
        guard let error = error as? ResolutionError, error.code == .containerShutDown else { return false }
        return error.description.hasPrefix("\(type) was resolved after its container was shut down.")
            && error.description.contains("Container \"app\" was shut down at ")
            && error.description.contains(" UTC, ")
    }

    /// Resolves `type` on another thread, whose factory signals `started` and waits for `proceed`; shuts the
    /// container down while the factory runs, lets it finish, and returns what the resolve got.
    func resolveRacingTheShutdown<Service>(
        _ type: Service.Type, _ container: Container, _ started: DispatchSemaphore, _ proceed: DispatchSemaphore
    ) async throws -> Result<Service, any Error> {
        let result = Outcome<Service>()
        let thread = Thread {
            result.set(Result { try container.require(Service.self) })
        }
        thread.start()
        started.wait()
        try await container.shutdown()  // while the factory runs
        proceed.signal()
        while result.value == nil { try await Task.sleep(for: .milliseconds(1)) }
        return try #require(result.value)
    }

    @Test func aResolveAfterShutdownFailsNamingTheContainerAndWhen() async throws {
        let log = DisposalLog()
        let container = Container(label: "app")
        container.register(Tracked.self) { _ in Tracked("pool", log: log) }.inObjectScope(.container)
        container.register(Engine.self) { _ in Engine() }
        _ = try container.require(Tracked.self)
        try await container.shutdown()
        #expect(container.isShutDown)
        #expect(log.entries == ["pool"])
        // Never a silent revival: no new pool that nothing would dispose.
        #expect { try container.require(Tracked.self) } throws: { isShutDownError($0, "Tracked") }
        #expect { try container.require(Engine.self) } throws: { isShutDownError($0, "Engine") }
        #expect(container.resolve(Engine.self) == nil)
        await #expect { try await container.resolveAsync(Engine.self) } throws: { isShutDownError($0, "Engine") }
        // Not "not registered": a missing registration after shutdown is the shutdown too.
        #expect { try container.require(Wheel.self) } throws: { isShutDownError($0, "Wheel") }
        #expect(log.entries == ["pool"])
    }

    @Test func aShutDownChildResolvesNothingOfItsParentEither() async throws {
        let parent = Container(label: "parent")
        parent.register(Engine.self) { _ in Engine() }
        let child = Container(parent: parent, label: "app")
        try await child.shutdown()
        #expect { try child.require(Engine.self) } throws: { isShutDownError($0, "Engine") }
        #expect(throws: Never.self) { try parent.require(Engine.self) }  // the parent is its own
    }

    @Test func scopesMadeBeforeOrAfterShutdownResolveNothing() async throws {
        let container = Container(label: "app")
        container.register(Engine.self) { _ in Engine() }
        container.register(Audit.self) { _ in Audit(request: RequestValue(id: 1)) }.inObjectScope(.scoped)
        let before = container.makeScope()
        _ = try before.require(Audit.self)
        try await container.shutdown()
        #expect { try before.require(Engine.self) } throws: { isShutDownError($0, "Engine") }
        let after = container.makeScope()
        #expect { try after.require(Audit.self) } throws: { isShutDownError($0, "Audit") }
        await #expect {
            try await container.withScope { _ in Issue.record("the body ran after shutdown") }
        } throws: { error in
            (error as? ContainerError)?.code == .shutDown
                && "\(error)".hasPrefix("Container \"app\" was shut down at ")
                && "\(error)".hasSuffix("; it makes no more scopes.")
        }
        #expect { try container.withSynchronousScope { _ in 1 } } throws: { ($0 as? ContainerError)?.code == .shutDown }
        try await before.end()
        try await after.end()
    }

    @Test func anInstanceWhoseCreationRacesTheShutdownIsDisposedNotLeaked() async throws {
        let log = DisposalLog()
        let container = Container(label: "app")
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        container.register(Tracked.self) { _ in
            started.signal()
            proceed.wait()
            return Tracked("late", log: log)
        }.inObjectScope(.singleton)
        let outcome = try await resolveRacingTheShutdown(Tracked.self, container, started, proceed)
        #expect(throws: ResolutionError.self) { try outcome.get() }
        #expect { try outcome.get() } throws: { isShutDownError($0, "Tracked") }
        #expect(log.entries == ["late"])
        #expect { try container.require(Tracked.self) } throws: { isShutDownError($0, "Tracked") }
    }

    @Test func anInstanceWithNothingToDisposeWhoseCreationRacesTheShutdownFailsToo() async throws {
        final class Plain: Sendable {}
        let container = Container(label: "app")
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        container.register(Plain.self) { _ in
            started.signal()
            proceed.wait()
            return Plain()
        }.inObjectScope(.singleton)
        let outcome = try await resolveRacingTheShutdown(Plain.self, container, started, proceed)
        #expect { try outcome.get() } throws: { isShutDownError($0, "Plain") }
    }

    @Test func sharedInstancesWithNothingToDisposeMakeNoDisposalList() throws {
        final class Plain: Sendable {}
        let container = Container(label: "app")
        container.register(Plain.self) { _ in Plain() }.inObjectScope(.container)
        container.register(Plain.self, name: "forever") { _ in Plain() }.inObjectScope(.singleton)
        _ = try container.require(Plain.self)
        _ = try container.require(Plain.self, name: "forever")
        #expect(container.existingDisposals == nil)
        container.register(Tracked.self) { _ in Tracked("kept", log: DisposalLog()) }.inObjectScope(.container)
        _ = try container.require(Tracked.self)
        #expect(container.existingDisposals != nil)
    }

    @Test func aFactoryThatShutsItsOwnContainerDownFailsWithoutHangingAndItsInstanceIsDisposed() throws {
        let log = DisposalLog()
        let container = Container(label: "app")
        container.register(Tracked.self) { [weak container] _ in
            try container?.shutdownSynchronously()
            return Tracked("self-ending", log: log)
        }.inObjectScope(.container)
        #expect { try container.require(Tracked.self) } throws: { isShutDownError($0, "Tracked") }
        #expect(log.entries == ["self-ending"])
        #expect(container.isShutDown)
    }

    @Test func shutdownInACancelledTaskStillRunsEveryDisposerToCompletion() async throws {
        let log = DisposalLog()
        let container = Container(label: "app")
        container.register(CancellationAwarePool.self) { _ in CancellationAwarePool(log: log) }.inObjectScope(
            .container)
        _ = try container.require(CancellationAwarePool.self)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            #expect(Task.isCancelled)
            try await container.shutdown()
        }
        try await task.value
        #expect(log.entries == ["closed"])
    }

    @Test func shutdownReleasesEveryInstanceBeforeItReturns() async throws {
        let log = DisposalLog()
        for round in 0..<100 {
            let container = Container(label: "app")
            let names = (0..<4).map { "pool\($0)" }
            for name in names {
                container.register(AsyncTracked.self, name: name) { _ in AsyncTracked(name, log: log) }
                    .inObjectScope(.container)
            }
            var watched = AliveWatch<AsyncTracked>()
            for name in names { watched.watch(try container.require(AsyncTracked.self, name: name)) }
            try await container.shutdown()
            #expect(watched.alive == 0, "round \(round): \(watched.alive) instances outlived shutdown()")
        }
        #expect(log.entries.count == 400)
    }

    @Test func withScopeInACancelledTaskStillRunsEveryDisposerToCompletion() async throws {
        let log = DisposalLog()
        let container = Container(label: "app")
        container.register(CancellationAwarePool.self) { _ in CancellationAwarePool(log: log) }.inObjectScope(.scoped)
        struct Failure: Error {}
        let task = Task {
            try await container.withScope { scope in
                _ = try scope.require(CancellationAwarePool.self)
                withUnsafeCurrentTask { $0?.cancel() }
                throw Failure()
            }
        }
        // The body's own error surfaces, not a CancellationError from disposal.
        await #expect(throws: Failure.self) { try await task.value }
        #expect(log.entries == ["closed"])
    }

    @Test func scopeEndInACancelledTaskStillRunsEveryDisposerToCompletion() async throws {
        let log = DisposalLog()
        let container = Container(label: "app")
        container.register(CancellationAwarePool.self) { _ in CancellationAwarePool(log: log) }.inObjectScope(.scoped)
        let scope = container.makeScope()
        _ = try scope.require(CancellationAwarePool.self)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await scope.end()
        }
        try await task.value
        #expect(log.entries == ["closed"])
    }

    /// A `.container` registration's disposer is found by the instance's type each time it makes one (it keeps no
    /// cache of its own): a disposable type is disposed in every container, including the instance made after a
    /// reset (the reset one is the holder's), and a type that is not disposable, made by the same factory once it
    /// returns another type, is not.
    @Test func sharedInstancesAreDisposedByTheirTypeInEveryContainerAndAfterAReset() throws {
        let log = DisposalLog()
        let makesTracked = Locked(true)
        func app() -> Container {
            let container = Container()
            container.register(AnyObject.self) { _ -> AnyObject in
                makesTracked.withLock { $0 } ? Tracked("shared", log: log) : NotDisposable()
            }.inObjectScope(.container)
            return container
        }
        let first = app()
        let second = app()
        _ = try first.require(AnyObject.self)
        _ = try second.require(AnyObject.self)
        first.resetObjectScope(.container)
        _ = try first.require(AnyObject.self)
        try first.shutdownSynchronously()
        try second.shutdownSynchronously()
        #expect(log.entries == ["shared", "shared"])

        makesTracked.withLock { $0 = false }
        let third = app()
        #expect(!(try third.require(AnyObject.self) is Tracked))
        try third.shutdownSynchronously()
        #expect(log.entries.count == 2)
    }
}

/// A class that is not disposable.
private final class NotDisposable {}
