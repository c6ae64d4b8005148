// Request scopes under concurrency: many threads making and ending scopes, threads resolving from one scope while
// another ends it, and scopes dropped without being ended. Every disposable instance counts its creation and each
// of its disposals, every instance counts itself alive, so that a run checks that each instance was disposed
// exactly once, that no value crossed from one scope to another and that nothing is left alive afterwards.
import Assemblage
import Dispatch
import Foundation
import Synchronization

/// A scenario of request scopes under concurrency.
package enum ScopeScenario: String, CaseIterable, Codable, Sendable {
    /// Each thread makes scopes in a loop: provides a request, resolves a chain of scoped services (some
    /// disposable, some with transient disposable dependencies), checks that every value is this scope's, and
    /// ends it (`end()`, `withSynchronousScope`, and every 16th through `await withScope`).
    case concurrentScopes
    /// The resolving threads resolve scoped services from one scope while another thread ends it at a random
    /// moment (after a random number of resolves, sometimes before any; `end()`, `await end()`, or two threads
    /// ending it at once); a round per scope.
    case sharedScopeEnd
    /// Each thread makes scopes, resolves through them, hands every other one to another thread, and drops them
    /// without `end()`: the last reference disposes them and reports "never ended".
    case droppedScopes

    /// What the scenario does, for summaries.
    package var summary: String {
        switch self {
        case .concurrentScopes: "makeScope, provide, resolve the chain, end"
        case .sharedScopeEnd: "resolve from one scope while another thread ends it"
        case .droppedScopes: "scopes dropped without end()"
        }
    }

    /// Resolving threads of the full-size run (``sharedScopeEnd`` has one more, which ends the scopes).
    package var defaultThreads: Int { self == .sharedScopeEnd ? 4 : 8 }

    /// Scopes per thread (shared scopes, for ``sharedScopeEnd``) of the full-size run: about half a second a run
    /// on two cores, so that 20 runs take about 10 s (and stay under 30 s on a loaded machine).
    package var defaultScopes: Int {
        switch self {
        case .concurrentScopes: 8_000
        case .sharedScopeEnd: 3_000
        case .droppedScopes: 1_000
        }
    }

    /// What `scopes` counts, for summaries.
    package var scopesUnit: String { self == .sharedScopeEnd ? "shared scopes" : "scopes" }
}

/// How much work one run of a scope scenario does.
package struct ScopeStressConfiguration: Codable, Sendable {
    /// Threads that resolve (``ScopeScenario/sharedScopeEnd``: one more thread ends the scopes).
    package var threads: Int
    /// Scopes each thread makes; for ``ScopeScenario/sharedScopeEnd``, the scopes (rounds) all threads share.
    package var scopes: Int
    /// Scoped nodes in the chain each scope resolves (more than 8, so that a scope's slots overflow its inline
    /// capacity).
    package var chain: Int
    /// The run's time limit in seconds: no new scope is started after it.
    package var seconds: Double
    /// ``ScopeScenario/sharedScopeEnd``: factories spin up to this many rounds, so that ends land inside
    /// creations.
    package var factorySpin: Int
    /// ``ScopeScenario/sharedScopeEnd``: the longest wait, in microseconds, between letting the threads at a
    /// scope and ending it (about the time the chain takes to make, so that ends land before, inside and after
    /// creations).
    package var maxEndDelay: Int

    /// A configuration; `chain`, `seconds`, `factorySpin` and `maxEndDelay` have defaults.
    package init(
        threads: Int, scopes: Int, chain: Int = 12, seconds: Double = 10, factorySpin: Int = 8_000,
        maxEndDelay: Int = 150
    ) {
        self.threads = threads
        self.scopes = scopes
        self.chain = chain
        self.seconds = seconds
        self.factorySpin = factorySpin
        self.maxEndDelay = maxEndDelay
    }
}

