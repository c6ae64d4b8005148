import Assemblage
import Testing

@Suite struct DisposalTests {
    /// A scope with a chain: handler → repository → connection, all scoped.
    func chain(_ log: DisposalLog) -> Container {
        let container = Container()
        container.register(Tracked.self, name: "connection") { _ in Tracked("connection", log: log) }
            .inObjectScope(.scoped)
        container.register(Tracked.self, name: "repository") { r in
            Tracked("repository", log: log, dependencies: [try r.require(Tracked.self, name: "connection")])
        }.inObjectScope(.scoped)
        container.register(Tracked.self, name: "handler") { r in
            Tracked("handler", log: log, dependencies: [try r.require(Tracked.self, name: "repository")])
        }.inObjectScope(.scoped)
        return container
    }

    @Test func endingAScopeDisposesInReverseCreationOrderExactlyOnce() throws {
        let log = DisposalLog()
        let scope = chain(log).makeScope()
        let handler = try scope.require(Tracked.self, name: "handler")
        try scope.endSynchronously()
        try scope.endSynchronously()  // a second end disposes nothing
        #expect(log.entries == ["handler", "repository", "connection"])
        #expect(handler.disposals == 1)
    }

    @Test func withScopeDisposesWhenTheBodyReturns() throws {
        let log = DisposalLog()
        let name = try chain(log).withSynchronousScope { scope in
            try scope.require(Tracked.self, name: "repository").name
        }
        #expect(name == "repository")
        #expect(log.entries == ["repository", "connection"])
    }

