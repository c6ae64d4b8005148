import AssemblageTestSupport
import Foundation
import Testing

@testable import Assemblage

/// A service that holds a dependency, a `Lazy` and a `Provider`, as long-lived services often do.
final class HoldsWrappers: @unchecked Sendable {  // @unchecked: immutable.
    let tracked: Tracked
    let lazy: Lazy<Tracked>
    let provider: Provider<Tracked>
    init(tracked: Tracked, lazy: Lazy<Tracked>, provider: Provider<Tracked>) {
        self.tracked = tracked
        self.lazy = lazy
        self.provider = provider
    }
}

/// Wraps an instance, as a decorator does.
final class Decorated: @unchecked Sendable {  // @unchecked: immutable.
    let inner: Tracked
    let capture: Tracked
    init(inner: Tracked, capture: Tracked) {
        self.inner = inner
        self.capture = capture
    }
}

/// A node of the small graph the million-resolve test makes.
final class GraphLeaf: @unchecked Sendable {}  // @unchecked: no state.
final class GraphMiddle: @unchecked Sendable {  // @unchecked: immutable.
    let leaf: GraphLeaf
    let other: GraphLeaf
    init(leaf: GraphLeaf, other: GraphLeaf) {
        self.leaf = leaf
        self.other = other
    }
}

/// Every scope, for registrations whose instances must be freed with their container.
let everyScope: [(String, ObjectScope)] = [
    ("transient", .transient), ("graph", .graph), ("container", .container), ("weak", .weak),
    ("singleton", .singleton), ("multiton", .multiton),
    ("custom permanent", ObjectScope(storageFactory: PermanentStorage.init, description: "permanent")),
    ("custom graph", ObjectScope(storageFactory: GraphStorage.init, description: "custom graph")),
    (
        "custom with parent",
        ObjectScope(storageFactory: PermanentStorage.init, description: "child", parent: ObjectScope.graph)
    ),
]

extension Reliability {
    /// What the container makes, it frees; what resolving needs, it reuses.
    @Suite("Memory", .serialized)
    struct MemoryTests {
        @Test func weakScopeReleasesItsInstanceWhenTheLastOwnerLetsGo() {
            let count = LiveCount()
            let container = Container()
            container.register(Tracked.self) { _ in Tracked(count) }.inObjectScope(.weak)
            container.register(Decorated.self) { r in
                Decorated(inner: try r.require(Tracked.self), capture: try r.require(Tracked.self))
            }.inObjectScope(.transient)
            do {
                let held = container.resolve(Tracked.self)
                #expect(held != nil && count.liveCount == 1)
                #expect(container.resolve(Tracked.self) === held, "shared while held")
            }
            #expect(count.liveCount == 0, "top-level resolve: freed when the caller let go")
            do {
                let decorated = container.resolve(Decorated.self)
                #expect(decorated?.inner === decorated?.capture, "shared within the graph")
                #expect(count.liveCount == 1)
            }
            #expect(count.liveCount == 0, "the finished graph does not keep its weak instance")
            let onThread = onThread(timeout: 10) { [weak container] in container?.resolve(Decorated.self) != nil }
            #expect(onThread == true)
            #expect(count.liveCount == 0, "nor does the thread that resolved it")
            #expect(count.madeCount == 3)
        }

