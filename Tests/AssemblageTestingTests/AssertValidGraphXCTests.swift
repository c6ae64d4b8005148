import Assemblage
import AssemblageTesting
import XCTest

/// `assertValidGraph` from XCTest: failures are captured here instead of failing the run.
final class AssertValidGraphXCTests: XCTestCase {
    private var captured: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
    ) {
        captured.append(description)
    }

    func testValidGraphRecordsNothing() {
        assertValidGraph(App.container)
        XCTAssertTrue(captured.isEmpty)
    }

    func testInvalidGraphRecordsTheReport() {
        let container = Container()
        container.register(String.self) { r in "\(try r.require(Int.self))" }
        let report = assertValidGraph(container)
        XCTAssertFalse(report.isValid)
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.contains("No registration for Int") == true)
    }
}
