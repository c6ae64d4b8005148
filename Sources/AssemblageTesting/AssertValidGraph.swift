#if canImport(Testing)
import Assemblage
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
public func assertValidGraph(_ graph: some GraphValidatable, options: ValidationOptions = ValidationOptions(),
                             failOnWarnings: Bool = false, fileID: String = #fileID,
                             file: StaticString = #filePath, line: UInt = #line,
                             column: UInt = #column) -> ValidationReport {
    let report = graph.validate(options)
    let failed = !report.isValid || (failOnWarnings && !report.warnings.isEmpty)
    guard failed else { return report }
    let message = "The object graph is not valid:\n\(report)"
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
#endif
