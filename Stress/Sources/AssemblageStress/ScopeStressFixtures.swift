// The services, counters and thread plumbing of the scope scenarios (ScopeStress.swift). Every instance counts
// itself in and out (`live`), every disposable one counts its creation and each of its disposals, so that a run
// can check that every instance made was disposed exactly once and that nothing is left alive afterwards.
import Assemblage
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Counters

/// What every thread of one scope run counts into.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ScopeRunState: Sendable {
    /// Serial numbers of instances, unique in the run.
    let serial = Atomic<Int>(0)
    /// Request ids, unique in the run.
    let requestIDs = Atomic<Int>(0)
    /// Instances (nodes, commands, uploads) alive now.
    let live = Atomic<Int>(0)
    /// Synchronously disposable instances made (nodes and commands), and their `dispose()` calls.
    let created = Atomic<Int>(0)
    let disposed = Atomic<Int>(0)
    /// Asynchronously disposable instances made (uploads), and their `dispose()` calls.
    let uploadsCreated = Atomic<Int>(0)
    let uploadsDisposed = Atomic<Int>(0)
    /// Scoped nodes, and transient commands, released without ever being disposed.
    let nodesUndisposed = Atomic<Int>(0)
    let commandsUndisposed = Atomic<Int>(0)
    /// Instances disposed more than once (each counted once per extra disposal).
    let doubleDisposed = Atomic<Int>(0)
    /// Instances disposed after an instance they depend on (the order scopes promise: newest first).
    let outOfOrder = Atomic<Int>(0)
    /// Disposals run by a resolving thread: instances whose creation completed after their scope had ended.
    let lateDisposals = Atomic<Int>(0)
    /// Values of another scope seen in a scope (a factory's dependency, or a resolve's result).
    let crossScope = Atomic<Int>(0)
    /// Two instances of one registration seen in one scope.
    let duplicates = Atomic<Int>(0)
    /// Disposable instances found disposed while their scope was still live.
    let disposedInUse = Atomic<Int>(0)
    /// Disposable instances found not disposed after their scope ended (or was dropped).
    let notDisposedAfterEnd = Atomic<Int>(0)
    /// `dispose()` calls that threw (the failing node's), and those failures reported to the handler.
    let failingDisposals = Atomic<Int>(0)
    let failuresReported = Atomic<Int>(0)
    /// Reported failures (to the handler or thrown by `end()`) that do not name the failing node's registration.
    let failuresMisnamed = Atomic<Int>(0)
    /// The failing node's registration, when there is one.
    let failingKey = LockedValue<ServiceKey?>(nil)
    /// Reports to `DisposalError.unhandledFailureHandler` from this run's threads.
    let reports = Atomic<Int>(0)
    /// Reports that did not say "dropped without being ended" first.
    let unexpectedReports = Atomic<Int>(0)
    /// Failures with `requiresAsyncDisposal` in those reports.
    let asyncNotDisposedReported = Atomic<Int>(0)
    /// Other failures in those reports (a disposer that threw: none of this run's do).
    let failedDisposalsReported = Atomic<Int>(0)
    /// The least and the most stack in use (below the thread's entry into the run) when the handler was called:
    /// reporting must not get deeper with every report.
    let reportDepths = LockedValue<(least: Int, most: Int)?>(nil)
    /// The first unexpected thing seen, for the report.
    let firstProblem = LockedValue<String?>(nil)
    /// sharedScopeEnd: factories spin up to this many rounds, so that ends land inside creations.
    let factorySpin: Int
    /// Whether disposal order is checked (not in sharedScopeEnd, where an instance completed after the end is
    /// disposed by its creator, possibly after its dependencies).
    let checksOrder: Bool

    init(factorySpin: Int, checksOrder: Bool) {
        self.factorySpin = factorySpin
        self.checksOrder = checksOrder
    }

    func nextSerial() -> Int { serial.wrappingAdd(1, ordering: .relaxed).newValue }
    func nextRequestID() -> Int { requestIDs.wrappingAdd(1, ordering: .relaxed).newValue }
    func count(_ counter: borrowing Atomic<Int>, _ delta: Int = 1) {
        counter.wrappingAdd(delta, ordering: .acquiringAndReleasing)
    }

    /// Keeps the first problem's description.
    func note(_ problem: @autoclosure () -> String) {
        firstProblem.withLock { if $0 == nil { $0 = problem() } }
    }

    /// Burns a pseudo-random number of rounds below `factorySpin`, derived from `seed`.
    func spin(_ seed: Int) {
        guard factorySpin > 0 else { return }
        let rounds =
            Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9_7F4A_7C15) >> 40)
            % factorySpin
        var accumulator = UInt64(truncatingIfNeeded: seed)
        for _ in 0..<rounds { accumulator = accumulator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        blackHole(accumulator)
    }
}

