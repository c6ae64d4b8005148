import Assemblage
import Testing

@Suite struct ScopeValidationTests {
    func app() -> Container {
        let container = Container()
        container.registerScopedValue(RequestValue.self)
        container.register(Audit.self) { r in Audit(request: try r.require(RequestValue.self)) }.inObjectScope(.scoped)
        return container
    }

    @Test func declaredScopedValuesAreNotReportedAsMissing() {
        let report = app().validate()
        #expect(report.isValid, "\(report)")
        #expect(report.issues.contains { $0.kind == .notChecked && $0.message.contains("validationValue") })
    }

    @Test func aValidationValueLetsValidationCheckPastTheScopedValue() {
        let container = Container()
        container.registerScopedValue(RequestValue.self, validationValue: { RequestValue(id: 0) })
        container.register(Audit.self) { r in
            _ = try r.require(Engine.self)  // not registered: found only because validation gets past RequestValue
            return Audit(request: try r.require(RequestValue.self))
        }.inObjectScope(.scoped)
        let report = container.validate()
        #expect(!report.isValid)
        #expect(report.errors.contains { $0.kind == .missingRegistration && $0.key?.description == "Engine" })
    }

    @Test func aCaptiveScopedDependencyIsAValidationError() {
        let container = app()
        container.register(Wheel.self) { r in
            _ = try r.require(Audit.self)
            return Wheel(engine: Engine())
        }.inObjectScope(.container)
        let report = container.validate()
        #expect(!report.isValid)
        #expect(report.errors.contains { $0.kind == .captiveDependency && $0.key?.description == "Audit" })
    }

    @Test func validateAsyncRunsAsyncFactoriesAndFindsWhatTheyMiss() async {
        let container = Container()
        container.register(Audit.self) { r async throws in
            _ = try await r.resolveAsync(Engine.self)  // missing
            return Audit(request: RequestValue(id: 0))
        }
        let synchronous = container.validate()
        #expect(synchronous.isValid)
        #expect(synchronous.issues.contains { $0.kind == .notChecked && $0.message.contains("validateAsync") })
        let asynchronous = await container.validateAsync()
        #expect(!asynchronous.isValid)
        #expect(asynchronous.errors.contains { $0.kind == .missingRegistration && $0.key?.description == "Engine" })
    }

    @Test func validateAsyncAcceptsAValidAsyncGraph() async {
        let container = Container()
        container.register(Engine.self) { _ async in Engine() }.inObjectScope(.container)
        container.register(Wheel.self) { r async throws in Wheel(engine: try await r.resolveAsync(Engine.self)) }
        let report = await container.validateAsync()
        #expect(report.isValid, "\(report)")
        #expect(report.checkedCount == 2)
    }

    @Test func validationDisposesWhatItsSandboxMade() async {
        let log = DisposalLog()
        let container = Container()
        container.register(AsyncTracked.self) { _ async in AsyncTracked("pool", log: log) }.inObjectScope(.container)
        container.register(Tracked.self) { _ in Tracked("unit of work", log: log) }.inObjectScope(.scoped)
        let report = await container.validateAsync()
        #expect(report.isValid, "\(report)")
        #expect(log.entries.sorted() == ["pool", "unit of work"])
        let synchronous = container.validate()
        #expect(synchronous.isValid, "\(synchronous)")
        #expect(log.count(of: "unit of work") == 2)
    }

    @Test func aDisposableValidationCannotDisposeIsAWarning() {
        let log = DisposalLog()
        let container = Container()
        container.register(AsyncTracked.self) { _ in AsyncTracked("pool", log: log) }.inObjectScope(.container)
        let report = container.validate()
        #expect(report.isValid)
        #expect(report.warnings.contains { $0.message.contains("Use validateAsync()") })
    }
}
