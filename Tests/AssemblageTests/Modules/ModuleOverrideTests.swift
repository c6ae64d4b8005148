import Assemblage
import Testing

/// A test-support module that brings the storage fake along as a plain dependency.
struct StorageTestSupportModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [InMemoryStorageModule.self] }
    func register(into container: Container) {}
}

/// Replaces the module it also depends on: rejected when the graph is built (the replaced module is not
/// assembled, so the dependency could only be the module itself).
struct LoggingNetworkModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    static var replaces: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func register(into container: Container) {
        container.register(HTTPTransport.self) { _ in LiveTransport(baseURL: "https://logged.example.com") }
            .inObjectScope(.container)
    }
}

/// Replaces the replacement: chains are followed.
struct SecondGenerationStorageModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [InMemoryStorageModule.self] }
    func register(into container: Container) {
        container.register(KeyValueStore.self) { _ in RecordingStore() }.inObjectScope(.container)
    }
}

@Suite struct ModuleOverrideTests {
    @Test func explicitReplacementIsAssembledInsteadOfTheOriginal() throws {
        let log = try ModuleEventLog.recording {
            let assembler = try ModuleAssembler([AppModule(), InMemoryStorageModule()])
            #expect(try assembler.resolver.require(AppCoordinator.self).feed.store.kind == "memory")
            #expect(!moduleNames(assembler).contains("StorageModule"))
            #expect(moduleNames(assembler) == appTreeOrder.map { $0 == "StorageModule" ? "InMemoryStorageModule" : $0 })
        }
        #expect(!log.events("assemble").contains("StorageModule"))
    }

    @Test func dependentsFallBackToTheReplacementsContainer() throws {
        let assembler = try ModuleAssembler([AppModule(), InMemoryStorageModule()])
        let feedScope = try assembler.resolver(for: FeedModule.self)
        let profileScope = try assembler.resolver(for: ProfileModule.self)
        #expect(feedScope.resolve(KeyValueStore.self)?.kind == "memory")
        // One replacement module, shared: its container-scoped store is the same for every dependent.
        #expect(feedScope.resolve(KeyValueStore.self) === profileScope.resolve(KeyValueStore.self))
        // Asking for the original gives the replacement's scope.
        #expect(
            try assembler.resolver(for: StorageModule.self) as AnyObject
                === (try assembler.resolver(for: InMemoryStorageModule.self)) as AnyObject)
    }

    @Test func defaultOverrideIsUsedWhenEnabled() throws {
        let assembler = try ModuleAssembler([AppModule()], overrideBehavior: .useDefaultOverrides)
        #expect(try assembler.resolver.require(AppCoordinator.self).profile.store.kind == "memory")
        #expect(moduleNames(assembler).contains("InMemoryStorageModule"))
        #expect(!moduleNames(assembler).contains("StorageModule"))
    }

    @Test func defaultOverrideIsIgnoredWhenDisabled() throws {
        let assembler = try ModuleAssembler(
            [AppModule(), StorageModule(path: "real.db")],
            overrideBehavior: .disableDefaultOverrides)
        #expect(try assembler.resolver.require(KeyValueStore.self).kind == "disk:real.db")
        #expect(!moduleNames(assembler).contains("InMemoryStorageModule"))
    }

    @Test func explicitReplacementWinsOverTheDefaultOverride() throws {
        let assembler = try ModuleAssembler(
            [AppModule(), RecordingStorageModule()],
            overrideBehavior: .useDefaultOverrides)
        #expect(try assembler.resolver.require(KeyValueStore.self).kind == "recording")
        #expect(!moduleNames(assembler).contains("InMemoryStorageModule"))
    }

    @Test func explicitlyPassedBaseWinsOverItsDefaultOverride() throws {
        let assembler = try ModuleAssembler(
            [AppModule(), StorageModule(path: "chosen.db")],
            overrideBehavior: .useDefaultOverrides)
        #expect(try assembler.resolver.require(KeyValueStore.self).kind == "disk:chosen.db")
    }

    @Test func replacementReachedAsADependencyReplacesTheOriginalEverywhere() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageTestSupportModule()])
        #expect(try assembler.resolver.require(AppCoordinator.self).feed.store.kind == "memory")
        #expect(
            moduleNames(assembler).filter { $0.contains("Storage") }
                == ["InMemoryStorageModule", "StorageTestSupportModule"])
    }

    @Test func replacementThatAlsoDependsOnWhatItReplacesIsRejected() throws {
        // It used to be accepted with the dependency dropped, and failed with a cycle when resolved.
        let log = ModuleEventLog.recording {
            let error = assemblyError { _ = try ModuleAssembler([CheckoutModule(), LoggingNetworkModule()]) }
            #expect(error?.codes == [.dependsOnReplacedModule])
        }
        #expect(log.events.isEmpty)
    }

    @Test func chainsOfReplacementsAreFollowed() throws {
        let assembler = try ModuleAssembler([ProfileModule(), InMemoryStorageModule(), SecondGenerationStorageModule()])
        #expect(try assembler.resolver.require(ProfileService.self).store.kind == "recording")
        #expect(moduleNames(assembler) == ["NetworkModule", "SecondGenerationStorageModule", "ProfileModule"])
    }

    @Test func replacementOfAModuleNoOneNeedsIsAWarningNotAnError() throws {
        let assembler = try ModuleAssembler([NetworkModule(), InMemoryStorageModule()])
        #expect(assembler.warnings.map(\.code) == [.unusedReplacement])
        #expect(assembler.warnings.first?.module == "StorageModule")
        #expect(
            assembler.warnings.first?.description
                == "InMemoryStorageModule replaces StorageModule, which no module needs.")
    }

    @Test func usedReplacementGivesNoWarning() throws {
        let assembler = try ModuleAssembler([AppModule(), InMemoryStorageModule()])
        #expect(assembler.warnings.isEmpty)
    }

    @Test func overrideBehaviorPresets() {
        #expect(OverrideBehavior.useDefaultOverrides.usesDefaultOverrides)
        #expect(!OverrideBehavior.disableDefaultOverrides.usesDefaultOverrides)
        #expect(OverrideBehavior(usesDefaultOverrides: true) == .useDefaultOverrides)
        #expect("\(OverrideBehavior.useDefaultOverrides)" == "useDefaultOverrides")
    }
}
