import Assemblage
import Testing

// A module graph's lifetime: shutting the assembler (or its container, which integrations take) down shuts every
// module down after the assembler's own container, the modules that depend on others first.

private struct DisposalFailure: Error {}

private struct ShutdownStorageModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let log: DisposalLog
    var failing = false
    func assemble(container: Container) {
        let log = log
        let entry = container.register(Tracked.self, name: "storage") { _ in Tracked("storage", log: log) }
            .inObjectScope(.container)
        if failing { entry.onDispose { _ in throw DisposalFailure() } }
    }
}

private struct ShutdownFeedModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ShutdownStorageModule.self] }
    let log: DisposalLog
    func assemble(container: Container) {
        let log = log
        container.register(Tracked.self, name: "feed") { r in
            Tracked("feed", log: log, dependencies: [try r.require(Tracked.self, name: "storage")])
        }
        .inObjectScope(.container)
    }
}

@Suite struct ModuleShutdownTests {
    /// The graph, and a registration of the app's own in the assembler's container.
    private func assemble(_ log: DisposalLog, failing: Bool = false) throws -> ModuleAssembler {
        let assembler = try ModuleAssembler([
            ShutdownFeedModule(log: log), ShutdownStorageModule(log: log, failing: failing),
        ])
        assembler.container.register(Tracked.self, name: "app") { r in
            Tracked("app", log: log, dependencies: [try r.require(Tracked.self, name: "feed")])
        }
        .inObjectScope(.container)
        return assembler
    }

    @Test func shuttingTheAssemblerDownDisposesEveryModuleDependentsFirst() async throws {
        let log = DisposalLog()
        let assembler = try assemble(log)
        _ = try assembler.resolver.require(Tracked.self, name: "app")
        try await assembler.shutdown()
        #expect(log.entries == ["app", "feed", "storage"])
        #expect(assembler.container.isShutDown)
        // Every way in refuses now: the assembler, and each module's own resolver.
        #expect(throws: ResolutionError.self) { try assembler.resolver.require(Tracked.self, name: "feed") }
        do {
            _ = try assembler.resolver(for: ShutdownStorageModule.self).require(Tracked.self, name: "storage")
            Issue.record("expected containerShutDown")
        } catch let error as ResolutionError {
            #expect(error.code == .containerShutDown)
        }
        try await assembler.shutdown()  // again: nothing more
        #expect(log.entries.count == 3)
    }

    @Test func theAssemblersContainerIsWhatIntegrationsShutDown() throws {
        let log = DisposalLog()
        let assembler = try assemble(log)
        _ = try assembler.container.require(Tracked.self, name: "feed")
        try assembler.container.shutdownSynchronously()
        #expect(log.entries == ["feed", "storage"])
    }

    @Test func aFailingDisposerInOneModuleLeavesTheOthersDisposed() throws {
        let log = DisposalLog()
        let assembler = try assemble(log, failing: true)
        _ = try assembler.resolver.require(Tracked.self, name: "app")
        do {
            try assembler.shutdownSynchronously()
            Issue.record("expected a DisposalError")
        } catch {
            #expect(error.failures.count == 1)
            #expect(error.failures.first?.key.name == "storage")
        }
        #expect(log.entries == ["app", "feed"])
    }

    @Test func disposingTheAssemblersInstancesKeepsTheModulesOpen() async throws {
        let log = DisposalLog()
        let assembler = try assemble(log)
        let first = try assembler.resolver.require(Tracked.self, name: "feed")
        try await assembler.container.disposeInstances()
        #expect(log.entries == ["feed", "storage"])
        let second = try assembler.resolver.require(Tracked.self, name: "feed")
        #expect(first !== second)
    }

    @Test func aChildAssemblerLeavesItsParentsModulesToTheParent() throws {
        let log = DisposalLog()
        let parent = try ModuleAssembler([ShutdownStorageModule(log: log)])
        let child = try ModuleAssembler([ShutdownFeedModule(log: log)], parent: parent)
        _ = try child.resolver.require(Tracked.self, name: "feed")
        try child.shutdownSynchronously()
        #expect(log.entries == ["feed"])
        #expect(try parent.resolver.require(Tracked.self, name: "storage").disposals == 0)
        try parent.shutdownSynchronously()
        #expect(log.entries == ["feed", "storage"])
    }
}
