// Part of the Assemblage harness for Swinject's test suite (not Swinject's code).
//
// swift-corelibs-xctest has no `XCTMeasureOptions` and no `measure(options:block:)`; Apple's XCTest has both.
// Swinject's `ContainerTests.Speed.swift` uses them, so on Linux this file supplies the two with the same
// meaning: run the block `iterationCount` times and report nothing.
#if !canImport(ObjectiveC)
import XCTest

final class XCTMeasureOptions {
    var iterationCount = 5
}

extension XCTestCase {
    func measure(options: XCTMeasureOptions, block: () -> Void) {
        for _ in 0..<max(options.iterationCount, 1) { block() }
    }
}
#endif
