import Assemblage
import AssemblageStress
import AssemblageTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// The scope scenarios, bounded, in the debug and ThreadSanitizer test runs of `.ci/run` (`ASSEMBLAGE_HEAVY_TESTS=1`;
/// a plain `swift test` skips them): threads making and ending scopes, threads resolving from one scope while
/// another thread ends it, and scopes dropped without `end()`. The same code runs full size against a release build
/// in `assemblage-stress` (see CONTRIBUTING.md).
@Suite(.serialized) struct ScopeStressTests {
    static let underThreadSanitizer = ConcurrentMutationTests.underThreadSanitizer

    /// Under a second each in a debug build: 4 threads × 2,000 scopes (concurrentScopes), 4 × 1,000
    /// (droppedScopes), or 2 threads × 1,000 shared scopes; a tenth of that under the sanitizer, which slows code
    /// 5–15×; 20 s at most a run, whatever the machine.
    static func configuration(_ scenario: ScopeScenario) -> ScopeStressConfiguration {
        let scopes = scenario == .concurrentScopes ? 2_000 : 1_000
        return ScopeStressConfiguration(
            // Under the sanitizer, beside the whole suite on two cores, a scope costs about 100 times more: a 40th
            // of the scopes, and a time limit that leaves room.
            threads: scenario == .sharedScopeEnd ? 2 : 4, scopes: underThreadSanitizer ? scopes / 40 : scopes,
            seconds: underThreadSanitizer ? 60 : 20, factorySpin: underThreadSanitizer ? 200 : 2_000,
            maxEndDelay: underThreadSanitizer ? 3_000 : 300)
    }

    /// What the reporting bug (see ``ScopeStressTests/LibraryBugTests``) makes a dropped-scope run say.
    static func isReportDeepening(_ problem: String) -> Bool {
        problem.hasPrefix("the unhandled-failure handler was called with")
    }

    /// The problems of `result` that the library bugs of ``ScopeStressTests/LibraryBugTests`` cause, and the
    /// others: the reports that get deeper, transient instances a scope made for a scoped one but never disposed (the
    /// shortfall of disposals counted as well, when those instances are all of it), and failed disposals reported
    /// under another key.
    static func knownIssues(_ result: ScopeStressResult) -> (known: [String], other: [String]) {
        let shortfall = "\(result.created) disposable instances made, \(result.disposed) disposals"
        var known: [String] = []
        var other: [String] = []
        for problem in result.problems where !problem.hasPrefix("first: ") {
            if isReportDeepening(problem)
                || problem == ScopeStressResult.commandsUndisposedText(result.commandsUndisposed)
                || problem.hasSuffix("failed disposals reported under another registration's key")
                || (problem == shortfall && result.created - result.disposed == result.commandsUndisposed
                    && result.doubleDisposed == 0)
            {
                known.append(problem)
            } else {
                other.append(problem)
            }
        }
        let first = result.problems.filter { $0.hasPrefix("first: ") }
        return other.isEmpty ? (known + first, other) : (known, other + first)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test(.heavy, arguments: ScopeScenario.allCases)
    func everyInstanceIsDisposedExactlyOnceAndNoValueCrossesScopes(_ scenario: ScopeScenario) async {
        let configuration = Self.configuration(scenario)
        let result = await runScopeScenarioOnItsOwnThread(scenario, configuration)
        printFigure(
            "scopes \(scenario.rawValue): \(result.scopes) scopes, \(result.resolves) resolves, "
                + "\(result.created) disposables made, \(result.disposed) disposed, "
                + "\(result.scopeEndedErrors) scopeEnded, "
                + "\(result.lateDisposals) late, \(result.reports)/\(result.expectedReports) reports, "
                + "\(result.liveAfter) alive after, in \(String(format: "%.2f", result.seconds)) s"
                + (Self.underThreadSanitizer ? " (TSan)" : ""))
        let (known, other) = Self.knownIssues(result)
        #expect(other.isEmpty, "\(other.joined(separator: "; "))")
        #expect(known.isEmpty, "\(known.joined(separator: "; "))")
        #expect(!result.cutShort, "a bounded run should finish its scopes well within \(configuration.seconds) s")
        #expect(result.scopes == configuration.scopes * (scenario == .sharedScopeEnd ? 1 : configuration.threads))
        #expect(result.created > 0)
        #expect(result.liveAfter == 0)
    }
}

/// The runner's verdicts on scope runs: a run that should fail does.
@Suite struct ScopeStressVerdictTests {
    func result(_ scenario: ScopeScenario, _ change: (inout ScopeStressResult) -> Void = { _ in }) -> ScopeStressResult
    {
        var result = ScopeStressResult(
            scenario: scenario, configuration: ScopeStressConfiguration(threads: 2, scopes: 3))
        result.scopes = 6
        result.resolves = 24
        result.created = 66
        result.disposed = 66
        if scenario == .sharedScopeEnd { result.scopeEndedErrors = 12 }
        if scenario == .droppedScopes {
            result.reports = 5
            result.expectedReports = 5
        }
        change(&result)
        return result
    }

