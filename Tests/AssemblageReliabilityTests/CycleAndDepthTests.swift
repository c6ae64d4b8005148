import Dispatch
import Foundation
import Testing

@testable import Assemblage

/// Ten distinct types, so that a cycle "by type" can be ten registrations long.
protocol CycleTag: Sendable { init() }
struct T0: CycleTag {}
struct T1: CycleTag {}
struct T2: CycleTag {}
struct T3: CycleTag {}
struct T4: CycleTag {}
struct T5: CycleTag {}
struct T6: CycleTag {}
struct T7: CycleTag {}
struct T8: CycleTag {}
struct T9: CycleTag {}
let cycleTags: [any CycleTag.Type] = [
    T0.self, T1.self, T2.self, T3.self, T4.self, T5.self, T6.self, T7.self,
    T8.self, T9.self,
]

/// One node of a cycle made of distinct types.
final class TypedNode<Tag: CycleTag>: @unchecked Sendable { init(_ next: Any?) {} }  // @unchecked: no state.
/// One node of a cycle made of names.
final class NamedNode: @unchecked Sendable { init(_ next: Any?) {} }  // @unchecked: no state.
/// One node of a cycle made of argument lists.
final class ArgumentNode: @unchecked Sendable { init(_ next: Any?) {} }  // @unchecked: no state.

/// How the registrations of a cycle differ from each other.
enum CycleKind: String, CaseIterable, Sendable {
    case byType, byName, byArguments
}

/// Where the registrations of a cycle live.
enum CyclePlacement: String, CaseIterable, Sendable {
    /// All in one container.
    case oneContainer
    /// Alternating between a parent and its child (resolved from the child).
    case parentAndChild
}

/// The scopes of the registrations of a cycle.
enum CycleScopes: String, CaseIterable, Sendable {
    case graph, container, mixed

    func scope(at index: Int) -> ObjectScope {
        switch self {
        case .graph: .graph
        case .container: .container
        case .mixed: [ObjectScope.transient, .graph, .container, .weak, .singleton][index % 5]
        }
    }
}

/// A cycle of `length` registrations: node i needs node (i + 1) % length, until ``breakCycle()`` is called.
struct CycleFixture {
    let kind: CycleKind
    let length: Int
    let parent = Container(label: "parent")
    let child: Container
    let placement: CyclePlacement
    let scopes: CycleScopes
    let broken = Locked(false)

    init(kind: CycleKind, length: Int, placement: CyclePlacement, scopes: CycleScopes) {
        self.kind = kind
        self.length = length
        self.placement = placement
        self.scopes = scopes
        child = Container(parent: parent, label: "child")
        for index in 0..<length { register(index) }
    }

    func container(for index: Int) -> Container {
        placement == .parentAndChild && index % 2 == 0 ? parent : child
    }

    /// The key of node `index`.
    func key(_ index: Int) -> ServiceKey {
        switch kind {
        case .byType:
            func open<T: CycleTag>(_: T.Type) -> ServiceKey { ServiceKey(TypedNode<T>.self) }
            return open(cycleTags[index])
        case .byName:
            return ServiceKey(NamedNode.self, name: "n\(index)")
        case .byArguments:
            func open<T: CycleTag>(_: T.Type) -> ServiceKey { ServiceKey(ArgumentNode.self, argumentTypes: T.self) }
            return open(cycleTags[index])
        }
    }

    /// Resolves node `index` (throwing), from `resolver`.
    static func resolve(_ kind: CycleKind, _ index: Int, from resolver: Resolver) throws -> Any {
        switch kind {
        case .byType:
            func open<T: CycleTag>(_: T.Type) throws -> Any { try resolver.require(TypedNode<T>.self) }
            return try open(cycleTags[index])
        case .byName:
            return try resolver.require(NamedNode.self, name: "n\(index)")
        case .byArguments:
            func open<T: CycleTag>(_: T.Type) throws -> Any { try resolver.require(ArgumentNode.self, argument: T()) }
            return try open(cycleTags[index])
        }
    }