/// The address of a local of this call: where the stack is.
@inline(never)
func stackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

/// Keeps a value from being optimised away.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

// MARK: - Services

/// The value each scope provides: the request it serves.
struct ScopeRequest: Sendable {
    let id: Int
}

/// A `.container` service the first node depends on, so that creations inside a scope cross the shared path.
final class ScopeClock: Sendable {
    let started = DispatchTime.now().uptimeNanoseconds
}

/// One link of the chain of `.scoped` services: node `i` depends on node `i - 1` and on the request.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
protocol ScopeNode: AnyObject, Sendable {
    /// Unique in the run.
    var serial: Int { get }
    /// The id of the request the scope that made this node provided.
    var requestID: Int { get }
    /// The node this one depends on.
    var previous: (any ScopeNode)? { get }
    /// The transient command this node's factory resolved, if any.
    var command: ScopeCommand? { get }
    /// Whether `dispose()` ran (always false for a node that is not disposable).
    var isDisposed: Bool { get }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ScopeNode {
    /// Whether `dispose()` ran on a disposable instance this node depends on (directly or through the chain)
    /// while this one was not disposed yet.
    func dependencyDisposedFirst() -> Bool {
        if let command, command.isDisposed { return true }
        var node = previous
        while let current = node {
            if current is DisposableNode { return current.isDisposed }
            if let command = current.command { return command.isDisposed }
            node = current.previous
        }
        return false
    }
}

/// A node that is not disposable.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class PlainNode: ScopeNode {
    let state: ScopeRunState
    let serial: Int
    let requestID: Int
    let previous: (any ScopeNode)?
    let command: ScopeCommand?
    var isDisposed: Bool { false }

    init(_ state: ScopeRunState, request: ScopeRequest, previous: (any ScopeNode)?, command: ScopeCommand?) {
        self.state = state
        serial = state.nextSerial()
        requestID = request.id
        self.previous = previous
        self.command = command
        state.count(state.live)
        if let previous, previous.requestID != request.id {
            state.count(state.crossScope)
            state.note("a node of request \(request.id) got a dependency of request \(previous.requestID)")
        }
    }

    deinit { state.count(state.live, -1) }
}

/// A node that is disposable: counts its disposals, and checks that it goes before what it depends on.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class DisposableNode: ScopeNode, Disposable {
    let state: ScopeRunState
    let serial: Int
    let requestID: Int
    let previous: (any ScopeNode)?
    let command: ScopeCommand?
    /// Whether `dispose()` throws (after counting the disposal).
    let failsOnDispose: Bool
    private let disposals = Atomic<Int>(0)

    init(
        _ state: ScopeRunState, request: ScopeRequest, previous: (any ScopeNode)?, command: ScopeCommand?,
        failsOnDispose: Bool = false
    ) {
        self.state = state
        serial = state.nextSerial()
        requestID = request.id
        self.previous = previous
        self.command = command
        self.failsOnDispose = failsOnDispose
        state.count(state.live)
        state.count(state.created)
        if let previous, previous.requestID != request.id {
            state.count(state.crossScope)
            state.note("a node of request \(request.id) got a dependency of request \(previous.requestID)")
        }
    }

    deinit {
        if !isDisposed {
            state.count(state.nodesUndisposed)
            state.note("a DisposableNode of request \(requestID) was released without being disposed")
        }
        state.count(state.live, -1)
    }

    var isDisposed: Bool { disposals.load(ordering: .acquiring) > 0 }

    func dispose() throws {
        if state.checksOrder && dependencyDisposedFirst() {
            state.count(state.outOfOrder)
            state.note("a node of request \(requestID) was disposed after a dependency")
        }
        countDisposal(disposals, state)
        if failsOnDispose {
            state.count(state.failingDisposals)
            throw ScopeDisposalFailure()
        }
    }
}

