import Assemblage
import Dispatch
import Foundation
import Testing

@Suite struct ConcurrencyStressTests {
    @Test func tasksAndThreadsResolveRegisterAndResetAtOnce() async throws {
        let container = Container()
        let constructions = Counter()
        container.register(SessionStore.self) { _ in
            await SessionStore(delayNanoseconds: 10_000, counter: constructions)
        }.inObjectScope(.container)
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        container.register(Wheel.self) { r in Wheel(engine: r.resolve(Engine.self)!) }
        container.register(SessionReporter.self) { r in
            SessionReporter(store: try await r.resolveAsync(SessionStore.self))
        }
        let failures = Counter()

        // Threads: synchronous resolves, registrations of new keys and resets, while tasks resolve async.
        let threads = Task.detached {
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for round in 0..<300 {
                    switch worker {
                    case 0: container.register(Cat.self, name: "cat \(round)") { _ in Cat() }
                    case 1: if round % 10 == 0 { container.resetObjectScope(.container) }
                    default: if container.resolve(Wheel.self) == nil { failures.increment() }
                    }
                }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    for _ in 0..<20 {
                        let reporter = try await container.resolveAsync(SessionReporter.self)
                        _ = await reporter.store.greeting()
                        if index % 2 == 0 { _ = try await container.resolveAsync(Wheel.self) }
                    }
                }
            }
            try await group.waitForAll()
        }
        await threads.value
        #expect(failures.count == 0)
        #expect(constructions.count >= 1)
        #expect(container.resolve(Cat.self, name: "cat 299") != nil)
    }

    @Test func asyncSingletonIsConstructedOnceWhileOtherServicesChurn() async throws {
        let counter = Counter()
        let container = Container()
        container.register(SessionStore.self) { _ in
            await SessionStore(delayNanoseconds: 1_000_000, counter: counter)
        }.inObjectScope(.singleton)
        container.register(Node.self) { r in
            _ = try await r.resolveAsync(SessionStore.self)
            return Node()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    _ = try await container.resolveAsync(Node.self)
                    container.resetObjectScope(.container)  // never clears a singleton
                }
            }
            try await group.waitForAll()
        }
        #expect(counter.count == 1)
    }

    @Test func synchronousFactoryThatResolvesOnAnotherThreadDoesNotDeadlock() async {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        container.register(Wheel.self) { r in
            // Resolve the dependency on another thread and wait for it.
            let engine = Slot<Engine>()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                engine.value = r.resolve(Engine.self)
                done.signal()
            }
            done.wait()
            return Wheel(engine: engine.value!)
        }.inObjectScope(.container)
        let wheels = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { await offMainThread { container.resolve(Wheel.self) != nil } } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wheels == 8)
    }

    @Test func asyncFactoryThatResolvesInADetachedTaskDoesNotDeadlock() async throws {
        let container = Container()
        container.register(SessionStore.self) { _ in await SessionStore() }.inObjectScope(.container)
        container.register(SessionReporter.self) { r in
            let store = try await Task.detached { try await r.resolveAsync(SessionStore.self) }.value
            return SessionReporter(store: store)
        }.inObjectScope(.container)
        let reporters = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<50 {
                group.addTask { ObjectIdentifier(try await container.resolveAsync(SessionReporter.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(reporters.count == 1)
    }

    @Test func manyTasksResolveMainActorAndAsyncServicesTogether() async throws {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() })
        container.register(SessionStore.self) { _ in await SessionStore() }.inObjectScope(.container)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    if index % 2 == 0 {
                        #expect(try await container.resolveAsync(ProfileModel.self).madeOnMainQueue)
                    } else {
                        _ = try await container.resolveAsync(SessionStore.self)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func wordsOfARegistrationsSecondBlockSetFromThreadsAtOnceAreAllKept() throws {
        // A registration's rarely used words (steps, disposers, the disposal cache, a weak scope's instance) live
        // in a block made by whichever thread sets one first: threads racing to make it must all end up in one.
        let completed = Counter()
        let disposed = Counter()
        for round in 0..<200 {
            let container = Container()
            let entry = container.register(Engine.self) { _ in Engine() }.inObjectScope(.scoped)
            container.register(Wheel.self) { _ in Wheel(engine: Engine()) }.inObjectScope(.weak)
            let scope = container.makeScope()
            let kept = LockedBox<Wheel?>(nil)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                switch worker {
                case 0: entry.initCompleted { _, _ in completed.increment() }
                case 1: entry.onDispose { _ in disposed.increment() }
                case 2: _ = scope.resolve(Engine.self)
                default: kept.set(container.resolve(Wheel.self))
                }
            }
            #expect(kept.value != nil, "round \(round): the weak registration lost its instance")
            #expect(container.resolve(Wheel.self) === kept.value)
            try scope.endSynchronously()
            let again = container.makeScope()
            _ = try again.require(Engine.self)
            try again.endSynchronously()
        }
        // Each round's second scope ran the step and the disposer set before it (the first scope may have made
        // its instance before either was set).
        #expect(completed.count >= 200)
        #expect(disposed.count >= 200)
    }
}

/// A value set by one thread and read after the others joined.
private final class LockedBox<Value>: @unchecked Sendable {  // @unchecked: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    func set(_ value: Value) { lock.withLock { stored = value } }
    var value: Value { lock.withLock { stored } }
}