    private func register(_ index: Int) {
        let kind = self.kind
        let next = (index + 1) % length
        let last = index == length - 1
        let broken = self.broken
        let container = container(for: index)
        let scope = scopes.scope(at: index)
        @Sendable func nextNode(_ r: Resolver) throws -> Any? {
            if last, broken.current { return nil }
            return try CycleFixture.resolve(kind, next, from: r)
        }
        switch kind {
        case .byType:
            func open<T: CycleTag>(_: T.Type) {
                container.register(TypedNode<T>.self) { r in TypedNode<T>(try nextNode(r)) }.inObjectScope(scope)
            }
            open(cycleTags[index])
        case .byName:
            container.register(NamedNode.self, name: "n\(index)") { r in NamedNode(try nextNode(r)) }
                .inObjectScope(scope)
        case .byArguments:
            func open<T: CycleTag>(_: T.Type) {
                container.register(ArgumentNode.self) { (r, _: T) in ArgumentNode(try nextNode(r)) }.inObjectScope(
                    scope)
            }
            open(cycleTags[index])
        }
    }

    /// Makes the last node stop needing the first: the chain becomes acyclic.
    func breakCycle() { broken.withLock { $0 = true } }
}

/// The calling thread's resolution state, for checks that nothing is left behind.
func currentResolutionState() -> _ResolutionState {
    Unmanaged<_ResolutionState>.fromOpaque(_ResolutionState.current).takeUnretainedValue()
}

/// A chain of `length` registrations: "c0" is 0, "cN" is c(N-1) + 1.
func chainContainer(length: Int) -> Container {
    let container = Container()
    container.register(Int.self, name: "c0") { _ in 0 }
    for level in 1..<length {
        container.register(Int.self, name: "c\(level)") { r in try r.require(Int.self, name: "c\(level - 1)") + 1 }
    }
    return container
}

/// The outcome of resolving the end of a chain, as text (Sendable, comparable).
func resolveChainEnd(_ container: Container, length: Int) -> String {
    do {
        return "value \(try container.require(Int.self, name: "c\(length - 1)"))"
    } catch {
        return "error \(error.code)"
    }
}

extension Reliability {
    /// Cycles of every shape become errors naming the cycle, quickly; deep acyclic chains resolve.
    @Suite("Cycles and depth", .serialized)
    struct CycleAndDepthTests {
        static let lengths = [2, 3, 10]

        @Test(arguments: CycleKind.allCases, CyclePlacement.allCases)
        func constructorCycleIsAnErrorNamingTheCycleWithin10ms(_ kind: CycleKind, _ placement: CyclePlacement) {
            var report: [String] = []
            for length in Self.lengths {
                for scopes in CycleScopes.allCases {
                    let fixture = CycleFixture(kind: kind, length: length, placement: placement, scopes: scopes)
                    let expected = (0..<length).map(fixture.key) + [fixture.key(0)]
                    var times: [Double] = []
                    let attempts = 20
                    var named = 0
                    for _ in 0..<attempts {
                        let start = now()
                        do {
                            _ = try CycleFixture.resolve(kind, 0, from: fixture.child)
                            Issue.record("a cycle of \(length) (\(kind), \(placement), \(scopes)) resolved")
                        } catch let error as ResolutionError {
                            times.append(milliseconds(since: start))
                            if error.code == .cycle, error.cycle == expected, error.path == expected,
                                error.key == fixture.key(0)
                            {
                                named += 1
                            } else {
                                Issue.record("\(kind) \(placement) \(scopes) length \(length): \(error)")
                            }
                        } catch {
                            Issue.record("unexpected error \(error)")
                        }
                        let state = currentResolutionState()
                        #expect(state.depth == 0 && state.graphCount == 0, "the failed resolution left state behind")
                    }
                    #expect(named == attempts)
                    let median = percentile(times, 0.5)
                    #expect(median < Budget.seconds(0.01) * 1_000, "median \(median) ms")
                    #expect((times.max() ?? 0) < Budget.seconds(0.25) * 1_000, "max \(times.max() ?? 0) ms")
                    // Still usable: other services resolve, and once the cycle is broken the whole chain does,
                    // from another thread too (a leftover "being created" mark would make that thread wait).
                    fixture.child.register(String.self) { _ in "ok" }
                    #expect(fixture.child.resolve(String.self) == "ok")
                    fixture.breakCycle()
                    let child = fixture.child
                    let fixed = onThread(timeout: 10) { (try? CycleFixture.resolve(kind, 0, from: child)) != nil }
                    #expect(fixed == true, "after the cycle was broken, \(kind) \(placement) \(scopes) did not resolve")
                    report.append(
                        "L\(length)/\(scopes.rawValue) median \(format(median)) max \(format(times.max() ?? 0))")
                }
            }
            Figure.report(
                "cycle errors \(kind.rawValue), \(placement.rawValue)",
                "all \(Self.lengths.count * CycleScopes.allCases.count * 20) named the cycle; ms: "
                    + report.joined(separator: "; "))
        }

