import Assemblage
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

    @Test func aThreadWaitingForAnotherThreadsCreationGetsTheSameInstance() throws {
        let container = Container()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        container.register(Engine.self) { _ in
            entered.signal()
            proceed.wait()
            return Engine()
        }.inObjectScope(.scoped)
        let scope = container.makeScope()
        let results = ResultBox()
        let first = Thread { results.add(try? scope.require(Engine.self)) }
        first.start()
        entered.wait()  // the first thread is inside the factory: the second must wait for it
        let waited = DispatchSemaphore(value: 0)
        Thread {
            results.add(try? scope.require(Engine.self))
            waited.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        proceed.signal()
        #expect(waited.wait(timeout: .now() + 10) == .success)
        while results.count < 2 { Thread.sleep(forTimeInterval: 0.001) }
        #expect(results.identities.count == 1)
        #expect(!results.identities.contains(nil))
        try scope.end()
    }

    @Test func aThreadWaitingForACreationThatFailsMakesTheInstanceItself() throws {
        let container = Container()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let attempts = DisposalLog()
        struct Refused: Error {}
        container.register(Engine.self) { _ in
            attempts.record("try")
            guard attempts.count(of: "try") > 1 else {
                entered.signal()
                proceed.wait()
                throw Refused()
            }
            return Engine()
        }.inObjectScope(.scoped)
        let scope = container.makeScope()
        let results = ResultBox()
        Thread { results.add(try? scope.require(Engine.self)) }.start()
        entered.wait()
        let waited = DispatchSemaphore(value: 0)
        Thread {
            results.add(try? scope.require(Engine.self))
            waited.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        proceed.signal()
        #expect(waited.wait(timeout: .now() + 10) == .success)
        while results.count < 2 { Thread.sleep(forTimeInterval: 0.001) }
        #expect(results.identities.count == 2)  // one nil (the refused creation), one engine
        #expect(attempts.count(of: "try") == 2)
        try scope.end()
    }

    @Test func aThreadWaitingWhenTheScopeEndsGetsScopeEnded() throws {
        let container = Container()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        container.register(Engine.self) { _ in
            entered.signal()
            proceed.wait()
            return Engine()
        }.inObjectScope(.scoped)
        let scope = container.makeScope()
        let maker = DispatchSemaphore(value: 0)
        Thread {
            _ = try? scope.require(Engine.self)
            maker.signal()
        }.start()
        entered.wait()
        let codes = ResultBox()
        let waited = DispatchSemaphore(value: 0)
        Thread {
            do {
                _ = try scope.require(Engine.self)
            } catch {
                codes.add(code: (error as? ResolutionError)?.code)
            }
            waited.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        try scope.end()
        #expect(waited.wait(timeout: .now() + 10) == .success)
        #expect(codes.codes == [.scopeEnded])
        proceed.signal()
        #expect(maker.wait(timeout: .now() + 10) == .success)
    }
}

/// Records the labels of the scopes that end.
private final class EndedScopes: Behavior, ContainerObserver, @unchecked Sendable {  // `ended` is under `lock`.
    private let lock = NSLock()
    private var ended: [String] = []

    func container<Type, Service>(_ container: Container, didRegisterType type: Type.Type,
                                  toService entry: ServiceEntry<Service>, withName name: String?) {}
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
    var count: Int { lock.withLock { objects.count } }
    var identities: Set<ObjectIdentifier?> { lock.withLock { Set(objects) } }
    var codes: [ResolutionError.Code?] { lock.withLock { errorCodes } }
}