        @Test(arguments: everyScope.map(\.0))
        func droppedContainerFreesEveryInstanceAndFactoryCapture(_ scopeName: String) {
            let scope = everyScope.first { $0.0 == scopeName }!.1
            let instances = LiveCount()
            let captures = LiveCount()
            weak var weakContainer: Container?
            weak var weakChild: Container?
            do {
                let container = Container()
                let child = Container(parent: container)
                weakContainer = container
                weakChild = child
                let factoryCapture = Tracked(captures)
                let stepCapture = Tracked(captures)
                let decoratorCapture = Tracked(captures)
                let elementCapture = Tracked(captures)
                container.register(Tracked.self) { _ in
                    _ = factoryCapture
                    return Tracked(instances)
                }.inObjectScope(scope).initCompleted { _, _ in _ = stepCapture }
                container.register(Tracked.self, name: "argument") { (_, tag: Int) in Tracked(instances, tag: tag) }
                    .inObjectScope(scope)
                container.register(HoldsWrappers.self) { r in
                    let holder = HoldsWrappers(
                        tracked: try r.require(Tracked.self),
                        lazy: try r.require(Lazy<Tracked>.self),
                        provider: try r.require(Provider<Tracked>.self))
                    _ = holder.lazy.instance  // a Lazy that has resolved holds its instance
                    return holder
                }.inObjectScope(.singleton)
                container.register(Decorated.self) { r in
                    Decorated(inner: try r.require(Tracked.self), capture: Tracked(instances))
                }.inObjectScope(scope === ObjectScope.weak ? .container : scope)
                container.decorate(Decorated.self) { _, decorated in
                    _ = decoratorCapture
                    return decorated
                }
                container.registerIntoCollection(Tracked.self) { _ in
                    _ = elementCapture
                    return Tracked(instances)
                }.inObjectScope(scope)
                child.register(Tracked.self, name: "child") { _ in Tracked(instances) }.inObjectScope(scope)
                // Resolve everything, from both containers and from another thread.
                for resolver in [container, child] {
                    _ = resolver.resolve(Tracked.self)
                    _ = resolver.resolve(Tracked.self, name: "argument", argument: 1)
                    _ = resolver.resolve(HoldsWrappers.self)?.provider.instance
                    _ = resolver.resolve(Decorated.self)
                    _ = try? resolver.resolveAll(Tracked.self)
                }
                _ = child.resolve(Tracked.self, name: "child")
                // Weakly: the thread may still hold its closure for a moment after it reports.
                let done = onThread(timeout: 10) { [weak child] in child?.resolve(HoldsWrappers.self) != nil }
                #expect(done == true)
                #expect(captures.liveCount == 4)
            }
            #expect(weakChild == nil, "the child container was not freed")
            #expect(weakContainer == nil, "the container was not freed")
            #expect(
                instances.liveCount == 0, "\(instances.liveCount) instances outlived their container (\(scopeName))")
            #expect(captures.liveCount == 0, "\(captures.liveCount) factory captures outlived their container")
        }

        @Test func droppedChildFreesItsOwnInstancesButNotItsParents() {
            let instances = LiveCount()
            let parent = Container()
            parent.register(Tracked.self) { _ in Tracked(instances, tag: 1) }.inObjectScope(.container)
            weak var weakChild: Container?
            do {
                let child = Container(parent: parent)
                weakChild = child
                child.register(Tracked.self, name: "own") { _ in Tracked(instances, tag: 2) }.inObjectScope(.container)
                _ = child.resolve(Tracked.self)
                _ = child.resolve(Tracked.self, name: "own")
                #expect(instances.liveCount == 2)
            }
            #expect(weakChild == nil)
            #expect(instances.liveCount == 1, "the parent keeps the instance made through the child")
            #expect(parent.resolve(Tracked.self)?.tag == 1)
        }

        /// Regression: a custom-scoped instance made by a top-level resolve stayed in the resolving thread's
        /// list of touched storages (and alive) until that thread resolved something else.
        @Test func customScopedInstanceMadeAtTopLevelIsNotKeptByTheResolvingThread() {
            let count = LiveCount()
            weak var weakContainer: Container?
            do {
                let container = Container()
                weakContainer = container
                container.register(Tracked.self) { _ in Tracked(count) }
                    .inObjectScope(ObjectScope(storageFactory: PermanentStorage.init))
                _ = container.resolve(Tracked.self)
            }
            #expect(weakContainer == nil)
            #expect(count.liveCount == 0)
            #expect(currentResolutionState().touchedStorages.isEmpty)
        }

