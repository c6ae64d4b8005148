import Assemblage
import AssemblageProperties
import Foundation
import Testing

/// A scope shares its container's registrations, behaviors and observers; threads that ask one scope for an
/// instance another thread is making wait for it.
@Suite struct ScopeSharingTests {
    @Test func registrationMadeThroughAScopeIsMadeInItsContainer() async throws {
        let log = DisposalLog()
        let container = Container()
        try await container.withScope { scope in
            scope.register(Tracked.self) { _ in Tracked("shared", log: log) }.inObjectScope(.container)
            #expect(scope.fallbacks.isEmpty)
        }
        // The scope has ended; the registration and its instance are the container's.
        let fromContainer = try container.require(Tracked.self)
        let fromAnotherScope = try await container.withScope { try $0.require(Tracked.self) }
        #expect(fromContainer === fromAnotherScope)
        try await container.shutdown()
        #expect(log.entries == ["shared"])
    }

    @Test func aScopeReadsItsContainersPropertiesOverThoseOfTheContainersParent() async throws {
        let app = Container()
        try app.applyPropertyLoader(DictionaryPropertyLoader(["timeout": 5, "host": "app"]))
        let request = Container(parent: app)
        try request.applyPropertyLoader(DictionaryPropertyLoader(["timeout": 30]))
        try await request.withScope { scope in
            #expect(scope.properties.property("timeout", as: Int.self) == 30)
            #expect(scope.properties.property("host", as: String.self) == "app")
        }
        try await app.withScope { scope in
            #expect(scope.properties.property("timeout", as: Int.self) == 5)
        }
    }

    @Test func aScopeOfAScopeHasItsOwnInstancesAndTheContainersObservers() async throws {
        let observer = EndedScopes()
        let container = Container(behaviors: [observer])
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.scoped)
        try await container.withScope(label: "outer") { outer in
            let outerEngine = try outer.require(Engine.self)
            try await outer.withScope(label: "inner") { inner in
                let innerEngine = try inner.require(Engine.self)
                #expect(innerEngine !== outerEngine)
                #expect(try inner.require(Engine.self) === innerEngine)
                #expect(inner.container === outer)
            }
        }
        #expect(observer.labels == ["inner", "outer"])
    }

    @Test func anObserverAddedAfterAScopeWasMadeSeesItEnd() async throws {
        let container = Container()
        let scope = container.makeScope(label: "late")
        let observer = EndedScopes()
        container.addBehavior(observer)
        try await scope.end()
        #expect(observer.labels == ["late"])
    }

    /// A thread that asks for an instance another thread is making waits, then gets that instance; when that
    /// creation fails, the waiting thread makes the instance itself.
    @Test(arguments: [false, true])
    func aThreadWaitingForAnotherThreadsCreationGetsItOrMakesItAfterAFailure(firstFails: Bool) throws {
        let blocking = BlockingFactory(failFirst: firstFails)
        let scope = blocking.scope()
        let results = ResultBox()
        blocking.startMaker { results.add(try? scope.require(Engine.self)) }
        let waiter = blocking.startWaiter { results.add(try? scope.require(Engine.self)) }
        blocking.release()
        #expect(waiter.wait(timeout: .now() + 10) == .success)
        #expect(blocking.makerFinished.wait(timeout: .now() + 10) == .success)
        // Shared: one engine for both. After a failure: nil for the first, an engine for the second.
        #expect(results.identities.count == (firstFails ? 2 : 1))
        #expect(results.identities.contains(nil) == firstFails)
        #expect(blocking.attempts.count(of: "try") == (firstFails ? 2 : 1))
        try scope.endSynchronously()
    }

    @Test func aThreadWaitingWhenTheScopeEndsGetsScopeEnded() throws {
        let blocking = BlockingFactory(failFirst: false)
        let scope = blocking.scope()
        let results = ResultBox()
        blocking.startMaker { _ = try? scope.require(Engine.self) }
        let waiter = blocking.startWaiter {
            do {
                _ = try scope.require(Engine.self)
            } catch {
                results.add(code: (error as? ResolutionError)?.code)
            }
        }
        try scope.endSynchronously()
        #expect(waiter.wait(timeout: .now() + 10) == .success)
        #expect(results.codes == [.scopeEnded])
        blocking.release()
        #expect(blocking.makerFinished.wait(timeout: .now() + 10) == .success)
    }
}

/// A container whose `.scoped` Engine factory blocks until released: the first thread to resolve it stays inside the
/// factory, so a second one must wait for it.
private final class BlockingFactory: Sendable {
    let container = Container()
    let attempts = DisposalLog()
    let makerFinished = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    private let proceed = DispatchSemaphore(value: 0)

    /// `failFirst`: the first creation throws once released.
    init(failFirst: Bool) {
        struct Refused: Error {}
        container.register(Engine.self) { [attempts, entered, proceed] _ in
            attempts.record("try")
            guard attempts.count(of: "try") == 1 else { return Engine() }
            entered.signal()
            proceed.wait()
            if failFirst { throw Refused() }
            return Engine()
        }.inObjectScope(.scoped)
    }

    func scope() -> Scope { container.makeScope() }

    /// Runs `body` on a new thread and returns once that thread is inside the factory.
    func startMaker(_ body: @escaping @Sendable () -> Void) {
        let finished = makerFinished
        Thread {
            body()
            finished.signal()
        }.start()
        entered.wait()
    }

    /// Runs `body` on a new thread, gives it time to start waiting, and returns what it signals when done.
    func startWaiter(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        return done
    }

    /// Lets the first creation finish.
    func release() { proceed.signal() }
}

/// Records the labels of the scopes that end.
private final class EndedScopes: Behavior, ContainerObserver, @unchecked Sendable {  // `ended` is under `lock`.
    private let lock = NSLock()
    private var ended: [String] = []

    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {}
    func scopeEnded(_ label: String, disposed: Int, failures: Int) { lock.withLock { ended.append(label) } }
    var labels: [String] { lock.withLock { ended } }
}

/// What threads resolved, collected from any thread.
private final class ResultBox: @unchecked Sendable {  // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var objects: [ObjectIdentifier?] = []
    private var errorCodes: [ResolutionError.Code?] = []

    func add(_ object: AnyObject?) { lock.withLock { objects.append(object.map(ObjectIdentifier.init)) } }
    func add(code: ResolutionError.Code?) { lock.withLock { errorCodes.append(code) } }
    var identities: Set<ObjectIdentifier?> { lock.withLock { Set(objects) } }
    var codes: [ResolutionError.Code?] { lock.withLock { errorCodes } }
}