    @Test func withScopeDisposesWhenTheBodyThrowsAndRethrowsItsError() {
        struct BodyFailed: Error {}
        let log = DisposalLog()
        #expect(throws: BodyFailed.self) {
            try chain(log).withSynchronousScope { scope in
                _ = try scope.require(Tracked.self, name: "handler")
                throw BodyFailed()
            }
        }
        #expect(log.entries == ["handler", "repository", "connection"])
    }

    @Test func asyncWithScopeDisposesOnCancellationToo() async {
        let log = DisposalLog()
        let container = chain(log)
        let task = Task {
            try await container.withScope { scope in
                _ = try scope.require(Tracked.self, name: "handler")
                try await Task.sleep(for: .seconds(30))
            }
        }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(log.entries == ["handler", "repository", "connection"])
    }

    @Test func disposerFailuresAreCollectedAndTheOthersStillDisposed() {
        let log = DisposalLog()
        let container = chain(log)
        container.register(FailingDisposal.self) { _ in FailingDisposal() }.inObjectScope(.scoped)
        #expect {
            try container.withSynchronousScope { scope in
                _ = try scope.require(Tracked.self, name: "repository")
                _ = try scope.require(FailingDisposal.self)
            }
        } throws: { error in
            guard let error = error as? DisposalError else { return false }
            return error.failures.count == 1 && error.failures[0].key.description == "FailingDisposal"
                && error.description.contains("socket already closed")
        }
        #expect(log.entries == ["repository", "connection"])
    }

    @Test func anAsyncOnlyDisposableEndedSynchronouslyIsReportedNotSkipped() {
        let log = DisposalLog()
        let container = Container()
        container.register(AsyncTracked.self) { _ in AsyncTracked("pool", log: log) }.inObjectScope(.scoped)
        #expect {
            try container.withSynchronousScope { _ = try $0.require(AsyncTracked.self) }
        } throws: { error in
            (error as? DisposalError)?.failures.first?.requiresAsyncDisposal == true
        }
        #expect(log.entries.isEmpty)
    }

    @Test func anAsyncEndAwaitsAsyncDisposers() async throws {
        let log = DisposalLog()
        let container = Container()
        container.register(AsyncTracked.self) { _ in AsyncTracked("pool", log: log) }.inObjectScope(.scoped)
        container.register(Tracked.self) { r in
            _ = try r.require(AsyncTracked.self)
            return Tracked("client", log: log)
        }.inObjectScope(.scoped)
        try await container.withScope { _ = try $0.require(Tracked.self) }
        #expect(log.entries == ["client", "pool"])
    }

    @Test func anAsyncEndReleasesEveryInstanceBeforeItReturns() async throws {
        // More instances than a scope keeps inline, so that some live in the overflow the disposing task handles.
        let log = DisposalLog()
        let container = Container()
        let names = (0..<20).map { "part\($0)" }
        for name in names {
            container.register(AsyncTracked.self, name: name) { _ in AsyncTracked(name, log: log) }
                .inObjectScope(.scoped)
        }
        for _ in 0..<200 {
            let scope = container.makeScope()
            var watched = AliveWatch<AsyncTracked>()
            for name in names { watched.watch(try scope.require(AsyncTracked.self, name: name)) }
            try await scope.end()
            #expect(watched.alive == 0, "\(watched.alive) instances outlived end()")
        }
        #expect(log.entries.count == 200 * names.count)
    }

    @Test func onDisposeReplacesTheProtocolAndNotDisposedOptsOut() async throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self, name: "closure") { _ in Tracked("closure", log: DisposalLog()) }
            .inObjectScope(.scoped)
            .onDispose { tracked in log.record("onDispose \(tracked.name)") }
        container.register(Tracked.self, name: "async") { _ in Tracked("async", log: DisposalLog()) }
            .inObjectScope(.scoped)
            .onDispose { tracked async in
                await Task.yield()
                log.record("async onDispose \(tracked.name)")
            }
        container.register(Tracked.self, name: "borrowed") { _ in Tracked("borrowed", log: log) }
            .inObjectScope(.scoped)
            .notDisposed()
        try await container.withScope { scope in
            for name in ["closure", "async", "borrowed"] { _ = try scope.require(Tracked.self, name: name) }
        }
        #expect(log.entries == ["async onDispose async", "onDispose closure"])
    }

    @Test func transientsMadeThroughAScopeAreDisposedWithItButNotOthers() throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self) { _ in Tracked("transient", log: log) }.inObjectScope(.transient)
        _ = try container.require(Tracked.self)  // outside a scope: the caller owns it
        try container.withSynchronousScope { scope in
            _ = try scope.require(Tracked.self)
            _ = try scope.require(Tracked.self)
        }
        #expect(log.entries == ["transient", "transient"])
    }

    @Test func providedValuesAreNotDisposed() throws {
        let log = DisposalLog()
        let container = Container()
        container.registerScopedValue(Tracked.self)
        try container.withSynchronousScope { scope in try scope.provide(Tracked("provided", log: log)) }
        #expect(log.entries.isEmpty)
    }

    @Test func shutdownDisposesSharedInstancesInReverseCreationOrderOnce() async throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self, name: "pool") { _ in Tracked("pool", log: log) }.inObjectScope(.container)
        container.register(Tracked.self, name: "cache") { r in
            Tracked("cache", log: log, dependencies: [try r.require(Tracked.self, name: "pool")])
        }.inObjectScope(.singleton)
        container.register(AsyncTracked.self) { _ in AsyncTracked("metrics", log: log) }.inObjectScope(.container)
        _ = try container.require(Tracked.self, name: "cache")
        _ = try container.require(AsyncTracked.self)
        try await container.shutdown()
        try await container.shutdown()  // a second shutdown does nothing
        #expect(log.entries == ["metrics", "cache", "pool"])
    }

    @Test func disposeInstancesDisposesAndKeepsTheContainerOpen() async throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self) { _ in Tracked("pool", log: log) }.inObjectScope(.container)
        let first = try container.require(Tracked.self)
        try await container.disposeInstances()
        #expect(log.entries == ["pool"])
        #expect(!container.isShutDown)
        // What it makes next is a new instance, disposed by the next call (or by shutdown).
        #expect(try container.require(Tracked.self) !== first)
        try await container.shutdown()
        #expect(log.entries == ["pool", "pool"])
    }

    @Test func aResetForgetsInstancesInsteadOfDisposingThem() throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self) { _ in Tracked("cache", log: log) }.inObjectScope(.container)
        _ = try container.require(Tracked.self)
        container.resetObjectScope(.container)
        try container.shutdownSynchronously()
        #expect(log.entries.isEmpty)
    }

    @Test func aScopeDroppedWithoutEndingDisposesWhatItCanAndReportsIt() throws {
        let log = DisposalLog()
        let reports = DisposalLog()
        let container = chain(log)
        let previous = DisposalError.unhandledFailureHandler
        DisposalError.unhandledFailureHandler = { error in reports.record("\(error)") }
        defer { DisposalError.unhandledFailureHandler = previous }
        do {
            let scope = container.makeScope(label: "forgotten")
            _ = try scope.require(Tracked.self, name: "repository")
        }
        #expect(log.entries == ["repository", "connection"])
        #expect(reports.entries.contains { $0.contains("dropped without being ended") })
    }

    @Test func disposalErrorListsEveryFailureReadably() {
        let container = Container()
        container.register(FailingDisposal.self) { _ in FailingDisposal() }.inObjectScope(.container)
        container.register(FailingDisposal.self, name: "b") { _ in FailingDisposal() }.inObjectScope(.container)
        _ = container.resolve(FailingDisposal.self)
        _ = container.resolve(FailingDisposal.self, name: "b")
        #expect {
            try container.shutdownSynchronously()
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("Disposing container \"container\" failed for 2 instances:")
                && text.contains("FailingDisposal (name: \"b\"): socket already closed")
        }
    }

    @Test func aDisposableTransientMadeThroughAnEndedScopeIsDisposedAndRefused() throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self) { _ in Tracked("transient", log: log) }.inObjectScope(.transient)
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.transient)
        let scope = container.makeScope()
        try scope.endSynchronously()
        #expect { try scope.require(Tracked.self) } throws: { ($0 as? ResolutionError)?.code == .scopeEnded }
        #expect(log.entries == ["transient"])  // disposed at once: no one else would
        // Nothing to dispose makes no difference: an ended scope resolves nothing.
        #expect { try scope.require(Engine.self) } throws: { error in
            guard let error = error as? ResolutionError, error.code == .scopeEnded else { return false }
            return error.description.hasPrefix("Engine was resolved through a scope that has ended.")
        }
    }

    @Test(arguments: [ObjectScope.container, .singleton, .weak])
    func anEndedScopeMakesNoSharedInstance(scope objectScope: ObjectScope) throws {
        let container = Container()
        container.register(Wheel.self) { _ in Wheel(engine: Engine()) }.inObjectScope(objectScope)
        let scope = container.makeScope()
        try scope.endSynchronously()
        #expect { try scope.require(Wheel.self) } throws: { ($0 as? ResolutionError)?.code == .scopeEnded }
        // The container itself still makes it.
        #expect(throws: Never.self) { try container.require(Wheel.self) }
    }

    /// A class registered as itself, the same class behind a protocol, a subclass, a struct, and a class that adopts
    /// both disposal protocols: each is disposed once, newest first, by either end.
    @Test(arguments: [false, true])
    func everyShapeOfInstanceIsDisposedOnceNewestFirst(asynchronously: Bool) async throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self) { _ in Tracked("class", log: log) }.inObjectScope(.scoped)
        container.register((any Named).self) { _ in Tracked("protocol", log: log) }.inObjectScope(.scoped)
        container.register(TrackedBase.self) { _ in TrackedDerived("subclass", log: log) }.inObjectScope(.scoped)
        container.register(TrackedValue.self) { _ in TrackedValue(name: "struct", log: log) }.inObjectScope(.scoped)
        container.register(BothTracked.self) { _ in BothTracked("both", log: log) }.inObjectScope(.scoped)
        let scope = container.makeScope()
        _ = try scope.require(Tracked.self)
        _ = try scope.require((any Named).self)
        _ = try scope.require(TrackedBase.self)
        _ = try scope.require(TrackedValue.self)
        _ = try scope.require(BothTracked.self)
        if asynchronously { try await scope.end() } else { try scope.endNow() }
        #expect(log.entries == ["both", "struct", "subclass", "protocol", "class"])
    }
}

