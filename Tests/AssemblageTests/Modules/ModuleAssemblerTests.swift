import Assemblage
import Testing

// Small graphs for ordering: modules with no registrations.
struct OrderA: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [OrderB.self, OrderC.self] }
    func register(into container: Container) {}
}
struct OrderB: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [OrderD.self] }
    func register(into container: Container) {}
}
struct OrderC: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [OrderB.self, OrderD.self] }
    func register(into container: Container) {}
}
struct OrderD: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func register(into container: Container) {}
}
/// Declares its dependencies in the other order than OrderA.
struct OrderAReversed: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [OrderC.self, OrderB.self] }
    func register(into container: Container) {}
}
/// A second root whose only dependency was reached before through the first root.
struct OrderE: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [OrderD.self] }
    func register(into container: Container) {}
}

/// Needs a value from the app; not auto-init.
struct ConfiguredModule: RecordingModule {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let greeting: String
    func register(into container: Container) {
        let greeting = self.greeting
        container.register(String.self, name: "greeting") { _ in greeting }
    }
}
struct GreeterModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ConfiguredModule.self] }
    func register(into container: Container) {
        container.register(String.self, name: "greeter") { r in try r.require(String.self, name: "greeting") + "!" }
    }
}

/// Its loaded hook resolves through the resolver it receives.
struct LoadedProbeModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func assemble(container: Container) {
        container.register(String.self, name: "probe") { _ in "probe" }
    }
    func loaded(resolver: Resolver) {
        let sees = resolver.resolve(String.self, name: "baseURL") != nil && resolver.resolve(FeedService.self) == nil
        ModuleEventLog.current?.append("probe \(sees)")
    }
}

@Suite struct ModuleAssemblerTests {
    @Test func assemblesTenThousandModuleChainWithoutRecursion() throws {
        // Module i depends on module i + 1: every walk (planning, ordering, wiring the scopes) is a loop, and
        // each scope shares its dependency's fallback list instead of copying it.
        let assembler = try ModuleAssembler([chainModuleRoot(length: 10_000)])
        #expect(assembler.modules.count == 10_000)
        #expect(ObjectIdentifier(assembler.modules.first!) == ObjectIdentifier(chainModuleType(99_999)))
        #expect(ObjectIdentifier(assembler.modules.last!) == ObjectIdentifier(chainModuleType(90_000)))
        // The first module sees the last one's registration through 9,999 shared lists, and nothing else's.
        let first = try assembler.resolver(for: chainModuleType(90_000))
        #expect(first.resolve(Int.self, name: "99999") == 99_999)
        let last = try assembler.resolver(for: chainModuleType(99_999))
        #expect(last.resolve(Int.self, name: "90000") == nil)
        #expect(assembler.resolver.resolve(Int.self, name: "95000") == 95_000)
        try assembler.resetAll(chainModuleType(90_000))
    }

