import Assemblage
import Dispatch
import Foundation
import Testing

final class SlowSingleton: @unchecked Sendable {
    init(_ counter: Counter) {
        counter.increment()
        usleep(200)
    }
}

/// Collects values from many threads.
final class Collector<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var all: [T] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

@Suite struct ThreadSafetyTests {
    @Test(arguments: [ObjectScope.container, .singleton])
    func sharedInstanceIsCreatedOnceUnderContention(scope: ObjectScope) {
        for _ in 0..<20 {
            let counter = Counter()
            let container = Container()
            container.register(SlowSingleton.self) { _ in SlowSingleton(counter) }.inObjectScope(scope)
            let seen = Collector<ObjectIdentifier>()
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                if let instance = container.resolve(SlowSingleton.self) { seen.append(ObjectIdentifier(instance)) }
            }
            #expect(counter.count == 1)
            #expect(seen.all.count == 16)
            #expect(Set(seen.all).count == 1)
        }
    }

    /// A value type's shared instance is kept in a box: the threads that wait for its creation take it from there.
    @Test(arguments: [ObjectScope.container, .singleton])
    func sharedValueIsCreatedOnceAndSeenByEveryWaiter(scope: ObjectScope) {
        struct Ticket: Sendable {
            let number: Int
            let label: String
        }
        for round in 0..<20 {
            let counter = Counter()
            let container = Container()
            container.register(Ticket.self) { _ in
                counter.increment()
                usleep(200)
                return Ticket(number: round, label: "ticket \(round)")
            }.inObjectScope(scope)
            let seen = Collector<String>()
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                if let ticket = container.resolve(Ticket.self) { seen.append("\(ticket.number) \(ticket.label)") }
            }
            #expect(counter.count == 1)
            #expect(seen.all == Array(repeating: "\(round) ticket \(round)", count: 16))
        }
    }

    @Test func childContainersShareTheParentsSingletonUnderContention() {
        let counter = Counter()
        let parent = Container()
        parent.register(SlowSingleton.self) { _ in SlowSingleton(counter) }.inObjectScope(.container)
        let children = (0..<8).map { _ in Container(parent: parent) }
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            _ = children[index % children.count].resolve(SlowSingleton.self)
        }
        #expect(counter.count == 1)
    }

    @Test func manyTasksResolveAGraphWithSingletonsConstructedOnce() async {
        let counters = (0..<3).map { _ in Counter() }
        let container = Container()
        container.register(Engine.self) { _ in
            counters[0].increment()
            return Engine()
        }.inObjectScope(.container)
        container.register(Cat.self) { _ in
            counters[1].increment()
            return Cat()
        }.inObjectScope(.singleton)
        container.register(Wheel.self) { r in Wheel(engine: r.resolve(Engine.self)!) }
        container.register(Car.self) { r in
            _ = r.resolve(Cat.self)
            return Car(engine: r.resolve(Engine.self)!, wheel: r.resolve(Wheel.self)!)
        }
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var failures = 0
                    for _ in 0..<10_000 {
                        guard let car = container.resolve(Car.self), car.engine === car.wheel.engine else {
                            failures += 1
                            continue
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(counters[0].count == 1)
        #expect(counters[1].count == 1)
    }

    @Test func registeringWhileResolvingIsSafe() {
        let container = Container()
        container.register(Int.self, name: "base") { _ in 7 }
        let misses = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for index in 0..<2_000 { container.register(Int.self, name: "n\(index)") { _ in index } }
            } else {
                for index in 0..<20_000 where container.resolve(Int.self, name: "base") != 7 {
                    _ = index
                    misses.increment()
                }
            }
        }
        #expect(misses.count == 0)
        #expect(container.resolve(Int.self, name: "n1999") == 1_999)
    }

    @Test func resettingWhileResolvingNeverReturnsNil() {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        let nils = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for _ in 0..<5_000 {
                if worker == 0 {
                    container.resetObjectScope(.container)
                } else if container.resolve(Engine.self) == nil {
                    nils.increment()
                }
            }
        }
        #expect(nils.count == 0)
    }

    @Test func factoryThatWaitsForAResolveOnAnotherThreadCompletes() {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        container.register(Wheel.self) { r in
            let done = DispatchSemaphore(value: 0)
            let result = Collector<Engine>()
            DispatchQueue.global().async {
                if let engine = r.resolve(Engine.self) { result.append(engine) }
                done.signal()
            }
            guard done.wait(timeout: .now() + 5) == .success, let engine = result.all.first else {
                throw Boom()
            }
            return Wheel(engine: engine)
        }.inObjectScope(.container)
        for _ in 0..<20 {
            container.resetObjectScope(.container)
            #expect(container.resolve(Wheel.self) != nil)
        }
    }

    @Test func crossThreadCycleEndsInAnErrorNotADeadlock() {
        let aInX = DispatchSemaphore(value: 0)
        let bInY = DispatchSemaphore(value: 0)
        let container = Container()
        container.register(CycleA.self) { r in
            aInX.signal()
            _ = bInY.wait(timeout: .now() + 1)
            return CycleA(try r.require(CycleB.self))
        }.inObjectScope(.container)
        container.register(CycleB.self) { r in
            bInY.signal()
            _ = aInX.wait(timeout: .now() + 1)
            return CycleB(CycleC(try r.require(CycleA.self)))
        }.inObjectScope(.container)
        let codes = Collector<ResolutionError.Code>()
        let group = DispatchGroup()
        for start in 0..<2 {
            DispatchQueue.global().async(group: group) {
                do {
                    if start == 0 {
                        _ = try container.require(CycleA.self)
                    } else {
                        _ = try container.require(CycleB.self)
                    }
                } catch {
                    codes.append((error as? ResolutionError)?.code ?? .factoryFailed)
                }
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(codes.all.contains(.cycle))
    }
}