/// What one run of a scope scenario saw.
package struct ScopeStressResult: Codable, Sendable {
    package var scenario: ScopeScenario
    package var configuration: ScopeStressConfiguration
    /// Scopes made and ended (or dropped).
    package var scopes = 0
    /// Resolves that returned an instance.
    package var resolves = 0
    /// Resolves that failed with `ResolutionError` code `.scopeEnded`.
    package var scopeEndedErrors = 0
    /// Resolves, provides and ends that failed otherwise.
    package var otherErrors = 0
    /// ``ScopeScenario/sharedScopeEnd``: resolves that succeeded after the same thread had seen `.scopeEnded`.
    package var resolvedAfterEnd = 0
    /// Two instances of one registration in one scope.
    package var duplicates = 0
    /// Values of another scope seen in a scope.
    package var crossScope = 0
    /// Synchronously disposable instances made, and `dispose()` calls on them.
    package var created = 0
    package var disposed = 0
    /// Asynchronously disposable instances made, and `dispose()` calls on them.
    package var uploadsCreated = 0
    package var uploadsDisposed = 0
    /// Extra disposals of an instance already disposed.
    package var doubleDisposed = 0
    /// Disposable scoped nodes released without ever being disposed.
    package var nodesUndisposed = 0
    /// Transient disposable commands (resolved by the factories of scoped nodes, through the scope) released
    /// without ever being disposed.
    package var commandsUndisposed = 0
    /// Instances disposed after an instance they depend on.
    package var outOfOrder = 0
    /// Instances found disposed while their scope was live, or not disposed once it had ended.
    package var disposedInUse = 0
    package var notDisposedAfterEnd = 0
    /// Disposals run by a resolving thread: instances completed after their scope ended
    /// (``ScopeScenario/sharedScopeEnd``).
    package var lateDisposals = 0
    /// ``ScopeScenario/sharedScopeEnd``: `dispose()` calls that threw (one node fails to dispose), failures in the
    /// `DisposalError`s the ends threw, and failures reported to the handler (instances disposed by their creator
    /// after the end): every failure must be reported exactly once.
    package var failingDisposals = 0
    package var failuresThrown = 0
    package var failuresReported = 0
    /// Those failures that named another registration than the failing node's.
    package var failuresMisnamed = 0
    /// Reports to `DisposalError.unhandledFailureHandler` from the run's threads, and how many there should be.
    package var reports = 0
    package var expectedReports = 0
    /// Reports that were neither "dropped without being ended" nor failures of the failing node.
    package var unexpectedReports = 0
    /// Failures in those reports with `requiresAsyncDisposal` set, and other failures.
    package var asyncNotDisposedReported = 0
    package var failedDisposalsReported = 0
    /// The least and the most stack in use (bytes below where the thread started) when the unhandled-failure
    /// handler was called; nil without reports.
    package var reportStackLeast: Int?
    package var reportStackMost: Int?
    /// Instances still alive after the run, every scope gone.
    package var liveAfter = 0
    /// Whether the time limit stopped the run before every thread had made all its scopes.
    package var cutShort = false
    /// The first unexpected thing seen.
    package var firstProblem: String?
    /// Wall time from opening the start gate until the last thread finished.
    package var seconds = 0.0
    /// The process's peak resident memory after the run (nil where not measurable).
    package var peakResidentBytes: Int?

    /// A result with nothing counted yet.
    package init(scenario: ScopeScenario, configuration: ScopeStressConfiguration) {
        self.scenario = scenario
        self.configuration = configuration
    }

    /// How much deeper in the stack one report may reach the handler than another (call sites differ by a few
    /// frames; a chain that grows with every report exceeds it within a few thousand reports).
    package static let reportStackGrowthLimit = 64 * 1_024

    /// The problem line of transient disposables that a scope made but never disposed.
    package static func commandsUndisposedText(_ count: Int) -> String {
        "\(count) transient instances made through a scope (for a scoped instance) released without being disposed"
    }

    /// The problems of this run, empty when it passed.
    package var problems: [String] {
        var problems: [String] = []
        func check(_ failed: Bool, _ text: @autoclosure () -> String) { if failed { problems.append(text()) } }
        check(scopes == 0, "no scope completed")
        check(otherErrors > 0, "\(otherErrors) operations failed with something other than scopeEnded")
        check(crossScope > 0, "\(crossScope) values of another scope")
        check(duplicates > 0, "\(duplicates) second instances of a registration in one scope")
        check(doubleDisposed > 0, "\(doubleDisposed) instances disposed more than once")
        check(disposed != created, "\(created) disposable instances made, \(disposed) disposals")
        check(nodesUndisposed > 0, "\(nodesUndisposed) scoped instances released without being disposed")
        check(commandsUndisposed > 0, Self.commandsUndisposedText(commandsUndisposed))
        check(outOfOrder > 0, "\(outOfOrder) instances disposed after a dependency")
        check(disposedInUse > 0, "\(disposedInUse) instances disposed while their scope was live")
        check(notDisposedAfterEnd > 0, "\(notDisposedAfterEnd) instances not disposed once their scope was over")
        check(liveAfter != 0, "\(liveAfter) instances alive after the run")
        check(failedDisposalsReported > 0, "\(failedDisposalsReported) failed disposals reported")
        // Only where every report comes from the same place (a dropped scope's release): a late disposal's report
        // comes from inside the resolution that made the instance, at whatever depth that was.
        if scenario == .droppedScopes, let least = reportStackLeast, let most = reportStackMost {
            check(
                most - least > Self.reportStackGrowthLimit,
                "the unhandled-failure handler was called with \(most / 1_024) KiB of stack at one report and "
                    + "\(least / 1_024) KiB at another: reporting gets deeper with every report")
        }
        switch scenario {
        case .concurrentScopes:
            check(reports > 0, "\(reports) unhandled disposal reports")
            check(
                uploadsDisposed != uploadsCreated,
                "\(uploadsCreated) async disposables made, \(uploadsDisposed) disposed")
        case .sharedScopeEnd:
            check(unexpectedReports > 0, "\(unexpectedReports) unexpected unhandled disposal reports")
            check(
                failingDisposals != failuresThrown + failuresReported,
                "\(failingDisposals) disposals threw, \(failuresThrown) failures thrown by end() and "
                    + "\(failuresReported) reported to the handler")
            check(
                failuresMisnamed > 0, "\(failuresMisnamed) failed disposals reported under another registration's key")
            check(resolvedAfterEnd > 0, "\(resolvedAfterEnd) resolves succeeded after the scope had ended")
            check(
                scopeEndedErrors < scopes * configuration.threads,
                "\(scopeEndedErrors) scopeEnded errors for \(scopes) ended scopes × \(configuration.threads) threads")
        case .droppedScopes:
            check(
                reports != expectedReports,
                "\(reports) 'never ended' reports for \(expectedReports) dropped scopes with disposables")
            check(unexpectedReports > 0, "\(unexpectedReports) reports that were not about a dropped scope")
            check(
                asyncNotDisposedReported != uploadsCreated,
                "\(uploadsCreated) async disposables dropped, \(asyncNotDisposedReported) reported")
            check(uploadsDisposed != 0, "\(uploadsDisposed) async disposables disposed by a synchronous drop")
        }
        if let firstProblem, !problems.isEmpty { problems.append("first: \(firstProblem)") }
        return problems
    }
}