    @Test func aModuleScopeSearchesItsDependenciesScopesDepthFirstInDeclaredOrder() throws {
        // AppModule → Feed (→ Network, Storage, Analytics → Network), Profile (→ Network, Storage),
        // Checkout (→ Network, Analytics): each scope lists its own dependencies' scopes, and a lookup goes on
        // into theirs; a container reached again is not searched again.
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "/tmp/app")])
        let app = try #require(try assembler.resolver(for: AppModule.self) as? Container)
        #expect(
            app.lookupChain().dropFirst().map(\.label)
                == [
                    "FeedModule", "NetworkModule", "StorageModule", "AnalyticsModule",
                    "ProfileModule", "CheckoutModule",
                ])
    }

    @Test func assemblesTheWholeTreeFromOneRoot() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        let app = try assembler.resolver.require(AppCoordinator.self)
        #expect(app.feed.store.kind == "disk:app.db")
        #expect(app.checkout.transport.baseURL == "https://api.example.com")
        #expect(Set(moduleNames(assembler)) == Set(appTreeOrder))
    }

    @Test func assemblyOrderPutsSharedDependenciesBeforeEveryDependent() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        #expect(moduleNames(assembler) == appTreeOrder)
    }

    @Test func assembleCallsFollowTheAssemblyOrderAndLoadedHooksFollowAllAssembles() throws {
        let log = try ModuleEventLog.recording {
            _ = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        }
        #expect(log.events == appTreeOrder.map { "assemble \($0)" } + appTreeOrder.map { "loaded \($0)" })
    }

    @Test func orderIsTopologicalWhenAModuleIsReachedBeforeItsDependency() throws {
        // A → [B, C]; C → [B, D]; B → [D]. A naive reverse pre-order puts C's dependency B after C.
        let assembler = try ModuleAssembler([OrderA()])
        #expect(moduleNames(assembler) == ["OrderD", "OrderB", "OrderC", "OrderA"])
    }

    @Test func tiesAreBrokenByDeclarationOrder() throws {
        let reversed = try ModuleAssembler([OrderAReversed()])
        // C is declared first, but needs B, which needs D.
        #expect(moduleNames(reversed) == ["OrderD", "OrderB", "OrderC", "OrderAReversed"])
        let twoRoots = try ModuleAssembler([OrderE(), OrderA()])
        #expect(moduleNames(twoRoots) == ["OrderD", "OrderE", "OrderB", "OrderC", "OrderA"])
        let swapped = try ModuleAssembler([OrderA(), OrderE()])
        #expect(moduleNames(swapped) == ["OrderD", "OrderB", "OrderC", "OrderA", "OrderE"])
    }

    @Test func orderIsTheSameOnEveryRun() throws {
        let first = moduleNames(try ModuleAssembler([AppModule(), StorageModule(path: "a")]))
        for _ in 0..<20 {
            #expect(moduleNames(try ModuleAssembler([AppModule(), StorageModule(path: "a")])) == first)
        }
    }

    @Test func everyModuleIsAssembledOnceEvenWhenManyDependOnIt() throws {
        let log = try ModuleEventLog.recording {
            _ = try ModuleAssembler([AppModule(), StorageModule(path: "app.db"), NetworkModule()])
        }
        #expect(log.events("assemble").filter { $0 == "NetworkModule" }.count == 1)
        #expect(log.events("assemble").count == appTreeOrder.count)
    }

    @Test func autoInitialisesOnlyWhatWasNotPassedIn() throws {
        let assembler = try ModuleAssembler([GreeterModule(), ConfiguredModule(greeting: "hello")])
        #expect(try assembler.resolver.require(String.self, name: "greeter") == "hello!")
        #expect(moduleNames(assembler) == ["ConfiguredModule", "GreeterModule"])
    }

    @Test func loadedHookReceivesTheModulesOwnScope() throws {
        let log = try ModuleEventLog.recording {
            _ = try ModuleAssembler([LoadedProbeModule(), AppModule(), StorageModule(path: "x")])
        }
        #expect(log.events("probe") == ["true"])
    }

    @Test func defaultOverrideBehaviorIsOnInATestProcess() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        #expect(assembler.overrideBehavior == .useDefaultOverrides)
        #expect(assembler.overrideBehavior.usesDefaultOverrides)
        // StorageModule was passed in, so it is used rather than its default override.
        #expect(try assembler.resolver.require(KeyValueStore.self).kind == "disk:app.db")
    }

    @Test func containsAnswersForModulesAndTheirReplacements() throws {
        let assembler = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        #expect(assembler.contains(FeedModule.self))
        #expect(assembler.contains(StorageModule.self))
        #expect(assembler.contains(InMemoryStorageModule.self))
        #expect(!assembler.contains(AppModule.self))
    }

    @Test func emptyAssemblerResolvesNothing() throws {
        let assembler = try ModuleAssembler([])
        #expect(assembler.modules.isEmpty)
        #expect(assembler.resolver.resolve(HTTPTransport.self) == nil)
    }
}

