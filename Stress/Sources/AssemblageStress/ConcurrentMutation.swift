// Readers resolving a `.container` service in a loop while one thread changes the container under them: the
// concurrent-mutation scenarios. Every resolved value is used (its payload read and checked), so that an instance freed
// while a reader still held it shows as a crash or a corrupt value instead of going unnoticed.
import Assemblage
import Dispatch
import Foundation
import Synchronization

/// What the mutating thread does while the readers resolve.
package enum MutationScenario: String, CaseIterable, Codable, Sendable {
    /// `resetObjectScope(.container)` in a loop.
    case reset
    /// `removeAll()` followed by registering the service again, in a loop.
    case removeAll
    /// Registering the same key again (`.container` scope, so replaced instances are in play), in a loop.
    case reregister
    /// `addFallback` of a fresh container in a loop; the service lives in the first fallback, so every resolve
    /// reads the fallback list. Every `fallbacksPerGeneration` additions the readers move to a new container,
    /// so that memory stays bounded however long the run is.
    case addFallback

    /// What the mutator does, for summaries.
    package var mutation: String {
        switch self {
        case .reset: "resetObjectScope(.container)"
        case .removeAll: "removeAll() + register"
        case .reregister: "register (same key, .container)"
        case .addFallback: "addFallback(Container())"
        }
    }

    /// Whether a reader may find no registration (only between `removeAll()` and the next `register`).
    package var allowsMissingRegistration: Bool { self == .removeAll }
}

/// How much work one run does.
package struct StressConfiguration: Codable, Sendable {
    /// Reader threads.
    package var threads: Int
    /// Resolves per reader thread.
    package var resolves: Int
    /// `addFallback` only: fallbacks added to one container before the readers move to a fresh one.
    package var fallbacksPerGeneration: Int

    package init(threads: Int, resolves: Int, fallbacksPerGeneration: Int = 1_000) {
        self.threads = threads
        self.resolves = resolves
        self.fallbacksPerGeneration = fallbacksPerGeneration
    }
}

/// What one run saw.
package struct StressResult: Codable, Sendable {
    package var scenario: MutationScenario
    package var configuration: StressConfiguration
    /// Resolves that returned an instance.
    package var resolved: Int
    /// Resolves that returned nil.
    package var missing: Int
    /// Instances whose payload was not what their initialiser wrote: freed or torn objects.
    package var corrupt: Int
    /// Mutations the mutating thread completed while the readers ran.
    package var mutations: Int
    /// Wall time from opening the start gate until the last reader finished.
    package var seconds: Double
    /// The process's peak resident memory after the run (nil where not measurable).
    package var peakResidentBytes: Int?

    package init(
        scenario: MutationScenario, configuration: StressConfiguration, resolved: Int, missing: Int,
        corrupt: Int, mutations: Int, seconds: Double, peakResidentBytes: Int?
    ) {
        self.scenario = scenario
        self.configuration = configuration
        self.resolved = resolved
        self.missing = missing
        self.corrupt = corrupt
        self.mutations = mutations
        self.seconds = seconds
        self.peakResidentBytes = peakResidentBytes
    }

    /// The problems of this run, empty when it passed.
    package var problems: [String] {
        var problems: [String] = []
        if corrupt > 0 { problems.append("\(corrupt) corrupt instances") }
        if missing > 0 && !scenario.allowsMissingRegistration {
            problems.append("\(missing) resolves returned nil although the service was always registered")
        }
        if resolved + missing != configuration.threads * configuration.resolves {
            problems.append(
                "\(resolved + missing) resolves counted, \(configuration.threads * configuration.resolves) made")
        }
        if mutations == 0 { problems.append("the mutator never ran while the readers did") }
        return problems
    }
}

/// The service the readers resolve: a class whose array payload a reader reads, so a freed instance shows.
package final class StressService: Sendable {
    /// What every payload starts with.
    package static let marker = 0x5EED_CAFE
    package let payload: [Int]

    package init(_ serial: Int) {
        payload = [Self.marker, serial, ~Self.marker, serial &* 31]
    }

    /// Whether the payload is still what the initialiser wrote.
    @inline(never)
    package var isIntact: Bool {
        payload.count == 4 && payload[0] == Self.marker && payload[2] == ~Self.marker && payload[3] == payload[1] &* 31
    }
}

/// The container of a run, behind an `NSLock` rather than a `Synchronization.Mutex`: on Linux the thread sanitizer
/// does not see `Mutex`'s locking, and reported the readers' and the `addFallback` mutator's locked accesses to it
/// as a data race (now and then, in the sanitizer step of `.ci/run`).
private final class CurrentContainer: @unchecked Sendable {  // @unchecked: `container` is only touched under `lock`.
    private let lock = NSLock()
    private var container: Container

    init(_ container: Container) { self.container = container }

    func withLock<R>(_ body: (inout Container) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&container)
    }
}

