import AssemblageTestSupport
import Foundation
import Testing

/// Prints a measured figure (`[figure] …`) when the heavy tests run; a plain `swift test` prints none.
func printFigure(_ text: String) {
    if heavyTestsEnabled { print("[figure] \(text)") }
}
