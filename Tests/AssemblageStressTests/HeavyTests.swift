import Foundation
import Testing

/// Whether the stress scenarios run and print their figures: when `ASSEMBLAGE_HEAVY_TESTS` is set (to anything but
/// `0`), as `.ci/run` does for its heavy-test and thread-sanitizer steps. A plain `swift test` runs only the
/// runner's verdict tests and the library-bug regressions here, which take milliseconds.
let heavyTestsEnabled: Bool = {
    guard let value = ProcessInfo.processInfo.environment["ASSEMBLAGE_HEAVY_TESTS"] else { return false }
    return !value.isEmpty && value != "0"
}()

extension Trait where Self == ConditionTrait {
    /// Runs the test only with `ASSEMBLAGE_HEAVY_TESTS=1` (see ``heavyTestsEnabled``).
    static var heavy: Self {
        .enabled(if: heavyTestsEnabled, "heavy: runs with ASSEMBLAGE_HEAVY_TESTS=1, as in .ci/run")
    }
}

/// Prints a measured figure (`[figure] …`) when the heavy tests run; a plain `swift test` prints none.
func printFigure(_ text: String) {
    if heavyTestsEnabled { print("[figure] \(text)") }
}