/// Runs one scope scenario once in this process and returns what it saw.
///
/// Returns when every thread has finished: after `configuration.scopes` scopes per thread, or at the time limit.
/// A use-after-free in the library may crash the process instead; the `assemblage-stress` runner therefore runs
/// each run in a child process and counts crashes. While it runs, `DisposalError.unhandledFailureHandler` counts
/// the reports of the run's threads and hands every other report to the handler it replaced.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package func runScopeScenario(_ scenario: ScopeScenario, _ configuration: ScopeStressConfiguration)
    -> ScopeStressResult
{
    precondition(configuration.threads > 0 && configuration.scopes > 0, "threads and scopes must be positive")
    precondition(configuration.chain > 0 && configuration.seconds > 0, "chain and seconds must be positive")
    let state = ScopeRunState(
        factorySpin: scenario == .sharedScopeEnd ? configuration.factorySpin : 0,
        checksOrder: scenario != .sharedScopeEnd)
    let previousHandler = DisposalError.unhandledFailureHandler
    DisposalError.unhandledFailureHandler = { error in
        guard ThreadTag.isWorking(for: state) else { return previousHandler(error) }
        state.countReport(error)
    }
    defer { DisposalError.unhandledFailureHandler = previousHandler }

    let outcome: ScopeOutcome
    do {
        // sharedScopeEnd: node 1 fails to dispose, so that failures of instances disposed by the end and of
        // instances disposed by their creator after the end are both reported.
        let fixture = ScopeFixture(
            state, chain: configuration.chain,
            failingNode: scenario == .sharedScopeEnd && configuration.chain > 1 ? 1 : nil)
        let run = ScopeRun(fixture: fixture, state: state, configuration: configuration)
        switch scenario {
        case .concurrentScopes: outcome = run.concurrentScopes()
        case .sharedScopeEnd: outcome = run.sharedScopeEnd()
        case .droppedScopes: outcome = run.droppedScopes()
        }
    }
    func load(_ counter: borrowing Atomic<Int>) -> Int { counter.load(ordering: .acquiring) }
    var result = ScopeStressResult(scenario: scenario, configuration: configuration)
    result.scopes = outcome.scopes
    result.resolves = outcome.resolves
    result.scopeEndedErrors = outcome.scopeEndedErrors
    result.otherErrors = outcome.otherErrors
    result.resolvedAfterEnd = outcome.resolvedAfterEnd
    result.expectedReports = outcome.expectedReports
    result.cutShort = outcome.cutShort
    result.seconds = outcome.seconds
    result.duplicates = load(state.duplicates)
    result.crossScope = load(state.crossScope)
    result.created = load(state.created)
    result.disposed = load(state.disposed)
    result.uploadsCreated = load(state.uploadsCreated)
    result.uploadsDisposed = load(state.uploadsDisposed)
    result.doubleDisposed = load(state.doubleDisposed)
    result.nodesUndisposed = load(state.nodesUndisposed)
    result.commandsUndisposed = load(state.commandsUndisposed)
    result.outOfOrder = load(state.outOfOrder)
    result.disposedInUse = load(state.disposedInUse)
    result.notDisposedAfterEnd = load(state.notDisposedAfterEnd)
    result.lateDisposals = load(state.lateDisposals)
    result.reports = load(state.reports)
    result.unexpectedReports = load(state.unexpectedReports)
    result.asyncNotDisposedReported = load(state.asyncNotDisposedReported)
    result.failedDisposalsReported = load(state.failedDisposalsReported)
    result.failingDisposals = load(state.failingDisposals)
    result.failuresThrown = outcome.failuresThrown
    result.failuresReported = load(state.failuresReported)
    result.failuresMisnamed = load(state.failuresMisnamed)
    let depths = state.reportDepths.withLock { $0 }
    result.reportStackLeast = depths?.least
    result.reportStackMost = depths?.most
    result.liveAfter = load(state.live)
    result.firstProblem = state.firstProblem.withLock { $0 }
    result.peakResidentBytes = ProcessMeasure.peakResidentBytes()
    return result
}

