import Assemblage
import Testing

// Module-tree validation of request-scoped services and decorators: `ModuleAssembler.validate()` resolves through a
// sandbox request scope, so a module's `.scoped` registrations and declared scoped values are checked as they run (and
// a value used from a module that does not depend on its declarer is an undeclared dependency); a module's decorator
// that matches nothing is reported.

private final class AcrossValidatedLedger: Sendable {
    let request: RequestValue
    init(request: RequestValue) { self.request = request }
}

private final class AcrossValidatedClient: Sendable {}
private final class AcrossValidatedCache: Sendable {}

private final class AcrossValidatedReport: Sendable {
    let ledger: AcrossValidatedLedger
    let client: AcrossValidatedClient
    init(ledger: AcrossValidatedLedger, client: AcrossValidatedClient) {
        self.ledger = ledger
        self.client = client
    }
}

/// Declares the request value; its ledger is scoped over it.
private struct AcrossValidatedRequestModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.registerScopedValue(RequestValue.self)
        container.register(AcrossValidatedLedger.self) { r in
            AcrossValidatedLedger(request: try r.require(RequestValue.self))
        }
        .inObjectScope(.scoped)
    }
}

/// Same, with a stand-in value, so that validation checks past the value.
private struct AcrossValidatedRequestWithSampleModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [AcrossValidatedRequestModule.self] }
    func assemble(container: Container) {
        container.registerScopedValue(RequestValue.self, validationValue: { RequestValue(id: 0) })
        container.register(AcrossValidatedLedger.self) { r in
            AcrossValidatedLedger(request: try r.require(RequestValue.self))
        }
        .inObjectScope(.scoped)
    }
}

private struct AcrossValidatedClientModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(AcrossValidatedClient.self) { _ in AcrossValidatedClient() }
    }
}

/// Autoregisters a scoped report over the ledger (RequestModule) and the client (ClientModule).
private struct AcrossValidatedReportModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [AcrossValidatedRequestModule.self, AcrossValidatedClientModule.self]
    }
    func assemble(container: Container) {
        container.autoregister(AcrossValidatedReport.self, initializer: AcrossValidatedReport.init).inObjectScope(
            .scoped)
    }
}

/// Uses the request value without declaring the module that declares it.
private struct AcrossValidatedUndeclaredValueModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(AcrossValidatedLedger.self, name: "own") { r in
            // Undeclared on purpose:
            AcrossValidatedLedger(request: try r.require(RequestValue.self))  // assemblage-check: ignore
        }
        .inObjectScope(.scoped)
    }
}

/// Decorates a type that nothing registers.
private struct AcrossValidatedStrayDecoratorModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.decorate(AcrossValidatedCache.self) { _, inner in inner }
    }
}

/// Decorates the report, which only a module depending on it (AcrossValidatedDecoratedReportModule) registers.
private struct AcrossValidatedReportDecoratorModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.decorate(AcrossValidatedReport.self) { _, inner in inner }
    }
}

/// Registers the report that AcrossValidatedReportDecoratorModule decorates.
private struct AcrossValidatedDecoratedReportModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [
            AcrossValidatedReportDecoratorModule.self, AcrossValidatedRequestModule.self,
            AcrossValidatedClientModule.self,
        ]
    }
    func assemble(container: Container) {
        container.autoregister(AcrossValidatedReport.self, initializer: AcrossValidatedReport.init).inObjectScope(
            .scoped)
    }
}

extension CrossFeature {
    @Suite struct ScopedModuleTreeValidationTests {
        @Test func aTreeOfScopedAndAutoregisteredServicesOverADeclaredValueIsValid() throws {
            let report = try ModuleAssembler([AcrossValidatedReportModule()]).validate()
            #expect(report.isValid, "\(report)")
            #expect(!report.issues.contains { $0.key == ServiceKey(RequestValue.self) && $0.severity != .note })
            let scoped = report.graph.nodes.filter { $0.scope == "scoped" }.map(\.container)
            #expect(scoped.contains("AcrossValidatedReportModule") && scoped.contains("AcrossValidatedRequestModule"))
        }

        @Test func aValidationValueInAModuleLetsValidationCheckPastTheValue() throws {
            let assembler = try ModuleAssembler([
                AcrossValidatedReportModule(), AcrossValidatedRequestWithSampleModule(),
            ])
            let report = assembler.validate()
            #expect(report.isValid, "\(report)")
            // With the stand-in value the ledger was made, so the graph has the edge report → ledger → value.
            let ids = Dictionary(report.graph.nodes.map { ($0.key, $0.id) }, uniquingKeysWith: { first, _ in first })
            let reportNode = try #require(ids[ServiceKey(AcrossValidatedReport.self)])
            let ledger = try #require(ids[ServiceKey(AcrossValidatedLedger.self)])
            #expect(report.graph.edges.contains(DependencyGraph.Edge(from: reportNode, to: ledger)))
        }

        @Test func aScopedValueDeclaredInAModuleItDoesNotDependOnIsAnUndeclaredDependency() throws {
            let assembler = try ModuleAssembler([
                AcrossValidatedUndeclaredValueModule(), AcrossValidatedRequestModule(),
            ])
            let report = assembler.validate()
            let issue = try #require(report.issues(of: .undeclaredDependency).first)
            #expect(issue.key == ServiceKey(RequestValue.self))
            #expect(issue.message.contains("AcrossValidatedUndeclaredValueModule resolves RequestValue"))
            #expect(
                issue.message.contains(
                    "add AcrossValidatedRequestModule.self to AcrossValidatedUndeclaredValueModule.dependencies"))
        }

        @Test func aModulesDecoratorThatMatchesNothingIsReported() throws {
            let assembler = try ModuleAssembler([AcrossValidatedStrayDecoratorModule()])
            let report = assembler.validate()
            let issue = try #require(report.issues(of: .unmatchedDecorator).first)
            #expect(issue.severity == .warning)
            #expect(issue.message.contains("AcrossValidatedCache"))
            #expect(report.isValid)
        }

        @Test func aModulesDecoratorOfWhatADependentModuleRegistersIsNotReported() throws {
            let report = try ModuleAssembler([AcrossValidatedDecoratedReportModule()]).validate()
            #expect(report.issues(of: .unmatchedDecorator).isEmpty, "\(report)")
            #expect(report.isValid, "\(report)")
        }

        @Test func aScopedServiceResolvedWithoutItsScopedValueIsANoteNotAnError() throws {
            let report = try ModuleAssembler([AcrossValidatedRequestModule()]).validate()
            #expect(report.isValid, "\(report)")
            let note = try #require(report.issues.first { $0.key == ServiceKey(RequestValue.self) })
            #expect(note.severity == .note && note.kind == .notChecked)
            #expect(note.affected.contains(ServiceKey(AcrossValidatedLedger.self)))
        }
    }
}
