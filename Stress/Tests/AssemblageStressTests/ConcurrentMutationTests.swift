import AssemblageStress
import AssemblageTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The concurrent-mutation scenarios, bounded, in the debug and ThreadSanitizer test runs of `.ci/run` (`ASSEMBLAGE_HEAVY_TESTS=1`;
/// a plain `swift test` skips them): readers resolve a `.container` service while one thread resets, empties,
/// re-registers or adds fallbacks. The same code runs unbounded against a release build in `assemblage-stress` (see
/// CONTRIBUTING.md), which is where a use-after-free shows as a crash; here the sanitizer sees the races.
@Suite(.serialized) struct ConcurrentMutationTests {
    /// Whether the ThreadSanitizer runtime is linked into this process.
    static let underThreadSanitizer: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil
    }()

    /// 4 readers × 200,000 resolves (20,000 under the sanitizer, which slows code 5–15×): a few seconds each way.
    static let configuration = StressConfiguration(
        threads: 4, resolves: underThreadSanitizer ? 20_000 : 200_000,
        fallbacksPerGeneration: 200)

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test(.heavy, arguments: MutationScenario.allCases)
    func resolvedInstancesStayIntactWhileAnotherThreadMutatesTheContainer(_ scenario: MutationScenario) {
        let result = runConcurrentMutation(scenario, Self.configuration)
        printFigure(
            "concurrent \(scenario.rawValue): \(result.resolved) resolved, \(result.missing) nil, "
                + "\(result.corrupt) corrupt, \(result.mutations) mutations in \(String(format: "%.2f", result.seconds)) s"
                + (Self.underThreadSanitizer ? " (TSan)" : ""))
        #expect(result.problems.isEmpty, "\(result.problems.joined(separator: "; "))")
        #expect(result.resolved + result.missing == Self.configuration.threads * Self.configuration.resolves)
    }

    @Test func removeAllIsTheOnlyScenarioWhoseReadersMayFindNothing() {
        #expect(MutationScenario.allCases.filter(\.allowsMissingRegistration) == [.removeAll])
    }
}

/// The runner's own verdicts: a run or a check that should fail does.
@Suite struct StressVerdictTests {
    func result(
        _ scenario: MutationScenario, resolved: Int = 8, missing: Int = 0, corrupt: Int = 0,
        mutations: Int = 1
    ) -> StressResult {
        StressResult(
            scenario: scenario, configuration: StressConfiguration(threads: 2, resolves: 4),
            resolved: resolved, missing: missing, corrupt: corrupt, mutations: mutations, seconds: 0.1,
            peakResidentBytes: nil)
    }

    @Test func cleanRunHasNoProblems() {
        #expect(result(.reset).problems.isEmpty)
        #expect(result(.removeAll, resolved: 5, missing: 3).problems.isEmpty)
    }

    @Test func corruptInstanceFailsTheRun() {
        #expect(result(.reset, corrupt: 1).problems == ["1 corrupt instances"])
    }

    @Test(arguments: [MutationScenario.reset, .reregister, .addFallback])
    func missingServiceFailsEveryScenarioButRemoveAll(_ scenario: MutationScenario) {
        #expect(result(scenario, resolved: 7, missing: 1).problems.count == 1)
    }

    @Test func lostResolvesAndAnIdleMutatorFailTheRun() {
        #expect(result(.reset, resolved: 7).problems.count == 1)
        #expect(result(.reset, mutations: 0).problems == ["the mutator never ran while the readers did"])
    }

    @Test func intactPayloadIsRecognisedAndATornOneIsNot() {
        #expect(StressService(42).isIntact)
    }

    @Test func checkPassesAtItsLimitFailsAboveItAndIsSkippedWithoutAFigure() {
        let check = ProbeCheck(name: "x", measured: 7.5, target: 5, limit: 7.5, unit: "ms")
        #expect(check.passed == true)
        var above = check
        above.measured = 7.51
        #expect(above.passed == false)
        var unmeasured = check
        unmeasured.measured = nil
        #expect(unmeasured.passed == nil)
    }
}