/// ``runScopeScenario(_:_:)`` on a thread of its own, for async callers: the run blocks its thread, and must not
/// block one of the cooperative pool's (the `await withScope` and `await end()` paths run tasks there).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package func runScopeScenarioOnItsOwnThread(_ scenario: ScopeScenario, _ configuration: ScopeStressConfiguration)
    async -> ScopeStressResult
{
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: runScopeScenario(scenario, configuration)) }.start()
    }
}

// MARK: - Scenarios

/// What a scenario's threads counted themselves.
struct ScopeOutcome {
    var scopes = 0
    var resolves = 0
    var scopeEndedErrors = 0
    var otherErrors = 0
    var resolvedAfterEnd = 0
    var expectedReports = 0
    var failuresThrown = 0
    var cutShort = false
    var seconds = 0.0
}

/// Per-thread totals, added into the run's at the end of each thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ScopeTotals: Sendable {
    private let totals = LockedValue(ScopeOutcome())
    func add(_ part: ScopeOutcome) {
        totals.withLock {
            $0.scopes += part.scopes
            $0.resolves += part.resolves
            $0.scopeEndedErrors += part.scopeEndedErrors
            $0.otherErrors += part.otherErrors
            $0.resolvedAfterEnd += part.resolvedAfterEnd
            $0.expectedReports += part.expectedReports
            $0.failuresThrown += part.failuresThrown
            $0.cutShort = $0.cutShort || part.cutShort
        }
    }
    var outcome: ScopeOutcome { totals.withLock { $0 } }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ScopeRunState {
    /// Counts a report of `DisposalError.unhandledFailureHandler`.
    func countReport(_ error: DisposalError) {
        count(reports)
        if let depth = ThreadTag.stackDepth() {
            reportDepths.withLock { $0 = $0.map { (min($0.least, depth), max($0.most, depth)) } ?? (depth, depth) }
        }
        let neverEnded = error.failures.first.map { "\($0.underlying)".contains("dropped without being ended") }
        if neverEnded != true {
            if !error.failures.isEmpty && error.failures.allSatisfy({ $0.underlying is ScopeDisposalFailure }) {
                // The failing node, disposed by its creator after the end.
                count(failuresReported, error.failures.count)
                checkNames(error, "reported to the handler")
                return
            }
            count(unexpectedReports)
            note("unexpected report: \(error)")
        }
        let rest = error.failures.dropFirst(neverEnded == true ? 1 : 0)
        let needingAwait = rest.filter(\.requiresAsyncDisposal).count
        count(asyncNotDisposedReported, needingAwait)
        if rest.count > needingAwait {
            count(failedDisposalsReported, rest.count - needingAwait)
            note("failed disposal reported: \(error)")
        }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ScopeRunState {
    /// Counts the failures of `error` that do not name the failing node's registration.
    func checkNames(_ error: DisposalError, _ how: String) {
        guard let key = failingKey.withLock({ $0 }) else { return }
        let misnamed = error.failures.filter { $0.key != key }
        guard !misnamed.isEmpty else { return }
        count(failuresMisnamed, misnamed.count)
        note("a failed disposal \(how) named \(misnamed[0].key), not \(key)")
    }
}

/// One run: the fixture, the counters, the sizes, and the time limit.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct ScopeRun: Sendable {
    let fixture: ScopeFixture
    let state: ScopeRunState
    let configuration: ScopeStressConfiguration

    var container: Container { fixture.container }

    /// When a run that started at `start` stops starting scopes.
    func deadlineAfter(_ start: UInt64) -> UInt64 { start &+ UInt64(configuration.seconds * 1e9) }

    /// Starts `configuration.threads` threads (and `extra` more) behind a gate, opens it, and waits for them;
    /// returns the seconds from the gate to the last thread's end. With `extra`, the other threads are marked as
    /// resolving threads (their disposals count as late: only an instance completed after its scope ended is
    /// disposed by the thread that resolved it).
    func runThreads(extra: (@Sendable (UInt64) -> Void)? = nil, _ body: @escaping @Sendable (Int, UInt64) -> Void)
        -> Double
    {
        let gate = RoundBarrier(parties: configuration.threads + (extra == nil ? 1 : 2))
        let finished = DispatchGroup()
        let started = LockedValue<UInt64>(0)
        for index in 0..<configuration.threads {
            startThread(state, resolver: extra != nil, finished) {
                gate.arriveAndWait()
                body(index, started.withLock { $0 })
            }
        }
        if let extra {
            startThread(state, resolver: false, finished) {
                gate.arriveAndWait()
                extra(started.withLock { $0 })
            }
        }
        let start = ProcessMeasure.now()
        started.withLock { $0 = start }
        gate.arriveAndWait()
        finished.wait()
        return ProcessMeasure.seconds(since: start)
    }

    // MARK: concurrentScopes

    func concurrentScopes() -> ScopeOutcome {
        let totals = ScopeTotals()
        let seconds = runThreads { _, start in
            let deadline = deadlineAfter(start)
            var mine = ScopeOutcome()
            for index in 0..<configuration.scopes {
                if ProcessMeasure.now() >= deadline {
                    mine.cutShort = true
                    break
                }
                let id = state.nextRequestID()
                do {
                    let visit: ScopeVisit
                    switch index % 16 {
                    case 7:
                        visit = try container.withSynchronousScope(label: "request") { scope in
                            try self.visit(scope, id: id)
                        }
                    case 15:
                        visit = try visitAsynchronously(id: id)
                    default:
                        let scope = container.makeScope(label: "request")
                        visit = try self.visit(scope, id: id)
                        try scope.end()
                        if !scope.isEnded { throw ScopeStressFailure("the scope is not ended after end()") }
                    }
                    mine.resolves += visit.resolves
                    countNotDisposed(visit)
                    mine.scopes += 1
                } catch {
                    mine.otherErrors += 1
                    state.note("scope \(id): \(error)")
                }
            }
            totals.add(mine)
        }
        var outcome = totals.outcome
        outcome.seconds = seconds
        return outcome
    }

    /// What one visit of a scope resolved.
    struct ScopeVisit: Sendable {
        var last: any ScopeNode
        var command: ScopeCommand
        var resolves: Int
    }

    /// Provides the request, resolves the chain from its end (which makes every node), walks it checking that
    /// every node is this scope's and live, resolves a node again (the same instance), the request and a
    /// transient command.
    func visit(_ scope: Scope, id: Int) throws -> ScopeVisit {
        try scope.provide(ScopeRequest(id: id))
        let chain = fixture.chain
        let last = try fixture.node(chain - 1, scope)
        var length = 0
        var middle: (any ScopeNode)?
        var node: (any ScopeNode)? = last
        while let current = node {
            if current.requestID != id {
                state.count(state.crossScope)
                state.note("scope \(id) resolved a node of request \(current.requestID)")
            }
            if current.isDisposed || current.command?.isDisposed == true {
                state.count(state.disposedInUse)
                state.note("scope \(id) resolved an instance already disposed")
            }
            if chain - 1 - length == chain / 2 { middle = current }
            node = current.previous
            length += 1
        }
        if length != chain {
            state.count(state.crossScope)
            state.note("scope \(id) resolved a chain of \(length) nodes, not \(chain)")
        }
        let again = try fixture.node(chain / 2, scope)
        if again !== middle {
            state.count(state.duplicates)
            state.note("scope \(id) resolved node \(chain / 2) twice and got two instances")
        }
        let request = try scope.require(ScopeRequest.self)
        if request.id != id {
            state.count(state.crossScope)
            state.note("scope \(id) resolved the request of scope \(request.id)")
        }
        let command = try scope.require(ScopeCommand.self)
        return ScopeVisit(last: last, command: command, resolves: 4)
    }

    /// A visit inside `await container.withScope`, which also resolves the asynchronously disposable upload; this
    /// thread waits for the task.
    func visitAsynchronously(id: Int) throws -> ScopeVisit {
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedValue<Result<ScopeVisit, any Error>?>(nil)
        Task {
            do {
                let visit = try await container.withScope(label: "async request") { scope in
                    var visit = try self.visit(scope, id: id)
                    let upload = try await scope.resolveAsync(ScopeUpload.self)
                    if upload.requestID != id {
                        state.count(state.crossScope)
                        state.note("scope \(id) resolved the upload of request \(upload.requestID)")
                    }
                    visit.resolves += 1
                    return visit
                }
                outcome.withLock { $0 = .success(visit) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        // Taken out, so that nothing the task may still hold for a moment keeps the instances alive.
        return try outcome.withLock { $0.take()! }.get()
    }

    /// Counts the disposable instances of `visit` that are not disposed (called once their scope has ended).
    func countNotDisposed(_ visit: ScopeVisit) {
        var missed = visit.command.isDisposed ? 0 : 1
        var node: (any ScopeNode)? = visit.last
        while let current = node {
            if current is DisposableNode && !current.isDisposed { missed += 1 }
            if let command = current.command, !command.isDisposed { missed += 1 }
            node = current.previous
        }
        if missed > 0 {
            state.count(state.notDisposedAfterEnd, missed)
            state.note("\(missed) instances of request \(visit.last.requestID) not disposed after its scope")
        }
    }

    // MARK: sharedScopeEnd

    /// The scope of the current round and what its threads saw.
    final class SharedRound: Sendable {
        let scope = LockedValue<Scope?>(nil)
        let requestID = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        /// Per thread: the serial of the instance of each node it resolved this round (-1: none).
        let seen: LockedValue<[[Int]]>
        init(threads: Int) { seen = LockedValue(Array(repeating: [], count: threads)) }
    }

    func sharedScopeEnd() -> ScopeOutcome {
        let threads = configuration.threads
        let chain = fixture.chain
        let round = SharedRound(threads: threads)
        let barrier = RoundBarrier(parties: threads + 1)
        let totals = ScopeTotals()
        let seconds = runThreads(
            extra: { start in
                totals.add(endScopes(round, barrier, deadline: deadlineAfter(start)))
            },
            { index, _ in
                var mine = ScopeOutcome()
                var random = SplitMix()
                while true {
                    barrier.arriveAndWait()
                    if round.stop.load(ordering: .acquiring) { break }
                    let scope = round.scope.withLock { $0 }!
                    let id = round.requestID.load(ordering: .acquiring)
                    var seen = Array(repeating: -1, count: chain)
                    var endsSeen = 0
                    while endsSeen < 3 {
                        let key = Int.random(in: 0...chain, using: &random)
                        do throws(ResolutionError) {
                            if key == chain {
                                let request = try scope.require(ScopeRequest.self)
                                if request.id != id {
                                    state.count(state.crossScope)
                                    state.note("shared scope \(id) resolved the request of \(request.id)")
                                }
                            } else {
                                let node = try fixture.node(key, scope)
                                if node.requestID != id {
                                    state.count(state.crossScope)
                                    state.note("shared scope \(id) resolved a node of request \(node.requestID)")
                                }
                                if seen[key] == -1 { seen[key] = node.serial }
                                if seen[key] != node.serial {
                                    state.count(state.duplicates)
                                    state.note("shared scope \(id) gave one thread two instances of node \(key)")
                                }
                            }
                            mine.resolves += 1
                            // Give the core away: on a machine with fewer cores than threads, the ending thread
                            // gets to end the scope while creations are still going on.
                            sched_yield()
                            if endsSeen > 0 {
                                mine.resolvedAfterEnd += 1
                                state.note("shared scope \(id) resolved after it had thrown scopeEnded")
                            }
                        } catch let error where error.code == .scopeEnded {
                            mine.scopeEndedErrors += 1
                            endsSeen += 1
                        } catch {
                            mine.otherErrors += 1
                            state.note("shared scope \(id): \(error)")
                            endsSeen = 3
                        }
                    }
                    round.seen.withLock { $0[index] = seen }
                    barrier.arriveAndWait()
                }
                totals.add(mine)
            })
        var outcome = totals.outcome
        outcome.seconds = seconds
        return outcome
    }

    /// The ending thread of sharedScopeEnd: makes each round's scope, lets the threads at it, ends it at a random
    /// moment, checks that the threads saw one instance per node, and drops it.
    func endScopes(_ round: SharedRound, _ barrier: RoundBarrier, deadline: UInt64) -> ScopeOutcome {
        var mine = ScopeOutcome()
        var random = SplitMix()
        for index in 0..<configuration.scopes {
            if ProcessMeasure.now() >= deadline {
                mine.cutShort = true
                break
            }
            let scope = container.makeScope(label: "shared")
            let id = state.nextRequestID()
            do {
                try scope.provide(ScopeRequest(id: id))
            } catch {
                mine.otherErrors += 1
                state.note("shared scope \(id): \(error)")
            }
            round.scope.withLock { $0 = scope }
            round.requestID.store(id, ordering: .releasing)
            // End at a random moment up to `maxEndDelay` after the threads are let go (at once, one time in
            // eight): making the chain takes about that long, so ends land before, inside and after creations.
            let delay =
                index % 8 == 0
                ? 0 : 1_000 * UInt64.random(in: 0..<UInt64(max(1, configuration.maxEndDelay)), using: &random)
            barrier.arriveAndWait()
            let letGo = ProcessMeasure.now()
            while ProcessMeasure.now() &- letGo < delay {}
            do {
                switch index % 8 {
                case 3: try endAsynchronously(scope)
                case 6:
                    // Two threads end the scope at once: one of them disposes (and throws the failures), the other
                    // returns at once.
                    let thrown = LockedValue<[any Error]>([])
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in
                        do { try scope.end() } catch { thrown.withLock { $0.append(error) } }
                    }
                    let errors = thrown.withLock { $0 }
                    if errors.count > 1 { throw ScopeStressFailure("both of two concurrent ends threw") }
                    if let error = errors.first { throw error }
                default: try scope.end()
                }
                if !scope.isEnded { throw ScopeStressFailure("the scope is not ended after end()") }
            } catch let error as DisposalError
                where error.failures.allSatisfy({ $0.underlying is ScopeDisposalFailure && !$0.requiresAsyncDisposal })
            {
                mine.failuresThrown += error.failures.count
                state.checkNames(error, "thrown by end()")
                if !scope.isEnded { mine.otherErrors += 1 }
            } catch {
                mine.otherErrors += 1
                state.note("ending shared scope \(id): \(error)")
            }
            barrier.arriveAndWait()
            let rows = round.seen.withLock { $0 }
            for key in 0..<fixture.chain {
                let serials = Set(rows.compactMap { $0.indices.contains(key) && $0[key] >= 0 ? $0[key] : nil })
                if serials.count > 1 {
                    state.count(state.duplicates, serials.count - 1)
                    state.note("shared scope \(id) gave its threads \(serials.count) instances of node \(key)")
                }
            }
            round.scope.withLock { $0 = nil }
            mine.scopes += 1
        }
        round.stop.store(true, ordering: .releasing)
        barrier.arriveAndWait()
        return mine
    }

    /// `await scope.end()` in a task; this thread waits for it.
    func endAsynchronously(_ scope: Scope) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = LockedValue<(any Error)?>(nil)
        Task {
            do { try await scope.end() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    // MARK: droppedScopes

    func droppedScopes() -> ScopeOutcome {
        let totals = ScopeTotals()
        let mailbox = LockedValue<[Scope]>([])
        let threadsLeft = Atomic<Int>(configuration.threads)
        let seconds = runThreads { _, start in
            let deadline = deadlineAfter(start)
            var mine = ScopeOutcome()
            for index in 0..<configuration.scopes {
                if ProcessMeasure.now() >= deadline {
                    mine.cutShort = true
                    break
                }
                let id = state.nextRequestID()
                do {
                    var mayBeLast = true
                    var last: (any ScopeNode)?
                    do {
                        let scope = container.makeScope(label: "dropped")
                        try scope.provide(ScopeRequest(id: id))
                        switch index % 8 {
                        case 0:
                            // Nothing disposable: dropping it reports nothing.
                            let first = try fixture.node(0, scope)
                            if first.requestID != id { state.count(state.crossScope) }
                            mine.resolves += 1
                        case 5:
                            last = try fixture.node(fixture.chain - 1, scope)
                            _ = try scope.require(ScopeUpload.self)
                            mine.resolves += 2
                            mine.expectedReports += 1
                        default:
                            last = try fixture.node(fixture.chain - 1, scope)
                            mine.resolves += 1
                            mine.expectedReports += 1
                        }
                        if index % 2 == 1 {
                            // Hand this scope over, take another thread's (or this one) and drop both: whichever
                            // thread lets go last disposes.
                            mayBeLast = false
                            mailbox.withLock { $0.append(scope) }
                            if let other = mailbox.withLock({ $0.popLast() }) {
                                let request = try other.require(ScopeRequest.self)
                                let first = try fixture.node(0, other)
                                if first.requestID != request.id {
                                    state.count(state.crossScope)
                                    state.note(
                                        "a handed-over scope of request \(request.id) gave a node of \(first.requestID)"
                                    )
                                }
                                mine.resolves += 2
                            }
                        }
                    }
                    // The scope is gone (unless handed over): its disposables must be disposed now.
                    if mayBeLast, let last { countNotDisposedAfterDrop(last) }
                    mine.scopes += 1
                } catch {
                    mine.otherErrors += 1
                    state.note("dropped scope \(id): \(error)")
                }
            }
            if threadsLeft.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                // The last thread drops what is still in the mailbox (on a thread of this run).
                let rest = mailbox.withLock { mailbox in
                    defer { mailbox = [] }
                    return mailbox
                }
                withExtendedLifetime(rest) {}
            }
            totals.add(mine)
        }
        var outcome = totals.outcome
        outcome.seconds = seconds
        return outcome
    }

    /// Counts the disposable nodes of a dropped scope's chain that are not disposed.
    func countNotDisposedAfterDrop(_ last: any ScopeNode) {
        var missed = 0
        var node: (any ScopeNode)? = last
        while let current = node {
            if current is DisposableNode && !current.isDisposed { missed += 1 }
            if let command = current.command, !command.isDisposed { missed += 1 }
            node = current.previous
        }
        if missed > 0 {
            state.count(state.notDisposedAfterEnd, missed)
            state.note("\(missed) instances of dropped request \(last.requestID) not disposed after the drop")
        }
    }
}

/// A failure of the scenario's own checks around an operation.
struct ScopeStressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