/// What the failing node's `dispose()` throws.
struct ScopeDisposalFailure: Error, CustomStringConvertible {
    var description: String { "the failing node's disposal failed, as it always does" }
}

/// A transient disposable service that some nodes' factories resolve: made through a scope, the scope disposes it.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ScopeCommand: Disposable, Sendable {
    let state: ScopeRunState
    private let disposals = Atomic<Int>(0)

    init(_ state: ScopeRunState) {
        self.state = state
        state.count(state.live)
        state.count(state.created)
    }

    deinit {
        if !isDisposed {
            state.count(state.commandsUndisposed)
            state.note("a transient ScopeCommand made through a scope was released without being disposed")
        }
        state.count(state.live, -1)
    }

    var isDisposed: Bool { disposals.load(ordering: .acquiring) > 0 }

    func dispose() throws { countDisposal(disposals, state) }
}

/// Counts one disposal of an instance whose own count is `disposals`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func countDisposal(_ disposals: borrowing Atomic<Int>, _ state: ScopeRunState) {
    state.count(state.disposed)
    if ThreadTag.isResolver { state.count(state.lateDisposals) }
    if disposals.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
        state.count(state.doubleDisposed)
        state.note("an instance was disposed twice")
    }
}

/// A `.scoped` service that can only be disposed asynchronously.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ScopeUpload: AsyncDisposable, Sendable {
    let state: ScopeRunState
    let requestID: Int
    private let disposals = Atomic<Int>(0)

    init(_ state: ScopeRunState, request: ScopeRequest) {
        self.state = state
        requestID = request.id
        state.count(state.live)
        state.count(state.uploadsCreated)
    }

    deinit { state.count(state.live, -1) }

    func dispose() async throws {
        state.count(state.uploadsDisposed)
        if disposals.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
            state.count(state.doubleDisposed)
            state.note("an upload was disposed twice")
        }
    }
}

// MARK: - The container

/// The registrations every scope scenario resolves, and how to resolve a node by its index.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct ScopeFixture: Sendable {
    let container: Container
    let chain: Int
    private let names: [String]

    /// Node `index` is not disposable when `index` is a multiple of 3 (node 0 included).
    static func isPlain(_ index: Int) -> Bool { index % 3 == 0 }
    /// Node `index`'s factory resolves a transient command when `index % 4 == 3`.
    static func hasCommand(_ index: Int) -> Bool { index % 4 == 3 }

    /// A container with the request declared, a `.container` clock, the transient command, the scoped upload
    /// and `chain` scoped nodes; node `failingNode` (a disposable one), if any, throws from `dispose()`.
    init(_ state: ScopeRunState, chain: Int, failingNode: Int? = nil) {
        precondition(failingNode.map { !Self.isPlain($0) && $0 < chain } ?? true, "the failing node must be disposable")
        state.failingKey.withLock { $0 = failingNode.map { ServiceKey(DisposableNode.self, name: "node\($0)") } }
        precondition(chain > 0, "the chain needs at least one node")
        let container = Container(label: "stress.scopes")
        let names = (0..<chain).map { "node\($0)" }
        self.container = container
        self.chain = chain
        self.names = names
        container.registerScopedValue(ScopeRequest.self)
        container.register(ScopeClock.self) { _ in ScopeClock() }.inObjectScope(.container)
        container.register(ScopeCommand.self) { _ in ScopeCommand(state) }
        container.register(ScopeUpload.self) { r in ScopeUpload(state, request: try r.require(ScopeRequest.self)) }
            .inObjectScope(.scoped)
        for index in 0..<chain {
            let fixture = self
            if Self.isPlain(index) {
                container.register(PlainNode.self, name: names[index]) { r in
                    let (request, previous, command) = try fixture.dependencies(of: index, r, state)
                    return PlainNode(state, request: request, previous: previous, command: command)
                }.inObjectScope(.scoped)
            } else {
                container.register(DisposableNode.self, name: names[index]) { r in
                    let (request, previous, command) = try fixture.dependencies(of: index, r, state)
                    return DisposableNode(
                        state, request: request, previous: previous, command: command,
                        failsOnDispose: index == failingNode)
                }.inObjectScope(.scoped)
            }
        }
    }

    /// What node `index`'s factory resolves before making the node.
    private func dependencies(of index: Int, _ r: any Resolver, _ state: ScopeRunState) throws(ResolutionError)
        -> (ScopeRequest, (any ScopeNode)?, ScopeCommand?)
    {
        let request = try r.require(ScopeRequest.self)
        let previous = index == 0 ? nil : try node(index - 1, r)
        if index == 0 { _ = try r.require(ScopeClock.self) }
        let command = Self.hasCommand(index) ? try r.require(ScopeCommand.self) : nil
        state.spin(request.id &* 31 &+ index)
        return (request, previous, command)
    }

    /// Resolves node `index` through `resolver`.
    func node(_ index: Int, _ resolver: any Resolver) throws(ResolutionError) -> any ScopeNode {
        if Self.isPlain(index) { return try resolver.require(PlainNode.self, name: names[index]) }
        return try resolver.require(DisposableNode.self, name: names[index])
    }
}

