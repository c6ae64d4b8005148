// The sharedScopeEnd and droppedScopes scenarios (see ScopeStress.swift).
import Assemblage
import Dispatch
import Foundation
import Synchronization

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ScopeRun {
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
                        do { try scope.endSynchronously() } catch { thrown.withLock { $0.append(error) } }
                    }
                    let errors = thrown.withLock { $0 }
                    if errors.count > 1 { throw ScopeStressFailure("both of two concurrent ends threw") }
                    if let error = errors.first { throw error }
                default: try scope.endSynchronously()
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
