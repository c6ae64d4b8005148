#if canImport(ObjectiveC)
import Foundation  // NSClassFromString, for XCTest's Objective-C classes on Apple platforms
#endif

/// Whether this process runs tests, which decides ``OverrideBehavior/whenTesting``.
///
/// A process runs tests when a test library is loaded into it: XCTest (its `XCTestCase` class is known to the
/// runtime) or Swift Testing (its `Test` type is). Both are looked up by name, so Assemblage links neither. An app
/// never loads them; `swift test`, `xcodebuild test` and Xcode's test runner always load the library their tests
/// use, on Linux as on Apple platforms. The answer is computed once and never changes.
enum _TestProcess {
    /// Whether XCTest or Swift Testing is loaded into this process.
    static let isRunningTests: Bool = detect()

    /// The mangled names of a type each test library declares: `XCTest.XCTestCase` (swift-corelibs-xctest, a
    /// Swift class) and `Testing.Test`. Mangled rather than dotted, because the runtime resolves a dotted name
    /// only for classes.
    static let probes = ["6XCTest0A4CaseC", "7Testing4TestV"]

    static func detect() -> Bool {
        if probes.contains(where: { _typeByName($0) != nil }) { return true }
        #if canImport(ObjectiveC)
        // Apple's XCTest is an Objective-C framework: its classes are found through the Objective-C runtime.
        if NSClassFromString("XCTestCase") != nil { return true }
        #endif
        return false
    }
}
