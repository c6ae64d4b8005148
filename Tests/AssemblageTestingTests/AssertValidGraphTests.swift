import Assemblage
import AssemblageTesting
import Testing

private final class Needs: Sendable { init(_ value: Any?) {} }

@Suite struct AssertValidGraphTests {
    @Test func validGraphPassesAndReturnsTheReport() {
        let report = assertValidGraph(App.container)
        #expect(report.isValid)
    }

    @Test func invalidGraphFailsTheTestWithTheReport() {
        let container = Container()
        container.register(Needs.self) { r in Needs(try r.require(Int.self)) }
        withKnownIssue {
            assertValidGraph(container)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("No registration for Int") }
        }
    }

    @Test func warningsFailOnlyWhenAsked() {
        let container = Container()
        container.register(Int.self) { _ in 1 }
        container.register(Int.self) { _ in 2 }  // replaced: a warning
        #expect(assertValidGraph(container).warnings.count == 1)
        withKnownIssue {
            assertValidGraph(container, failOnWarnings: true)
        }
    }
}
