#if canImport(Testing)
public import Assemblage
import Foundation
import Testing
#if canImport(XCTest)
import XCTest
#endif

/// Fails the current test with the full report when `graph` is not valid; one call, in Swift Testing or XCTest.
///
/// Validation resolves every registration in a sandbox (see ``Assemblage/Container/validate(_:)``) and lists
/// every problem at once. Use it as the one test that guards the app's whole object graph:
///
/// ```swift
/// @Test func appGraphIsValid() {
///     assertValidGraph(AppAssembler.make())
/// }
///
/// final class GraphTests: XCTestCase {
///     func testAppGraphIsValid() { assertValidGraph(AppAssembler.make()) }
/// }
/// ```
///
/// Errors fail the test; with `failOnWarnings`, warnings do too. Notes never do.
///
/// - Parameters:
///   - graph: A container, assembler or module assembler.
///   - options: Sample arguments for registrations that take runtime arguments.
///   - failOnWarnings: Whether warnings (captive dependencies, replaced registrations, …) fail the test too.
///   - fileID: Where the failure is reported (the calling file's ID).
///   - file: Where the failure is reported (the calling file's path).
///   - line: Where the failure is reported (the calling line).
///   - column: Where the failure is reported (the calling column).
/// - Returns: The report, for further checks.
@discardableResult
public func assertValidGraph(
    _ graph: some GraphValidatable, options: ValidationOptions = ValidationOptions(),
    failOnWarnings: Bool = false, fileID: String = #fileID,
    file: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
) -> ValidationReport {
    let report = graph.validate(options)
    let failed = !report.isValid || (failOnWarnings && !report.warnings.isEmpty)
    guard failed else { return report }
    let message = "The object graph is not valid:\n\(report)"
    if let capture = _GraphAssertionCapture.current {
        capture.append(message)
        return report
    }
    let sourceLocation = SourceLocation(fileID: fileID, filePath: "\(file)", line: Int(line), column: Int(column))
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    } else {
        #if canImport(XCTest)
        XCTFail(message, file: file, line: line)
        #else
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        #endif
    }
    return report
}

/// Where ``assertValidGraph(_:options:failOnWarnings:fileID:file:line:column:)`` sends its failures while bound,
/// instead of failing the test: the package's own tests check a failing assertion this way, positively, rather
/// than as a known issue that every passing run would print.
package final class _GraphAssertionCapture: @unchecked Sendable {  // @unchecked: `messages` only under `lock`.
    /// The capture of the running task, if any.
    @TaskLocal package static var current: _GraphAssertionCapture?

    private let lock = NSLock()
    private var messages: [String] = []

    package init() {}

    /// The failure messages `body` caused, in order; none when every assertion in it passed.
    package static func messages(of body: () throws -> Void) rethrows -> [String] {
        let capture = _GraphAssertionCapture()
        try $current.withValue(capture) { try body() }
        return capture.lock.withLock { capture.messages }
    }

    func append(_ message: String) { lock.withLock { messages.append(message) } }
}
#endif
