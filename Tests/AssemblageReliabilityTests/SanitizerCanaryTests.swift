import Foundation
import Testing

/// A counter with no synchronisation at all: the canary's deliberate data race.
final class UnsynchronisedCounter: @unchecked Sendable {  // @unchecked: deliberately racy, for the canary only.
    var value = 0
}

extension Reliability {
    /// Proves that the sanitizer is really on when the suite is run with `--sanitize=thread`.
    ///
    /// Opt-in, because it fails on purpose under the sanitizer:
    ///
    /// ```sh
    /// ASSEMBLAGE_TSAN_CANARY=1 swift test --sanitize=thread --scratch-path .build-tsan --filter Canary
    /// ```
    ///
    /// must print `WARNING: ThreadSanitizer: data race` and exit with a failure. Without the sanitizer the same
    /// command passes (the race is real but harmless), which is how one tells a sanitized run from one that only
    /// claims to be.
    @Suite("ThreadSanitizer canary", .serialized)
    struct SanitizerCanaryTests {
        @Test(
            .enabled(
                if: ProcessInfo.processInfo.environment["ASSEMBLAGE_TSAN_CANARY"] == "1",
                "opt-in: set ASSEMBLAGE_TSAN_CANARY=1"))
        func canaryDataRaceIsReportedBySanitizer() {
            let counter = UnsynchronisedCounter()
            let finished = Latch(count: 2)
            for _ in 0..<2 {
                startThread {
                    for _ in 0..<10_000 { counter.value += 1 }  // the race: two threads, no lock
                    finished.countDown()
                }
            }
            #expect(finished.wait(timeout: 30))
            print(
                "[canary] ThreadSanitizer linked: \(Budget.underThreadSanitizer); racy total \(counter.value) of 20000")
        }
    }
}