@Suite struct ModuleAssemblerParentTests {
    @Test func childDoesNotAssembleWhatItsParentAssembled() throws {
        let parent = try ModuleAssembler([NetworkModule(), AnalyticsModule()])
        let log = try ModuleEventLog.recording {
            let child = try ModuleAssembler([CheckoutModule()], parent: parent)
            #expect(moduleNames(child) == ["CheckoutModule"])
        }
        #expect(log.events("assemble") == ["CheckoutModule"])
        #expect(log.events("loaded") == ["CheckoutModule"])
    }

    @Test func moduleOfTheParentPassedInAgainIsNotAssembledAgain() throws {
        let parent = try ModuleAssembler([NetworkModule()])
        let log = try ModuleEventLog.recording {
            let child = try ModuleAssembler([NetworkModule(), AnalyticsModule()], parent: parent)
            #expect(moduleNames(child) == ["AnalyticsModule"])
            #expect(
                try child.resolver.require(AnalyticsTracker.self).transport
                    === (try parent.resolver.require(HTTPTransport.self)))
        }
        #expect(log.events("assemble") == ["AnalyticsModule"])
    }

    @Test func childModulesFallBackToTheParentsModules() throws {
        let parent = try ModuleAssembler([NetworkModule(), AnalyticsModule()])
        let child = try ModuleAssembler([CheckoutModule()], parent: parent)
        let checkout = try child.resolver.require(CheckoutService.self)
        // The same container-scoped instances as the parent's: the modules are shared, not copied.
        #expect(checkout.transport === (try parent.resolver.require(HTTPTransport.self)))
        #expect(checkout.analytics === (try parent.resolver.require(AnalyticsTracker.self)))
        #expect(try child.resolver(for: CheckoutModule.self).resolve(HTTPTransport.self) === checkout.transport)
    }

    @Test func childResolverSeesParentModulesAndParentSeesNothingOfTheChild() throws {
        let parent = try ModuleAssembler([NetworkModule()])
        let child = try ModuleAssembler([AnalyticsModule()], parent: parent)
        #expect(child.resolver.resolve(HTTPTransport.self) != nil)
        #expect(child.resolver.resolve(AnalyticsTracker.self) != nil)
        #expect(parent.resolver.resolve(AnalyticsTracker.self) == nil)
        #expect(
            try child.resolver(for: NetworkModule.self) as AnyObject === (try parent.resolver(for: NetworkModule.self))
                as AnyObject)
    }

    @Test func parentsReplacementIsUsedByTheChild() throws {
        let parent = try ModuleAssembler([InMemoryStorageModule(), NetworkModule()])
        let child = try ModuleAssembler([ProfileModule()], parent: parent)
        #expect(try child.resolver.require(ProfileService.self).store.kind == "memory")
        #expect(moduleNames(child) == ["ProfileModule"])
    }

    @Test func childsExplicitReplacementWinsOverTheParentsModule() throws {
        let parent = try ModuleAssembler([NetworkModule(), StorageModule(path: "parent.db")])
        let child = try ModuleAssembler([ProfileModule(), RecordingStorageModule()], parent: parent)
        #expect(try child.resolver.require(ProfileService.self).store.kind == "recording")
        #expect(try parent.resolver.require(KeyValueStore.self).kind == "disk:parent.db")
        #expect(moduleNames(child) == ["RecordingStorageModule", "ProfileModule"])
    }

    @Test func grandchildReusesModulesOfEveryAncestor() throws {
        let grandparent = try ModuleAssembler([NetworkModule()])
        let parent = try ModuleAssembler([AnalyticsModule()], parent: grandparent)
        let log = try ModuleEventLog.recording {
            let child = try ModuleAssembler([CheckoutModule()], parent: parent)
            #expect(child.resolver.resolve(CheckoutService.self) != nil)
        }
        #expect(log.events("assemble") == ["CheckoutModule"])
    }
}
