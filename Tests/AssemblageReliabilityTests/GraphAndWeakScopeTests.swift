import Assemblage
import Foundation
import Testing

/// The graph-scoped dependency that two branches of one object graph share.
final class SharedPart: @unchecked Sendable {}  // @unchecked: no state.

final class LeftBranch: @unchecked Sendable {  // @unchecked: immutable.
    let part: SharedPart
    init(part: SharedPart) { self.part = part }
}

final class RightBranch: @unchecked Sendable {  // @unchecked: immutable.
    let part: SharedPart
    let lazyPart: Lazy<SharedPart>
    init(part: SharedPart, lazyPart: Lazy<SharedPart>) {
        self.part = part
        self.lazyPart = lazyPart
    }
}

final class GraphRoot: @unchecked Sendable {  // @unchecked: immutable.
    let left: LeftBranch
    let right: RightBranch
    let part: SharedPart
    init(left: LeftBranch, right: RightBranch, part: SharedPart) {
        self.left = left
        self.right = right
        self.part = part
    }
}

/// A weakly scoped service that can tell whether it is still intact when someone reads it.
final class WeakService: @unchecked Sendable {  // @unchecked: `marker` is written in init and deinit only.
    static let aliveMarker: UInt64 = 0xA11C_E5A1_1CE5_A11C
    private(set) var marker: UInt64 = WeakService.aliveMarker
    let count: LiveCount
    init(_ count: LiveCount) {
        self.count = count
        count.didMake()
    }
    deinit {
        marker = 0
        count.didFree()
    }
    var isIntact: Bool { marker == Self.aliveMarker }
}

final class WeakPair: @unchecked Sendable {  // @unchecked: immutable.
    let first: WeakService
    let second: WeakService
    init(first: WeakService, second: WeakService) {
        self.first = first
        self.second = second
    }
}

extension Reliability {
    /// Graph identity under concurrency, and weak instances racing the release of their last owner.
    @Suite("Graph and weak scopes under concurrency", .serialized)
    struct GraphAndWeakScopeTests {
        func graphContainer() -> Container {
            let container = Container()
            container.register(SharedPart.self) { _ in SharedPart() }  // .graph, the default
            container.register(LeftBranch.self) { r in LeftBranch(part: try r.require(SharedPart.self)) }
            container.register(RightBranch.self) { r in
                RightBranch(part: try r.require(SharedPart.self), lazyPart: try r.require(Lazy<SharedPart>.self))
            }
            container.register(GraphRoot.self) { r in
                GraphRoot(
                    left: try r.require(LeftBranch.self), right: try r.require(RightBranch.self),
                    part: try r.require(SharedPart.self))
            }
            return container
        }

        @Test func graphInstancesAreSharedWithinAGraphAndDistinctAcrossGraphs() async {
            let container = graphContainer()
            let workers = 8
            let perWorker = Budget.count(2_000, minimum: 100)
            let roots = Bag<GraphRoot>()
            let failures = Tally()
            let finished = Latch(count: workers)
            for worker in 0..<workers {
                let body: @Sendable () -> Void = {
                    for _ in 0..<perWorker {
                        guard let root = container.resolve(GraphRoot.self) else {
                            failures.increment()
                            continue
                        }
                        roots.append(root)
                    }
                    finished.countDown()
                }
                if worker % 2 == 0 { startThread(body) } else { Task.detached(operation: body) }
            }
            #expect(await finished.wait(timeout: Budget.seconds(60)), "workers did not finish in time")
            #expect(failures.count == 0)
            let all = roots.all
            // Read every Lazy on this thread, after its graph ended on another: it joins the graph it was made in.
            var brokenWithin = 0
            var lazyOutside = 0
            for root in all {
                if root.left.part !== root.part || root.right.part !== root.part { brokenWithin += 1 }
                if (try? root.right.lazyPart.get()) !== root.part { lazyOutside += 1 }
            }
            let distinct = Set(all.map { ObjectIdentifier($0.part) }).count
            Figure.report(
                "graph scope, \(workers) workers",
                "\(all.count - brokenWithin)/\(all.count) graphs share one SharedPart, "
                    + "\(distinct) distinct SharedParts across \(all.count) graphs, "
                    + "\(all.count - lazyOutside)/\(all.count) Lazy reads on another thread join their graph")
            #expect(all.count == workers * perWorker)
            #expect(brokenWithin == 0)
            #expect(lazyOutside == 0)
            #expect(distinct == all.count)
        }

        @Test func weakInstancesRacingTheReleaseOfTheirLastOwnerAreAliveOrRemade() async {
            let count = LiveCount()
            let container = Container()
            container.register(WeakService.self) { _ in WeakService(count) }.inObjectScope(.weak)
            container.register(WeakPair.self) { r in
                WeakPair(first: try r.require(WeakService.self), second: try r.require(WeakService.self))
            }.inObjectScope(.transient)
            // The holder takes the instance, publishes it, and lets it go again and again.
            let held = Locked<WeakService?>(nil)
            let iterations = Budget.count(20_000, minimum: 1_000)
            let readers = 4
            let broken = Tally()
            let notShared = Tally()
            let splitPairs = Tally()
            let results = Tally()
            let finished = Latch(count: readers + 1)
            startThread {
                for _ in 0..<iterations {
                    held.withLock { $0 = container.resolve(WeakService.self) }
                    held.withLock { $0 = nil }  // the last strong reference may go here
                }
                finished.countDown()
            }
            for reader in 0..<readers {
                let body: @Sendable () -> Void = {
                    for step in 0..<iterations {
                        if step % 3 == 0 {
                            // While we hold the published instance, resolving must give that very instance.
                            guard let owned = held.current else { continue }
                            let resolved = container.resolve(WeakService.self)
                            results.increment()
                            if resolved !== owned { notShared.increment() }
                            if resolved?.isIntact != true || !owned.isIntact { broken.increment() }
                        } else if step % 3 == 1 {
                            let resolved = container.resolve(WeakService.self)
                            results.increment()
                            if resolved?.isIntact != true { broken.increment() }
                        } else {
                            // One resolution shares its weak instance between both uses.
                            let pair = container.resolve(WeakPair.self)
                            results.increment()
                            if pair == nil || pair?.first !== pair?.second { splitPairs.increment() }
                            if pair?.first.isIntact != true { broken.increment() }
                        }
                    }
                    finished.countDown()
                }
                if reader % 2 == 0 { startThread(body) } else { Task.detached(operation: body) }
            }
            #expect(await finished.wait(timeout: Budget.seconds(60)), "weak-scope race did not finish in time")
            let liveAfter = count.liveCount
            Figure.report(
                "weak scope race",
                "\(results.count) resolves racing \(iterations) releases: \(broken.count) not intact or nil, "
                    + "\(notShared.count) differed from a live instance, \(splitPairs.count) split pairs; "
                    + "\(count.madeCount) made, \(liveAfter) alive after the last release")
            #expect(broken.count == 0)
            #expect(notShared.count == 0)
            #expect(splitPairs.count == 0)
            #expect(liveAfter == 0, "the weak scope must not keep its instance alive")
        }
    }
}
