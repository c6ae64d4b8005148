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
    /// Each thread makes scopes that are the first to resolve `.container` services (reset every few scopes)
    /// keeping a resolver and a `Provider` of the request, and checks that nothing they keep reaches a request.
    case sharedThroughScopes

    /// What the scenario does, for summaries.
    package var summary: String {
        switch self {
        case .concurrentScopes: "makeScope, provide, resolve the chain, end"
        case .sharedScopeEnd: "resolve from one scope while another thread ends it"
        case .droppedScopes: "scopes dropped without end()"
        case .sharedThroughScopes: "scopes first-resolve singletons that keep a Provider of the request"
        }
    }

    /// Resolving threads of the full-size run (``sharedScopeEnd`` has one more, which ends the scopes).
    package var defaultThreads: Int { self == .sharedScopeEnd ? 4 : 8 }

    /// Scopes per thread (shared scopes, for ``sharedScopeEnd``) of the full-size run: sized so that a run takes
    /// under a second on two cores and the 20 runs of CI's release step stay short, even on a loaded machine.
    package var defaultScopes: Int {
        switch self {
        case .concurrentScopes: 8_000
        case .sharedScopeEnd: 3_000
        case .droppedScopes: 1_000
        case .sharedThroughScopes: 8_000
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
        case .sharedThroughScopes:
            check(reports > 0, "\(reports) unhandled disposal reports")
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
        case .sharedThroughScopes: outcome = run.sharedThroughScopes()
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
