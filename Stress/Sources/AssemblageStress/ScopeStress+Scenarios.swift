// The scope scenarios' shared machinery (ScopeRun) and the concurrentScopes scenario; sharedScopeEnd and
// droppedScopes are in ScopeStress+SharedAndDropped.swift.
import Assemblage
import Dispatch
import Foundation
import Synchronization

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

    /// Each thread runs `body` for `configuration.scopes` requests, or until the time limit, with a new request
    /// id each; a request that throws counts as an other error (and notes it), any other as a scope. `body` counts
    /// its own resolves in the outcome it is handed.
    func requestLoops(_ body: @escaping @Sendable (_ index: Int, _ id: Int, inout ScopeOutcome) throws -> Void)
        -> ScopeOutcome
    {
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
                    try body(index, id, &mine)
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

    // MARK: concurrentScopes

    func concurrentScopes() -> ScopeOutcome {
        requestLoops { index, id, mine in
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
                try scope.endSynchronously()
                if !scope.isEnded { throw ScopeStressFailure("the scope is not ended after end()") }
            }
            mine.resolves += visit.resolves
            countNotDisposed(visit)
        }
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
}

/// A failure of the scenario's own checks around an operation.
struct ScopeStressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
