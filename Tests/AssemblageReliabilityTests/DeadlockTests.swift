import Assemblage
import Dispatch
import Foundation
import Testing

final class Helper: @unchecked Sendable {}  // @unchecked: no state.

final class NeedsHelperFromAnotherThread: @unchecked Sendable {  // @unchecked: immutable.
    let helper: Helper
    init(helper: Helper) { self.helper = helper }
}

final class SlowFactoryService: @unchecked Sendable {}  // @unchecked: no state.

/// Services whose names say which thread makes them in the cross-thread cycle test.
final class MutualA: @unchecked Sendable { init(_ other: Any) {} }  // @unchecked: no state.
final class MutualB: @unchecked Sendable { init(_ other: Any) {} }  // @unchecked: no state.
final class MutualC: @unchecked Sendable { init(_ other: Any) {} }  // @unchecked: no state.

/// Waits up to `seconds` for a semaphore; used inside factories, where a bounded wait keeps a bug from hanging.
func boundedWait(_ semaphore: DispatchSemaphore, _ seconds: Double) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

extension Reliability {
    /// What could deadlock does not: factories that wait for resolves on other threads, cycles across threads.
    @Suite("No deadlock", .serialized)
    struct DeadlockTests {
        /// How the helper that the factory sends to another thread is scoped.
        enum HelperScope: String, CaseIterable, Sendable {
            case container, transient, graph, weak

            var scope: ObjectScope {
                switch self {
                case .container: .container
                case .transient: .transient
                case .graph: .graph
                case .weak: .weak
                }
            }
        }

        @Test(arguments: HelperScope.allCases)
        func factoryThatWaitsForAResolveOnAnotherThreadCompletes(_ helperScope: HelperScope) {
            let rounds = 100
            var latencies: [Double] = []
            var completed = 0
            for _ in 0..<rounds {
                let container = Container()
                container.register(Helper.self) { _ in Helper() }.inObjectScope(helperScope.scope)
                container.register(NeedsHelperFromAnotherThread.self) { r in
                    let done = DispatchSemaphore(value: 0)
                    let result = Locked<Helper?>(nil)
                    DispatchQueue.global().async {
                        result.withLock { $0 = r.resolve(Helper.self) }
                        done.signal()
                    }
                    guard boundedWait(done, 10), let helper = result.current else { throw Failure() }
                    return NeedsHelperFromAnotherThread(helper: helper)
                }.inObjectScope(.container)
                let start = now()
                let made = onThread(timeout: 15) { container.resolve(NeedsHelperFromAnotherThread.self) != nil }
                latencies.append(milliseconds(since: start))
                if made == true { completed += 1 }
            }
            let p99 = percentile(latencies, 0.99)
            Figure.report(
                "dispatch-and-wait factory (\(helperScope.rawValue) helper)",
                "\(completed)/\(rounds) completed, p50 \(format(percentile(latencies, 0.5))) ms, "
                    + "p99 \(format(p99)) ms, max \(format(latencies.max() ?? 0)) ms")
            #expect(completed == rounds)
            #expect(p99 < Budget.seconds(0.1) * 1_000, "p99 \(p99) ms")
        }

        @Test func slowFactoryDoesNotBlockAnUnrelatedResolveOnAnotherThread() {
            let container = Container()
            let slowStarted = DispatchSemaphore(value: 0)
            let releaseSlow = DispatchSemaphore(value: 0)
            container.register(SlowFactoryService.self) { _ in
                slowStarted.signal()
                _ = boundedWait(releaseSlow, 20)
                return SlowFactoryService()
            }.inObjectScope(.container)
            // Unrelated services, each made for the first time while the slow factory runs: they take the same
            // creation path (and the same coordinator) as the slow one.
            let unrelated = 100
            for index in 0..<unrelated {
                container.register(Helper.self, name: "shared\(index)") { _ in Helper() }.inObjectScope(.container)
                container.register(Helper.self, name: "graph\(index)") { r in
                    _ = try r.require(Helper.self, name: "shared\(index)")
                    return Helper()
                }
            }
            let slowDone = Latch(count: 1)
            startThread {
                _ = container.resolve(SlowFactoryService.self)
                slowDone.countDown()
            }
            #expect(boundedWait(slowStarted, 10), "the slow factory never started")
            let latencies = onThread(timeout: 30) { () -> [Double] in
                var samples: [Double] = []
                for index in 0..<unrelated {
                    for name in ["shared\(index)", "graph\(index)"] {
                        let start = now()
                        let resolved = container.resolve(Helper.self, name: name)
                        samples.append(resolved == nil ? .infinity : milliseconds(since: start))
                    }
                }
                return samples
            }
            releaseSlow.signal()
            #expect(slowDone.wait(timeout: 10), "the slow factory did not finish after release")
            guard let samples = latencies else {
                Issue.record("unrelated resolves did not finish while the slow factory ran")
                return
            }
            let p99 = percentile(samples, 0.99)
            Figure.report(
                "unrelated resolve during a slow factory",
                "\(samples.filter(\.isFinite).count)/\(samples.count) resolved, "
                    + "p99 \(format(p99)) ms, max \(format(samples.max() ?? 0)) ms")
            #expect(samples.allSatisfy { $0.isFinite })
            #expect(p99 < Budget.seconds(0.05) * 1_000, "p99 \(p99) ms")
        }