    @Test(arguments: ScopeScenario.allCases)
    func cleanRunHasNoProblems(_ scenario: ScopeScenario) {
        #expect(result(scenario).problems.isEmpty)
    }

    @Test(arguments: ScopeScenario.allCases)
    func aMissedOrRepeatedDisposalFailsTheRun(_ scenario: ScopeScenario) {
        #expect(result(scenario) { $0.disposed = 65 }.problems == ["66 disposable instances made, 65 disposals"])
        #expect(
            !result(scenario) {
                $0.doubleDisposed = 1
                $0.disposed = 67
            }.problems.isEmpty)
    }

    @Test(arguments: ScopeScenario.allCases)
    func aLeakOrACrossScopeValueFailsTheRunAndNamesTheFirstProblem(_ scenario: ScopeScenario) {
        #expect(result(scenario) { $0.liveAfter = 3 }.problems == ["3 instances alive after the run"])
        let crossed = result(scenario) {
            $0.crossScope = 1
            $0.firstProblem = "scope 4 resolved a node of request 3"
        }
        #expect(crossed.problems == ["1 values of another scope", "first: scope 4 resolved a node of request 3"])
    }

    @Test func aResolveThatSucceedsAfterTheEndFailsTheSharedScopeRun() {
        #expect(result(.sharedScopeEnd) { $0.resolvedAfterEnd = 1 }.problems.count == 1)
        #expect(result(.sharedScopeEnd) { $0.scopeEndedErrors = 11 }.problems.count == 1)
    }

    @Test func aMissingOrUnexpectedReportFailsTheDroppedScopeRun() {
        #expect(result(.droppedScopes) { $0.reports = 4 }.problems.count == 1)
        #expect(
            result(.droppedScopes) {
                $0.reports = 6
                $0.unexpectedReports = 1
            }.problems.count == 2)
        #expect(result(.concurrentScopes) { $0.reports = 1 }.problems == ["1 unhandled disposal reports"])
    }

    @Test func reportsThatGetDeeperFailTheRunAndStableOnesPass() {
        let limit = ScopeStressResult.reportStackGrowthLimit
        #expect(
            result(.droppedScopes) {
                $0.reportStackLeast = 4_096
                $0.reportStackMost = 4_096 + limit
            }.problems.isEmpty)
        let deeper = result(.droppedScopes) {
            $0.reportStackLeast = 4_096
            $0.reportStackMost = 4_097 + limit
        }
        #expect(deeper.problems.count == 1 && deeper.problems.allSatisfy(ScopeStressTests.isReportDeepening))
    }
}

extension ScopeStressTests {
    /// Regression tests for four library bugs the scope scenarios found (all fixed since): deepening reports of
    /// the unhandled-failure handler, a transient made through a just-ended scope left undisposed, a late failure
    /// reported under the key `Any`, and (under the thread sanitizer) the overflow slots' access racing lookups. Nested in the serialized
    /// ``ScopeStressTests``, so that no two tests that set `DisposalError.unhandledFailureHandler` run at once.
    @Suite struct LibraryBugTests {
        /// A scoped disposable whose disposal fails, so that its scope's report names it (and the test finds its own
        /// reports among those of tests running in parallel).
        final class FailingResource: Disposable, Sendable {
            struct Closed: Error {}
            func dispose() throws { throw Closed() }
        }

