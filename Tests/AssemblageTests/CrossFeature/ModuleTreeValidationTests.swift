import Assemblage
import Testing

// Modules with validation: `ModuleAssembler.validate()` over trees whose modules use the other features —
// autoregistration, collections, main-actor and async factories — and what it finds matches what resolving does.
// (The build-time graph check of module trees is tested with the plugin's own tests. Scoped services, declared scoped
// values and decorators in modules: ScopedModuleTreeValidationTests.swift.)

private final class ValidatedLedger: Sendable {}

private final class ValidatedClient: Sendable {}
private final class ValidatedCache: Sendable {}

private final class ValidatedReport: Sendable {
    let ledger: ValidatedLedger
    let client: ValidatedClient
    init(ledger: ValidatedLedger, client: ValidatedClient) {
        self.ledger = ledger
        self.client = client
    }
}

private protocol ValidatedPlugin: Sendable {}
private struct ValidatedCachePlugin: ValidatedPlugin { let cache: ValidatedCache }

@MainActor
private final class ValidatedScreenModel {
    init() {}
}

private final class ValidatedScreen: Sendable {
    init(model: ValidatedScreenModel) {}
}

private final class ValidatedDatabase: Sendable {}
private final class ValidatedStore: Sendable {
    init(database: ValidatedDatabase) {}
}

private struct ValidatedLedgerModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(ValidatedLedger.self) { _ in ValidatedLedger() }.inObjectScope(.container)
    }
}

private struct ValidatedClientModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(ValidatedClient.self) { _ in ValidatedClient() }
    }
}

/// Autoregisters a report over the ledger (LedgerModule) and the client (ClientModule).
private struct ValidatedReportModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ValidatedLedgerModule.self, ValidatedClientModule.self] }
    func assemble(container: Container) {
        container.autoregister(ValidatedReport.self, initializer: ValidatedReport.init)
    }
}

/// Same, without declaring ClientModule.
private struct ValidatedLeakyReportModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ValidatedLedgerModule.self] }
    func assemble(container: Container) {
        container.autoregister(ValidatedReport.self, initializer: ValidatedReport.init)
    }
}

/// A plugin whose element needs a cache nothing registers.
private struct ValidatedPluginModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.registerIntoCollection(ValidatedPlugin.self) { r in
            // Missing on purpose:
            ValidatedCachePlugin(cache: try r.require(ValidatedCache.self))  // assemblage-check: ignore
        }
    }
}

/// A main-actor model, and an async database.
private struct ValidatedIsolatedModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(ValidatedScreenModel.self, mainActorFactory: { _ in ValidatedScreenModel() })
        container.register(ValidatedDatabase.self) { _ async in
            await Task.yield()
            return ValidatedDatabase()
        }
    }
}

/// Resolves the isolated module's services synchronously, from nonisolated factories.
private struct ValidatedSynchronousModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ValidatedIsolatedModule.self] }
    func assemble(container: Container) {
        container.register(ValidatedScreen.self) { r in
            ValidatedScreen(model: try r.require(ValidatedScreenModel.self))
        }
        container.register(ValidatedStore.self) { r in ValidatedStore(database: try r.require(ValidatedDatabase.self)) }
    }
}

extension CrossFeature {
    @Suite struct ModuleTreeValidationTests {
        @Test func autoregisteredServicesOverDeclaredModulesValidateCleanAndResolve() throws {
            let assembler = try ModuleAssembler([ValidatedReportModule()])
            let report = assembler.validate()
            #expect(report.isValid, "\(report)")
            #expect(report.issues.isEmpty, "\(report)")
            let ids = Dictionary(report.graph.nodes.map { ($0.key, $0.id) }, uniquingKeysWith: { first, _ in first })
            let reportNode = try #require(ids[ServiceKey(ValidatedReport.self)])
            let edges = report.graph.edges.filter { $0.from == reportNode }.map(\.to)
            #expect(
                Set(edges) == [
                    try #require(ids[ServiceKey(ValidatedLedger.self)]),
                    try #require(ids[ServiceKey(ValidatedClient.self)]),
                ])
            let resolved = try assembler.resolver.require(ValidatedReport.self)
            #expect(resolved.ledger === (try assembler.resolver.require(ValidatedLedger.self)))
        }

        @Test func anAutoregisteredParameterFromAnUndeclaredModuleIsAnUndeclaredDependency() throws {
            let assembler = try ModuleAssembler([ValidatedLeakyReportModule(), ValidatedClientModule()])
            let report = assembler.validate()
            let issue = try #require(report.issues(of: .undeclaredDependency).first)
            #expect(issue.severity == .error)
            #expect(issue.key == ServiceKey(ValidatedClient.self))
            #expect(issue.message.contains("add ValidatedClientModule.self to ValidatedLeakyReportModule.dependencies"))
            // At run time the same resolve fails as validation said, naming the missing parameter's type.
            #expect {
                try assembler.resolver.require(ValidatedReport.self)
            } throws: { error in
                guard let error = error as? ResolutionError, error.code == .notRegistered else { return false }
                return error.key == ServiceKey(ValidatedClient.self)
            }
        }

        @Test func aCollectionElementOfAModuleMissingItsDependencyIsReportedWithItsPath() throws {
            let report = try ModuleAssembler([ValidatedPluginModule()]).validate()
            let issue = try #require(report.issues(of: .missingRegistration).first)
            #expect(issue.severity == .error)
            #expect(issue.key == ServiceKey(ValidatedCache.self))
            #expect(issue.path.last == ServiceKey(ValidatedCache.self))
            #expect(issue.message.contains("No registration for ValidatedCache"))
        }

        @Test func synchronousPathsIntoAnotherModulesIsolatedFactoriesAreReported() throws {
            let report = try ModuleAssembler([ValidatedSynchronousModule()]).validate()
            let isolation = report.issues(of: .isolation)
            let mainActor = try #require(isolation.first { $0.key == ServiceKey(ValidatedScreenModel.self) })
            #expect(mainActor.severity == .warning)
            #expect(mainActor.path.map(\.description) == ["ValidatedScreen", "ValidatedScreenModel"])
            let async = try #require(isolation.first { $0.key == ServiceKey(ValidatedDatabase.self) })
            #expect(async.severity == .error)
            #expect(async.path.map(\.description) == ["ValidatedStore", "ValidatedDatabase"])
            #expect(!report.isValid)
        }
    }
}