        @Test func cycleErrorDescriptionNamesEveryRegistrationInOrder() throws {
            let fixture = CycleFixture(kind: .byName, length: 10, placement: .parentAndChild, scopes: .mixed)
            let error = try #require(throws: ResolutionError.self) {
                try CycleFixture.resolve(.byName, 3, from: fixture.child)
            }
            let names = [3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3].map { "NamedNode (name: \"n\($0)\")" }
            #expect(error.description.hasPrefix("Circular dependency: " + names.joined(separator: " → ") + "."))
        }

        static let chainLength = 1_000

        /// On Apple platforms the main actor runs on the main thread; under `swift test` on Linux the main queue is
        /// drained by another thread (the process's main thread waits in the test harness), so this checks the
        /// main actor's thread, whichever it is.
        @MainActor @Test func acyclicChainOf1000ResolvesOnTheMainActor() {
            let container = chainContainer(length: Self.chainLength)
            let outcome = resolveChainEnd(container, length: Self.chainLength)
            Figure.report(
                "1,000-deep chain on the main actor",
                "\(outcome) (process main thread: \(Thread.isMainThread))")
            #expect(outcome == "value \(Self.chainLength - 1)")
        }

        @Test func acyclicChainOf1000ResolvesOnADispatchWorker() {
            let container = chainContainer(length: Self.chainLength)
            let outcome = onDispatchWorker(timeout: 60) { resolveChainEnd(container, length: Self.chainLength) }
            #expect(outcome == "value \(Self.chainLength - 1)")
        }

        @Test func acyclicChainOf1000ResolvesOnA512KiBThread() {
            let container = chainContainer(length: Self.chainLength)
            let outcome = onThread(stackSize: 512 * 1024, timeout: 60) {
                resolveChainEnd(container, length: Self.chainLength)
            }
            Figure.report("1,000-deep chain on a 512 KiB thread", outcome ?? "timed out")
            #expect(outcome == "value \(Self.chainLength - 1)")
        }

        @Test(arguments: [48 * 1024, 64 * 1024, 128 * 1024])
        func chainOf100ResolvesOnASmallStackThread(stackSize: Int) {
            // The stack guard checks before every factory, so a thread with a small stack hands the rest of a
            // deep chain to a roomier thread from the first level where it runs low (it used to start checking
            // at depth 16, and chains of 24–40 overflowed such threads in release builds).
            let container = chainContainer(length: 100)
            let outcome = onThread(stackSize: stackSize, timeout: 60) { resolveChainEnd(container, length: 100) }
            Figure.report("100-deep chain on a \(stackSize / 1024) KiB thread", outcome ?? "timed out")
            #expect(outcome == "value 99")
        }

