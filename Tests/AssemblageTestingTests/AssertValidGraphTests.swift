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
        let failures = _GraphAssertionCapture.messages { assertValidGraph(container) }
        #expect(failures.count == 1)
        #expect(failures.first == "The object graph is not valid:\n\(container.validate())")
        #expect(failures.first?.contains("No registration for Int") == true)
    }

    @Test func warningsFailOnlyWhenAsked() {
        let container = Container()
        container.register(Int.self) { _ in 1 }
        container.register(Int.self) { _ in 2 }  // replaced: a warning
        let lenient = _GraphAssertionCapture.messages {
            #expect(assertValidGraph(container).warnings.count == 1)
        }
        #expect(lenient.isEmpty)
        let strict = _GraphAssertionCapture.messages { assertValidGraph(container, failOnWarnings: true) }
        #expect(strict.count == 1)
        #expect(strict.first?.contains("warning: replaced registration: Int registered at") == true)
    }
}
