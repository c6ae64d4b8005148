import Assemblage
import Synchronization
import Testing

// SwinjectAutoregistration's spellings that Assemblage keeps for ported code: the deprecated comma-separated `~>`
// forms and Swinject 2.9's process-wide `Container.loggingFunction`.

private final class Triple {
    let text: String
    init(_ text: String, _ number: Int, _ flag: Bool) { self.text = "\(text)\(number)\(flag)" }
}

/// Unregistered anywhere: only these tests fail to resolve it, so the log lines naming it are theirs.
private final class NeverRegisteredForLogging {}

@Suite struct DeprecatedOperatorTests {
    private func container() -> Container {
        let container = Container()
        container.register(Triple.self) { _, a, b, c in Triple(a, b, c) }
        container.register(Triple.self, name: "named") { _, a, b, c in Triple(a, b, c) }
        container.register(Cat.self, name: "named") { _, name, age in Cat(name: name, age: age) }
        return container
    }

    @available(*, deprecated, message: "calls the deprecated comma-separated forms on purpose")
    @Test func commaSeparatedThreeArgumentsResolveAsTheTupleForm() {
        let container = container()
        let triple = container ~> (Triple.self, arguments: "a", 1, true)
        #expect(triple.text == "a1true")
    }

    @available(*, deprecated, message: "calls the deprecated comma-separated forms on purpose")
    @Test func commaSeparatedNamedFormResolvesTheNamedRegistration() {
        let container = container()
        #expect((container ~> (Triple.self, name: "named", arguments: "b", 2, false)).text == "b2false")
    }

    @Test func tupleFormsStillResolveBesideTheCommaForms() {
        let container = container()
        #expect((container ~> (Triple.self, arguments: ("c", 3, true))).text == "c3true")
        #expect((container ~> (Cat.self, name: "named", arguments: ("Tom", 4))).age == 4)
    }

    @available(*, deprecated, message: "calls the deprecated comma-separated forms on purpose")
    @Test func commaFormStopsTheProgramWhenItCannotResolve() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let _ = Container() ~> (Triple.self, arguments: "a", 1, true)  // assemblage-check: ignore
        }.map { result in
            let output = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(output.contains("`~>` could not resolve Triple"))
        }
    }
}

/// `Container.loggingFunction` is process-wide: these tests run one at a time and count only the lines that name
/// their own unregistered type.
@Suite(.serialized) struct LoggingFunctionTests {
    private static func logging(_ body: () -> Void) -> [String] {
        let lines = Mutex<[String]>([])
        Container.loggingFunction = { line in
            if line.contains("NeverRegisteredForLogging") { lines.withLock { $0.append(line) } }
        }
        defer { Container.loggingFunction = nil }
        body()
        return lines.withLock { $0 }
    }

    @Test func successfulResolveIsNotLogged() {
        let container = Container()
        container.register(NeverRegisteredForLogging.self) { _ in NeverRegisteredForLogging() }
        let lines = Self.logging { _ = container.resolve(NeverRegisteredForLogging.self) }
        #expect(lines.isEmpty)
    }

    @Test func failedResolveIsLoggedOnceWithTheExpectedRegistration() {
        let container = Container()
        container.register(NeverRegisteredForLogging.self, name: "other") { _ in NeverRegisteredForLogging() }
        let lines = Self.logging { #expect(container.resolve(NeverRegisteredForLogging.self) == nil) }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("resolution failed. Expected registration:") == true)
        #expect(lines.first?.contains("Name: \"other\"") == true)  // the registrations of the same type
    }

    @Test func everyContainerReportsToTheOneFunction() {
        let lines = Self.logging {
            _ = Container().resolve(NeverRegisteredForLogging.self)
            _ = try? Container(parent: Container()).require(NeverRegisteredForLogging.self)
        }
        #expect(lines.count == 2)
    }

    @Test func settingNilStopsLogging() {
        let lines = Mutex<[String]>([])
        Container.loggingFunction = { line in
            if line.contains("NeverRegisteredForLogging") { lines.withLock { $0.append(line) } }
        }
        #expect(Container.loggingFunction != nil)
        Container.loggingFunction = nil
        #expect(Container.loggingFunction == nil)
        _ = Container().resolve(NeverRegisteredForLogging.self)
        #expect(lines.withLock { $0.isEmpty })
    }

    @Test func missingParameterOfAnAutoregisteredServiceIsLoggedOnce() {
        let container = Container()
        container.autoregister(Person.self, initializer: { (_: NeverRegisteredForLogging) in Person(pet: Cat()) })
        let lines = Self.logging { #expect(container.resolve(Person.self) == nil) }
        #expect(lines.count == 1)
    }
}