// MARK: - Threads

/// Thread-specific marks: which run a thread works for (so that the unhandled-disposal handler counts this run's
/// reports and hands every other one to the handler it replaced), and whether it is a resolving thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
enum ThreadTag {
    private static let runKey: pthread_key_t = makeKey()
    private static let resolverKey: pthread_key_t = makeKey()
    private static let stackBaseKey: pthread_key_t = makeKey()

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("pthread_key_create failed") }
        return key
    }

    /// Marks this thread as working for `state`'s run, and as a resolving thread or not.
    static func enter(_ state: ScopeRunState, resolver: Bool) {
        pthread_setspecific(runKey, Unmanaged.passUnretained(state).toOpaque())
        pthread_setspecific(resolverKey, resolver ? UnsafeRawPointer(bitPattern: 1) : nil)
        pthread_setspecific(stackBaseKey, UnsafeRawPointer(bitPattern: stackAddress()))
    }

    /// Clears this thread's marks.
    static func leave() {
        pthread_setspecific(runKey, nil)
        pthread_setspecific(resolverKey, nil)
        pthread_setspecific(stackBaseKey, nil)
    }

    /// Bytes of stack in use below the point where this thread entered the run (nil on other threads).
    static func stackDepth() -> Int? {
        guard let base = pthread_getspecific(stackBaseKey) else { return nil }
        let here = stackAddress()
        let top = UInt(bitPattern: base)
        return top >= here ? Int(top - here) : Int(here - top)
    }

    /// Whether this thread works for `state`'s run.
    static func isWorking(for state: ScopeRunState) -> Bool {
        pthread_getspecific(runKey) == UnsafeMutableRawPointer(Unmanaged.passUnretained(state).toOpaque())
    }

    /// Whether this thread is a resolving thread (not one that ends scopes).
    static var isResolver: Bool { pthread_getspecific(resolverKey) != nil }
}

/// A value behind an `NSLock` (a pthread mutex, which the thread sanitizer understands: `Synchronization.Mutex`
/// takes its contended path in code the sanitizer does not see, and the scenarios' threads would then be reported
/// as racing on the values it guards).
final class LockedValue<Value: Sendable>: @unchecked Sendable {  // @unchecked: `value` only under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A reusable barrier for a fixed number of threads.
final class RoundBarrier: @unchecked Sendable {  // @unchecked: `waiting` and `generation` only under `condition`.
    private let condition = NSCondition()
    private let parties: Int
    private var waiting = 0
    private var generation = 0

    init(parties: Int) { self.parties = parties }

    /// Waits until `parties` threads have arrived.
    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        let arrivedIn = generation
        waiting += 1
        if waiting == parties {
            waiting = 0
            generation += 1
            condition.broadcast()
            return
        }
        while generation == arrivedIn { condition.wait() }
    }
}

/// A small, fast generator (SplitMix64) for the threads' random choices, seeded from the system's.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Starts `body` on a new thread marked for `state`'s run; `finished` is left when it returns.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func startThread(
    _ state: ScopeRunState, resolver: Bool, _ finished: DispatchGroup,
    _ body: @escaping @Sendable () -> Void
) {
    finished.enter()
    let thread = Thread {
        ThreadTag.enter(state, resolver: resolver)
        body()
        ThreadTag.leave()
        finished.leave()
    }
    thread.start()
}