/// The state every thread of a run shares.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class RunState: Sendable {
    let arrived = Atomic<Int>(0)
    let go = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    let readersLeft: Atomic<Int>
    let resolved = Atomic<Int>(0)
    let missing = Atomic<Int>(0)
    let corrupt = Atomic<Int>(0)
    let mutations = Atomic<Int>(0)
    let serial = Atomic<Int>(0)
    /// The container the readers resolve from; replaced only by the `addFallback` scenario.
    let current: CurrentContainer

    init(readers: Int, container: Container) {
        readersLeft = Atomic(readers)
        current = CurrentContainer(container)
    }

    func nextSerial() -> Int { serial.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Counts this thread in, then waits (spinning, yielding the core) until the gate opens.
    func arriveAndWait() {
        arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
        while !go.load(ordering: .acquiring) { sched_yield() }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension MutationScenario {
    /// Registers the service where this scenario's readers find it and returns the container they resolve from.
    fileprivate func makeContainer(_ state: RunState) -> Container {
        switch self {
        case .reset, .removeAll, .reregister:
            let container = Container(label: "stress.\(rawValue)")
            register(into: container, state)
            return container
        case .addFallback:
            return makeFallbackGeneration(state)
        }
    }

    fileprivate func register(into container: Container, _ state: RunState) {
        container.register(StressService.self) { _ in StressService(state.nextSerial()) }.inObjectScope(.container)
    }

    /// A container with no registrations of its own whose first fallback holds the service.
    fileprivate func makeFallbackGeneration(_ state: RunState) -> Container {
        let base = Container(label: "stress.base")
        register(into: base, state)
        let front = Container(label: "stress.front")
        do { try front.addFallback(base) } catch {
            fatalError("a fresh container cannot make a fallback cycle: \(error)")
        }
        return front
    }

    /// The mutating thread's loop: mutate until the last reader is done.
    fileprivate func mutate(_ state: RunState, _ configuration: StressConfiguration) {
        var container = state.current.withLock { $0 }
        var addedToThisGeneration = 0
        var count = 0
        while !state.stop.load(ordering: .relaxed) {
            switch self {
            case .reset:
                container.resetObjectScope(.container)
            case .removeAll:
                container.removeAll()
                register(into: container, state)
            case .reregister:
                register(into: container, state)
            case .addFallback:
                if addedToThisGeneration == configuration.fallbacksPerGeneration {
                    container = makeFallbackGeneration(state)
                    let next = container
                    state.current.withLock { $0 = next }
                    addedToThisGeneration = 0
                }
                do { try container.addFallback(Container(label: "stress.fresh")) } catch {
                    fatalError("a fresh container cannot make a fallback cycle: \(error)")
                }
                addedToThisGeneration += 1
            }
            count += 1
        }
        state.mutations.store(count, ordering: .releasing)
    }
}

/// Resolves from `state`'s container in a loop, checking every instance; counts into `state` at the end.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func read(_ state: RunState, resolves: Int, refreshEvery: Int?) {
    var container = state.current.withLock { $0 }
    var resolved = 0
    var missing = 0
    var corrupt = 0
    for index in 0..<resolves {
        if let refreshEvery, index % refreshEvery == 0 { container = state.current.withLock { $0 } }
        if let service = container.resolve(StressService.self) {
            resolved += 1
            if !service.isIntact { corrupt += 1 }
        } else {
            missing += 1
        }
    }
    state.resolved.wrappingAdd(resolved, ordering: .relaxed)
    state.missing.wrappingAdd(missing, ordering: .relaxed)
    state.corrupt.wrappingAdd(corrupt, ordering: .relaxed)
    if state.readersLeft.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
        state.stop.store(true, ordering: .releasing)
    }
}

/// Runs one scenario once in this process: `configuration.threads` readers and one mutator, started together.
///
/// Returns when every thread has finished. A use-after-free in the library may crash the process instead;
/// the `assemblage-stress` runner therefore runs each run in a child process and counts crashes.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package func runConcurrentMutation(_ scenario: MutationScenario, _ configuration: StressConfiguration) -> StressResult {
    precondition(configuration.threads > 0 && configuration.resolves > 0, "threads and resolves must be positive")
    precondition(configuration.fallbacksPerGeneration > 0, "fallbacksPerGeneration must be positive")
    let placeholder = Container(label: "stress.placeholder")
    let state = RunState(readers: configuration.threads, container: placeholder)
    let container = scenario.makeContainer(state)
    state.current.withLock { $0 = container }
    // One resolve before the gate opens, so the first instance exists and the readers start on the contended
    // steady state rather than all racing for the first construction.
    _ = container.resolve(StressService.self)

    let finished = DispatchGroup()
    let refreshEvery: Int? = scenario == .addFallback ? 256 : nil
    for _ in 0..<configuration.threads {
        finished.enter()
        Thread {
            state.arriveAndWait()
            read(state, resolves: configuration.resolves, refreshEvery: refreshEvery)
            finished.leave()
        }.start()
    }
    finished.enter()
    Thread {
        state.arriveAndWait()
        scenario.mutate(state, configuration)
        finished.leave()
    }.start()

    while state.arrived.load(ordering: .acquiring) < configuration.threads + 1 { sched_yield() }
    let start = ProcessMeasure.now()
    state.go.store(true, ordering: .releasing)
    finished.wait()
    let seconds = ProcessMeasure.seconds(since: start)
    withExtendedLifetime(container) {}
    return StressResult(
        scenario: scenario, configuration: configuration,
        resolved: state.resolved.load(ordering: .acquiring), missing: state.missing.load(ordering: .acquiring),
        corrupt: state.corrupt.load(ordering: .acquiring), mutations: state.mutations.load(ordering: .acquiring),
        seconds: seconds, peakResidentBytes: ProcessMeasure.peakResidentBytes())
}