        /// A transient disposable that counts its disposals.
        final class Command: Disposable, Sendable {
            let disposals = Atomic<Int>(0)
            func dispose() { disposals.wrappingAdd(1, ordering: .relaxed) }
            var isDisposed: Bool { disposals.load(ordering: .relaxed) > 0 }
        }

        /// A scoped service that depends on a `Command`.
        final class Handler: Disposable, Sendable {
            let command: Command
            let disposals = Atomic<Int>(0)
            init(command: Command) { self.command = command }
            func dispose() { disposals.wrappingAdd(1, ordering: .relaxed) }
        }

        /// A scoped service with no dependencies.
        final class Slot: Sendable {}

        @inline(never)
        static func stackAddress() -> UInt {
            var marker: UInt8 = 0
            return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        }

        /// droppedScopes: every read of `DisposalError.unhandledFailureHandler` — and `reportUnhandled` reads it once
        /// per report — wraps the stored closure in two more reabstraction thunks (`_Locked<Value>.withLock` hands it
        /// out through an `inout` of the generic `Value`, and the write-back stores the re-wrapped closure). Each
        /// report then calls through every thunk added before it: time and stack per report grow without bound (548
        /// KiB of stack at the 7,000th report of a release run), until a process that drops or fails enough scopes
        /// overflows its stack inside the handler.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func readingTheUnhandledFailureHandlerDoesNotDeepenLaterReports() {
            let container = Container()
            container.register(FailingResource.self) { _ in FailingResource() }.inObjectScope(.scoped)
            let key = ServiceKey(FailingResource.self)
            let addresses = Mutex<[UInt]>([])
            let previous = DisposalError.unhandledFailureHandler
            DisposalError.unhandledFailureHandler = { error in
                guard error.failures.contains(where: { $0.key == key }) else { return previous(error) }
                let address = Self.stackAddress()
                addresses.withLock { $0.append(address) }
            }
            defer { DisposalError.unhandledFailureHandler = previous }

            /// Drops a scope that made a `FailingResource`: its deinit disposes it and reports "never ended".
            @inline(never) func dropAScope() {
                let scope = container.makeScope(label: "dropped")
                _ = try? scope.require(FailingResource.self)
            }
            dropAScope()
            for _ in 0..<1_000 { _ = DisposalError.unhandledFailureHandler }
            dropAScope()

            let seen = addresses.withLock { $0 }
            #expect(seen.count == 2)
            guard seen.count == 2 else { return }
            let deeper = seen[0] > seen[1] ? seen[0] - seen[1] : seen[1] - seen[0]
            printFigure(
                "unhandledFailureHandler: after 1,000 reads the next report reached it \(deeper) bytes deeper")
            #expect(deeper < 4_096, "the handler was reached \(deeper) bytes deeper after 1,000 reads of the property")
        }

        /// sharedScopeEnd: a transient disposable made through a scope while another thread ends the scope. (A
        /// transient asked for after the end is refused before its factory runs.) `_trackInScope` sees `track`'s
        /// `false` (the scope has ended) and disposes the transient itself; the scoped instance is disposed by its
        /// creator (`complete` returns `false`).
        /// Here the transient's factory ends the scope itself, standing for the other thread, so the interleaving
        /// is certain.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func aTransientMadeForAScopedInstanceWhileItsScopeEndsIsDisposed() {
            let container = Container()
            let scopeBox = Mutex<Scope?>(nil)
            let made = Mutex<[Command]>([])
            container.register(Command.self) { _ in
                // Another thread ends the scope at this moment, while the Command is being made.
                try? scopeBox.withLock { $0 }?.endSynchronously()
                let command = Command()
                made.withLock { $0.append(command) }
                return command
            }
            container.register(Handler.self) { r in
                Handler(command: try r.require(Command.self))
            }.inObjectScope(.scoped)
            let scope = container.makeScope(label: "request")
            scopeBox.withLock { $0 = scope }
            #expect { try scope.require(Handler.self) } throws: { ($0 as? ResolutionError)?.code == .scopeEnded }
            scopeBox.withLock { $0 = nil }

