// The one switch between the behaviour suite and the heavy runs, shared by the test targets that have heavy tests.

import Foundation
public import Testing

/// Whether the heavy tests run and print their figures: when `ASSEMBLAGE_HEAVY_TESTS` is set (to anything but `0`),
/// as `.ci/run` does for its heavy-test and thread-sanitizer steps. A plain `swift test` skips the tests that take
/// seconds (fuzzing, a million resolves, sweeps, the stress scenarios) and prints nothing of its own.
public let heavyTestsEnabled: Bool = {
    guard let value = ProcessInfo.processInfo.environment["ASSEMBLAGE_HEAVY_TESTS"] else { return false }
    return !value.isEmpty && value != "0"
}()

extension Trait where Self == ConditionTrait {
    /// Runs the test only with `ASSEMBLAGE_HEAVY_TESTS=1` (see ``heavyTestsEnabled``).
    public static var heavy: Self {
        .enabled(if: heavyTestsEnabled, "heavy: runs with ASSEMBLAGE_HEAVY_TESTS=1, as in .ci/run")
    }
}
