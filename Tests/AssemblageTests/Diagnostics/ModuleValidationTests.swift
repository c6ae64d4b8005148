import Assemblage
import Testing

/// Resolves the transport without declaring NetworkModule: works nowhere, and validation says why.
private struct LeakyReportsModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(AnalyticsTracker.self, name: "reports") { r in
            AnalyticsTracker(transport: try r.require(HTTPTransport.self))  // assemblage-check: ignore (on purpose)
        }
    }
}

private struct LeakyAppModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [LeakyReportsModule.self, NetworkModule.self] }
    func assemble(container: Container) {}
}

/// Replaces a module nothing in the tree needs.
private struct UnusedFakeModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [AnalyticsModule.self] }  // assemblage-check: ignore
    func assemble(container: Container) {}
}

@Suite struct ModuleValidationTests {
    @Test func realisticModuleTreeValidatesClean() throws {
        let assembler = try ModuleAssembler([AppModule()], overrideBehavior: .useDefaultOverrides)
        let report = assembler.validate()
        #expect(report.isValid, "\(report)")
        #expect(report.errors.isEmpty)
        #expect(report.graph.nodes.contains { $0.container == "AnalyticsModule" })
        #expect(!report.graph.edges.isEmpty)
    }

    @Test func undeclaredModuleDependencyIsReportedWithTheFix() throws {
        let assembler = try ModuleAssembler([LeakyAppModule()])
        let report = assembler.validate()
        let issue = try #require(report.issues(of: .undeclaredDependency).first)
        #expect(issue.severity == .error)
        #expect(issue.key == ServiceKey(HTTPTransport.self))
        #expect(issue.message.contains("LeakyReportsModule resolves HTTPTransport"))
        #expect(issue.message.contains("add NetworkModule.self to LeakyReportsModule.dependencies"))
        #expect(report.issues(of: .missingRegistration).isEmpty)
    }

    @Test func overrideThatReplacesNothingIsAWarning() throws {
        let assembler = try ModuleAssembler([NetworkModule(), UnusedFakeModule()])
        let report = assembler.validate()
        #expect(report.issues(of: .unusedOverride).count == 1)
        #expect(report.isValid)
    }

    @Test func assemblerValidationAndExplainForwardToItsContainer() {
        let assembler = Assembler([ServiceAssembly(), ManagerAssembly()])
        #expect(assembler.validate().isValid)
        #expect(assembler.explain(FooManagerType.self).winningContainer == "container")
    }
}
