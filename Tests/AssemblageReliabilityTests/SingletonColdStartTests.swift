import Assemblage
import AssemblageTestSupport
import Foundation
import Testing

/// A service whose construction is slow enough (200 µs) for every caller to pile up behind the first.
final class SlowToMake: @unchecked Sendable {  // @unchecked: immutable.
    init(_ constructions: Tally) {
        constructions.increment()
        usleep(200)
    }
}

/// Where the shared registration lives and what callers resolve it from.
enum ColdStartVariant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case container, singleton, customPermanentScope, childInheritingFromParent

    var testDescription: String { rawValue }

    /// A custom scope backed by permanent storage, like Swinject's `.container` built by hand.
    static let permanentScope = ObjectScope(storageFactory: PermanentStorage.init, description: "permanent")

    /// Registers the slow service and returns the containers the callers resolve from.
    func makeResolvers(_ constructions: Tally) -> [Container] {
        let root = Container()
        let entry = root.register(SlowToMake.self) { _ in SlowToMake(constructions) }
        switch self {
        case .container:
            entry.inObjectScope(.container)
            return [root]
        case .singleton:
            entry.inObjectScope(.singleton)
            return [root]
        case .customPermanentScope:
            entry.inObjectScope(Self.permanentScope)
            return [root]
        case .childInheritingFromParent:
            entry.inObjectScope(.container)
            return (0..<4).map { _ in Container(parent: root) }
        }
    }
}

extension Reliability {
    /// A shared instance is made exactly once even when 128 callers ask for it at the same moment.
    @Suite("Singleton exactly once, cold start", .serialized)
    struct SingletonColdStartTests {
        static let threads = 64
        static let tasks = 64

        @Test(.heavy, arguments: ColdStartVariant.allCases)
        func sharedInstanceIsMadeOnceWhenThreadsAndTasksStartTogether(_ variant: ColdStartVariant) async {
            let rounds = Budget.count(100, minimum: 10)
            let callers = Self.threads + Self.tasks
            var oneConstruction = 0
            var oneIdentity = 0
            var nils = 0
            var timeouts = 0
            for _ in 0..<rounds {
                let constructions = Tally()
                let resolvers = variant.makeResolvers(constructions)
                let results = Locked([ObjectIdentifier?](repeating: nil, count: callers))
                let gate = StartGate()
                let finished = Latch(count: callers)
                // Keeps every instance alive until the round is checked, so identifiers cannot be reused.
                let keep = Bag<SlowToMake>()
                @Sendable func resolve(_ caller: Int) {
                    let instance = resolvers[caller % resolvers.count].resolve(SlowToMake.self)
                    if let instance { keep.append(instance) }
                    results.withLock { $0[caller] = instance.map(ObjectIdentifier.init) }
                    finished.countDown()
                }
                for caller in 0..<Self.threads {
                    startThread {
                        gate.arriveAndWait()
                        resolve(caller)
                    }
                }
                for caller in Self.threads..<callers {
                    Task.detached {
                        await gate.arrive()
                        resolve(caller)
                    }
                }
                let allArrived = await offThePool { gate.waitForArrivals(callers, timeout: Budget.seconds(10)) }
                gate.open()
                let allFinished = await finished.wait(timeout: Budget.seconds(30))
                #expect(allArrived, "not every caller reached the gate within the time limit")
                #expect(allFinished, "a resolve did not return within the time limit")
                guard allArrived, allFinished else {
                    timeouts += 1
                    break
                }
                let identities = results.current
                nils += identities.filter { $0 == nil }.count
                if constructions.count == 1 { oneConstruction += 1 }
                if Set(identities.compactMap { $0 }).count == 1 { oneIdentity += 1 }
            }
            Figure.report(
                "cold start \(variant.rawValue)",
                "one construction in \(oneConstruction)/\(rounds) rounds, one identity in "
                    + "\(oneIdentity)/\(rounds), \(nils) nil of \(rounds * callers) resolves "
                    + "(\(Self.threads) threads + \(Self.tasks) tasks a round)")
            #expect(timeouts == 0)
            #expect(oneConstruction == rounds)
            #expect(oneIdentity == rounds)
            #expect(nils == 0)
        }
    }
}