        @Test func chainPastTheDepthLimitFailsWithoutExhaustingA512KiBStack() {
            // One level past the limit fails (the limit was once only checked when the frame buffer doubled,
            // from 1,024 to 2,048, which let a chain of 2,000 through); exactly the limit resolves.
            let length = _ResolutionState.maxDepth + 1
            let container = chainContainer(length: length)
            let outcome = onThread(stackSize: 512 * 1024, timeout: 60) { resolveChainEnd(container, length: length) }
            #expect(outcome == "error depthLimitExceeded")
            let fits = chainContainer(length: _ResolutionState.maxDepth)
            let fitsOutcome = onThread(stackSize: 512 * 1024, timeout: 60) {
                resolveChainEnd(fits, length: _ResolutionState.maxDepth)
            }
            #expect(fitsOutcome == "value \(_ResolutionState.maxDepth - 1)")
        }

        @Test func resolutionThatRunsLowOnStackGoesOnAsIfItHadNotMoved() throws {
            // A chain deep enough to run low on a 256 KiB stack in any build: the part below the low-water mark
            // runs on a continuation thread. It must share the graph, the cycle detection and the task-scoped root.
            let length = 600
            let container = Container()
            let mock = Container(label: "mock")
            container.register(SharedPart.self) { _ in SharedPart() }
            container.register(DeepNode.self, name: "d0") { r in
                DeepNode(
                    next: nil, part: try r.require(SharedPart.self), root: Container.root,
                    thread: ObjectIdentifier(Thread.current))
            }
            for level in 1..<length {
                container.register(DeepNode.self, name: "d\(level)") { r in
                    DeepNode(
                        next: try r.require(DeepNode.self, name: "d\(level - 1)"),
                        part: level == length - 1 ? try r.require(SharedPart.self) : nil, root: nil,
                        thread: ObjectIdentifier(Thread.current))
                }
            }
            let top = onThread(stackSize: 256 * 1024, timeout: 60) { () -> DeepNode? in
                Container.withRoot(mock) { try? container.require(DeepNode.self, name: "d\(length - 1)") }
            }
            let node = try #require(top ?? nil, "the deep chain did not resolve")
            var bottom = node
            var threads = Set<ObjectIdentifier>()
            while let next = bottom.next {
                threads.insert(bottom.thread)
                bottom = next
            }
            threads.insert(bottom.thread)
            Figure.report(
                "continuation on a larger stack",
                "600-deep chain from a 256 KiB thread ran on \(threads.count) threads, graph shared across "
                    + "them: \(node.part === bottom.part), task-scoped root seen below: \(bottom.root === mock)")
            #expect(threads.count > 1, "the chain never ran low on stack, so nothing was checked")
            #expect(node.part != nil && node.part === bottom.part, "graph identity across the continuation")
            #expect(bottom.root === mock, "the task-scoped root is carried to the continuation")
            // A cycle that closes below the low-water mark is still a cycle error naming the whole loop.
            container.register(DeepNode.self, name: "d0") { r in
                DeepNode(
                    next: try r.require(DeepNode.self, name: "d\(length - 1)"), part: nil, root: nil,
                    thread: ObjectIdentifier(Thread.current))
            }
            let cycle = onThread(stackSize: 256 * 1024, timeout: 60) { () -> [ServiceKey] in
                do throws(ResolutionError) {
                    _ = try container.require(DeepNode.self, name: "d\(length - 1)")
                    return []
                } catch {
                    return error.code == .cycle ? error.cycle : []
                }
            }
            #expect(cycle?.count == length + 1, "a cycle of \(length) across threads is reported whole")
        }
    }
}

/// One level of a deep chain: what it found, and on which thread it was made.
final class DeepNode: @unchecked Sendable {  // @unchecked: immutable.
    let next: DeepNode?
    let part: SharedPart?
    let root: Container?
    let thread: ObjectIdentifier
    init(next: DeepNode?, part: SharedPart?, root: Container?, thread: ObjectIdentifier) {
        self.next = next
        self.part = part
        self.root = root
        self.thread = thread
    }
}