protocol Named: Sendable {}
extension Tracked: Named {}
class TrackedBase: Disposable, @unchecked Sendable {
    let name: String
    let log: DisposalLog
    init(_ name: String, log: DisposalLog) { (self.name, self.log) = (name, log) }
    func dispose() { log.record(name) }
}

final class TrackedDerived: TrackedBase, @unchecked Sendable {}

struct TrackedValue: Disposable, Sendable {
    let name: String
    let log: DisposalLog
    func dispose() { log.record(name) }
}

final class BothTracked: Disposable, AsyncDisposable, Sendable {
    let name: String
    let log: DisposalLog
    init(_ name: String, log: DisposalLog) { (self.name, self.log) = (name, log) }
    func dispose() { log.record(name) }
}

/// A class that is not disposable, whose subclass is.
class PlainBase {}
final class DisposableSubclass: PlainBase, Disposable, @unchecked Sendable {  // @unchecked: only `log` is shared.
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("subclass") }
}

/// A value type that disposes asynchronously only.
struct AsyncOnlyResource: AsyncDisposable {
    let log: DisposalLog
    func dispose() async { log.record("async value") }
}

@Suite struct DisposalByTypeTests {
    @Test func everyNewContainerDisposesInstancesOfATypeAnotherContainerAlreadyMade() throws {
        let log = DisposalLog()
        for round in 0..<3 {
            let container = Container()
            container.register(Tracked.self) { _ in Tracked("round \(round)", log: log) }.inObjectScope(.container)
            _ = try container.require(Tracked.self)
            try container.shutdownSynchronously()
        }
        #expect(log.entries == ["round 0", "round 1", "round 2"])
    }

    @Test func disposalFollowsTheInstancesDynamicTypeNotTheRegisteredOne() throws {
        let log = DisposalLog()
        let container = Container()
        container.register(PlainBase.self, name: "plain") { _ in PlainBase() }.inObjectScope(.container)
        container.register(PlainBase.self, name: "sub") { _ in DisposableSubclass(log: log) }.inObjectScope(.container)
        _ = try container.require(PlainBase.self, name: "plain")
        _ = try container.require(PlainBase.self, name: "sub")
        try container.shutdownSynchronously()
        #expect(log.entries == ["subclass"])
    }

    @Test func aTypeWithOnlyAsyncDisposalIsRefusedBySynchronousShutdownAndDisposedByTheAsyncOne() async throws {
        let log = DisposalLog()
        let first = Container()
        first.register(AsyncOnlyResource.self) { _ in AsyncOnlyResource(log: log) }.inObjectScope(.container)
        _ = try first.require(AsyncOnlyResource.self)
        #expect(throws: DisposalError.self) { try first.shutdownSynchronously() }
        let second = Container()
        second.register(AsyncOnlyResource.self) { _ in AsyncOnlyResource(log: log) }.inObjectScope(.container)
        _ = try second.require(AsyncOnlyResource.self)
        try await second.shutdown()
        #expect(log.entries == ["async value"])
    }
}

extension Scope {
    /// The synchronous end, from an async test.
    func endNow() throws { try endSynchronously() }
}