        /// How the services of the cross-thread cycle are scoped.
        enum CycleScope: String, CaseIterable, Sendable {
            case container, singleton, weak, customPermanent
            var scope: ObjectScope {
                switch self {
                case .container: .container
                case .singleton: .singleton
                case .weak: .weak
                case .customPermanent: ColdStartVariant.permanentScope
                }
            }
        }

        @Test(arguments: CycleScope.allCases, [2, 3])
        func threadsWhoseFactoriesNeedEachOtherEndInACycleErrorNeverAHang(_ cycleScope: CycleScope, threads: Int) {
            let rounds = Budget.count(20, minimum: 5)
            var cycleRounds = 0
            var slowest = 0.0
            for _ in 0..<rounds {
                // Each factory announces that it runs, waits (bounded) until every factory runs, then needs the next.
                let running = DispatchSemaphore(value: 0)
                let allRunning = DispatchSemaphore(value: 0)
                let racing = Locked(true)
                let container = Container()
                @Sendable func rendezvous() {
                    guard racing.current else { return }
                    running.signal()
                    _ = boundedWait(allRunning, 2)
                }
                container.register(MutualA.self) { r in
                    rendezvous()
                    return MutualA(try r.require(MutualB.self))
                }
                .inObjectScope(cycleScope.scope)
                container.register(MutualB.self) { r in
                    rendezvous()
                    return threads == 2 ? MutualB(try r.require(MutualA.self)) : MutualB(try r.require(MutualC.self))
                }.inObjectScope(cycleScope.scope)
                container.register(MutualC.self) { r in
                    rendezvous()
                    return MutualC(try r.require(MutualA.self))
                }
                .inObjectScope(cycleScope.scope)
                let codes = Bag<String>()
                let cycles = Bag<String>()
                let finished = Latch(count: threads)
                let start = now()
                for index in 0..<threads {
                    startThread {
                        do throws(ResolutionError) {
                            switch index {
                            case 0: _ = try container.require(MutualA.self)
                            case 1: _ = try container.require(MutualB.self)
                            default: _ = try container.require(MutualC.self)
                            }
                            codes.append("resolved")
                        } catch {
                            codes.append(error.code.description)
                            cycles.append(error.cycle.map(\.description).joined(separator: " → "))
                        }
                        finished.countDown()
                    }
                }
                // Let the factories through once every thread is inside one.
                var entered = 0
                while entered < threads, boundedWait(running, 5) { entered += 1 }
                for _ in 0..<threads * 10 { allRunning.signal() }
                let ended = finished.wait(timeout: 10)
                slowest = max(slowest, milliseconds(since: start))
                #expect(ended, "a cross-thread cycle hung for more than 10 s")
                racing.withLock { $0 = false }
                if ended, codes.all.count == threads, codes.all.allSatisfy({ $0 == "cycle" }),
                    cycles.all.allSatisfy({ !$0.isEmpty })
                {
                    cycleRounds += 1
                }
                // Afterwards the registrations can be fixed and resolved: nothing is left marked as in creation.
                container.register(MutualA.self) { _ in MutualA(0) }.inObjectScope(cycleScope.scope)
                #expect(container.resolve(MutualB.self) != nil)
                #expect(container.resolve(MutualA.self) != nil)
            }
            Figure.report(
                "cross-thread cycle, \(threads) threads, \(cycleScope.rawValue)",
                "\(cycleRounds)/\(rounds) rounds ended with a cycle error on every thread, "
                    + "slowest round \(format(slowest)) ms (bound 10 s)")
            #expect(cycleRounds == rounds)
        }
    }
}