            let commands = made.withLock { $0 }
            #expect(commands.count == 1)
            #expect(
                commands.allSatisfy { $0.isDisposed }, "the Command the Handler's factory resolved was never disposed")
        }

        /// sharedScopeEnd under the thread sanitizer: a scope keeps 8 slots inline and the rest in
        /// `_ScopeHeader.overflow`. `_ScopeStorage.append` (under the mutex) and `withSlot` (under the mutex in
        /// `complete`; without it, after the end, in `releaseAll` and `nextOwned`) reach an overflow slot through
        /// `header.pointee.overflow`, a modifying access to the whole header — whose first field is the scope's view
        /// words, which every resolve through the scope reads atomically and without the mutex
        /// (`Container._lookupFast`). TSan reports a Swift access race between the two for any scope with more than 8
        /// slots that two threads use at once; this test does exactly that, and passes without the sanitizer.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func overflowSlotsDoNotRaceWithLookupsThroughTheSameScope() throws {
            let container = Container()
            for index in 0..<16 {
                container.register(Slot.self, name: "\(index)") { _ in Slot() }.inObjectScope(.scoped)
            }
            let scope = container.makeScope(label: "request")
            let first = try scope.require(Slot.self, name: "0")
            let stop = Atomic<Bool>(false)
            let reads = Atomic<Int>(0)
            let mismatches = Atomic<Int>(0)
            let reader = DispatchGroup()
            reader.enter()
            Thread {
                while !stop.load(ordering: .acquiring) {
                    if (try? scope.require(Slot.self, name: "0")) !== first {
                        mismatches.wrappingAdd(1, ordering: .relaxed)
                    }
                    reads.wrappingAdd(1, ordering: .releasing)
                }
                reader.leave()
            }.start()
            /// Waits until the reader has resolved twice more: a lookup between this thread's last slot operation and
            /// the reader's next lock of the scope's mutex.
            func letTheReaderResolve() {
                let seen = reads.load(ordering: .acquiring)
                while reads.load(ordering: .acquiring) < seen + 2 { sched_yield() }
            }
            // Slots 9 to 16 of the scope go to `overflow` while the reader resolves through the scope.
            for index in 1..<16 {
                letTheReaderResolve()
                _ = try scope.require(Slot.self, name: "\(index)")
            }
            letTheReaderResolve()
            stop.store(true, ordering: .releasing)
            reader.wait()
            try scope.endSynchronously()
            #expect(mismatches.load(ordering: .relaxed) == 0)
        }

        /// sharedScopeEnd (seen in the full debug suite under load): an instance completed after its scope ended is
        /// disposed by its creator in `_ScopeStorage.complete`, and when that disposal throws, the failure's key is
        /// read
        /// from the slot (`withSlot { $0.key }`, i.e. `slot.entry`) without the mutex — after, or while, the ending
        /// thread's `releaseAll` sets `slot.entry = nil`. The report then names `Any` instead of the registration (and
        /// a read racing the release reads a reference being released). Here the factory ends its own scope, standing
        /// for the other thread, so `releaseAll` has certainly run first.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func aLateFailedDisposalIsReportedUnderItsRegistrationsKey() {
            let container = Container()
            let scopeBox = Mutex<Scope?>(nil)
            container.register(FailingResource.self) { _ in
                // Another thread ends the scope at this moment.
                try? scopeBox.withLock { $0 }?.endSynchronously()
                return FailingResource()
            }.inObjectScope(.scoped)
            let keys = Mutex<[ServiceKey]>([])
            let previous = DisposalError.unhandledFailureHandler
            DisposalError.unhandledFailureHandler = { error in
                let ours = error.failures.filter { $0.underlying is FailingResource.Closed }
                guard !ours.isEmpty else { return previous(error) }
                keys.withLock { $0 += ours.map(\.key) }
            }
            defer { DisposalError.unhandledFailureHandler = previous }

            let scope = container.makeScope(label: "request")
            scopeBox.withLock { $0 = scope }
            #expect { try scope.require(FailingResource.self) } throws: {
                ($0 as? ResolutionError)?.code == .scopeEnded
            }
            scopeBox.withLock { $0 = nil }

            let reported = keys.withLock { $0 }
            #expect(reported.count == 1)
            #expect(reported == [ServiceKey(FailingResource.self)], "reported under \(reported.map(\.description))")
        }
    }
}