        /// Regression: `GraphStorage` kept every finished graph's instance, one per top-level resolve, forever.
        @Test func customGraphScopeForgetsEachFinishedGraphAndSharesWithinOne() {
            let count = LiveCount()
            let container = Container()
            container.register(Tracked.self) { _ in Tracked(count) }
                .inObjectScope(ObjectScope(storageFactory: GraphStorage.init))
            container.register(Decorated.self) { r in
                Decorated(inner: try r.require(Tracked.self), capture: try r.require(Tracked.self))
            }
            var shared = 0
            for index in 0..<1_000 {
                if index % 2 == 0 {
                    _ = container.resolve(Tracked.self)
                } else if let decorated = container.resolve(Decorated.self), decorated.inner === decorated.capture {
                    shared += 1
                }
            }
            #expect(shared == 500, "one instance per graph")
            #expect(count.madeCount == 1_000)
            #expect(count.liveCount == 0, "\(count.liveCount) instances of finished graphs are still kept")
        }

        @Test(.heavy) func aMillionGraphResolvesKeepTheResolutionStateSmall() {
            let resolves = Budget.count(1_000_000, minimum: 50_000)
            let count = LiveCount()
            let customGraph = ObjectScope(storageFactory: GraphStorage.init, description: "custom graph")
            let container = Container()
            container.register(GraphLeaf.self) { _ in GraphLeaf() }
            container.register(Tracked.self) { _ in Tracked(count) }.inObjectScope(customGraph)
            container.register(GraphMiddle.self) { r in
                _ = try r.require(Tracked.self)
                return GraphMiddle(leaf: try r.require(GraphLeaf.self), other: try r.require(GraphLeaf.self))
            }
            container.register(GraphMiddle.self, name: "lazy") { r in
                _ = try r.require(Lazy<GraphLeaf>.self)
                return GraphMiddle(leaf: try r.require(GraphLeaf.self), other: try r.require(GraphLeaf.self))
            }
            container.register(GraphMiddle.self, name: "failing") { r in
                _ = try r.require(GraphLeaf.self)
                throw Failure()
            }
            let state = currentResolutionState()
            let initial = (frames: state.frameCapacity, graph: state.graphCapacity)
            let rssBefore = residentBytes()
            let start = now()
            var shared = 0
            var plain = 0
            var failures = 0
            for index in 0..<resolves {
                switch index % 8 {
                case 0: if container.resolve(GraphMiddle.self, name: "lazy") == nil { failures += 1 }
                case 1: if container.resolve(GraphMiddle.self, name: "failing") != nil { failures += 1 }
                case 2: if container.resolve(Tracked.self) == nil { failures += 1 }
                default:
                    plain += 1
                    guard let middle = container.resolve(GraphMiddle.self) else {
                        failures += 1
                        continue
                    }
                    if middle.leaf === middle.other { shared += 1 }
                }
            }
            let seconds = milliseconds(since: start) / 1_000
            let rssGrowth = residentBytes() - rssBefore
            let final = (
                frames: state.frameCapacity, graph: state.graphCapacity,
                storages: state.touchedStorages.capacity, handles: state.graphHandles.capacity
            )
            Figure.report(
                "\(resolves) graph-scope resolves",
                "frame capacity \(initial.frames)→\(final.frames), graph capacity \(initial.graph)→"
                    + "\(final.graph), touched-storage capacity \(final.storages), Lazy-handle capacity "
                    + "\(final.handles), custom-graph instances alive \(count.liveCount), RSS growth "
                    + "\(rssGrowth / 1_024) KiB, \(format(seconds)) s")
            #expect(failures == 0)
            #expect(shared == plain, "one GraphLeaf per graph")
            #expect(state.depth == 0 && state.graphCount == 0)
            #expect(final.frames == initial.frames && final.graph == initial.graph)
            #expect(final.storages <= 16 && final.handles <= 16)
            #expect(
                count.liveCount <= 1, "the custom graph scope keeps \(count.liveCount) instances of finished graphs")
            #expect(rssGrowth < 32 * 1_024 * 1_024, "resident memory grew by \(rssGrowth / 1_024) KiB")
        }
    }
}
