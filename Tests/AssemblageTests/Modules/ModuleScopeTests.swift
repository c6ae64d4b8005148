import Assemblage
import Dispatch
import Foundation
import Testing

/// Uses AnalyticsTracker without declaring AnalyticsModule.
struct SneakyModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func register(into container: Container) {
        container.register(CheckoutService.self) { r in
            CheckoutService(
                transport: try r.require(HTTPTransport.self),
                analytics: try r.require(AnalyticsTracker.self))  // assemblage-check: ignore (on purpose)
        }
    }
}

/// Registers its own base URL; NetworkModule's factories must not see it.
struct StagingModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func register(into container: Container) {
        container.register(String.self, name: "baseURL") { _ in "https://staging.example.com" }
        container.register(String.self, name: "staging") { r in try r.require(String.self, name: "baseURL") }
    }
}

struct ScopedServicesModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func register(into container: Container) {
        container.register(Counted.self, name: "container") { _ in Counted(Counter()) }.inObjectScope(.container)
        container.register(Counted.self, name: "singleton") { _ in Counted(Counter()) }.inObjectScope(.singleton)
        container.register(Counted.self, name: "weak") { _ in Counted(Counter()) }.inObjectScope(.weak)
    }
}

struct ScopedClientModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ScopedServicesModule.self, NetworkModule.self] }
    func register(into container: Container) {
        container.register(Counted.self, name: "client") { _ in Counted(Counter()) }.inObjectScope(.container)
    }
}

/// Counts how many times a module's reset reaches its storage.
final class ResetCountingStorage: InstanceStorage, @unchecked Sendable {
    let resets: Counter
    init(resets: Counter) { self.resets = resets }
    private var stored: Any?
    var instance: Any? {
        get { stored }
        set {
            if newValue == nil { resets.increment() }
            stored = newValue
        }
    }
}

@Suite struct ModuleScopeTests {
    @Test func moduleSeesOnlyItselfAndItsDependencies() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        let network = try assembler.resolver(for: NetworkModule.self)
        #expect(network.resolve(HTTPTransport.self) != nil)
        #expect(network.resolve(FeedService.self) == nil)
        #expect(network.resolve(KeyValueStore.self) == nil)
        let feed = try assembler.resolver(for: FeedModule.self)
        #expect(feed.resolve(FeedService.self) != nil)
        #expect(feed.resolve(AnalyticsTracker.self) != nil)  // a declared dependency
        #expect(feed.resolve(ProfileService.self) == nil)  // a sibling
        #expect(feed.resolve(AppCoordinator.self) == nil)  // a dependent
        let checkout = try assembler.resolver(for: CheckoutModule.self)
        #expect(checkout.resolve(KeyValueStore.self) == nil)  // not declared by CheckoutModule or its dependencies
    }

    @Test func undeclaredDependencyFailsEvenWhenResolvingFromTheRoot() throws {
        let assembler = try ModuleAssembler([SneakyModule(), AnalyticsModule()])
        // The root sees AnalyticsModule, but SneakyModule's factory runs in SneakyModule's scope.
        #expect(assembler.resolver.resolve(AnalyticsTracker.self) != nil)
        let error = try #require(throws: ResolutionError.self) { try assembler.resolver.require(CheckoutService.self) }
        #expect(error.code == .notRegistered)
        #expect(error.key == ServiceKey(AnalyticsTracker.self))
        #expect(error.pathDescription == "CheckoutService → AnalyticsTracker")
        #expect(
            error.suggestions == [
                "AnalyticsModule registers AnalyticsTracker, but SneakyModule does not depend "
                    + "on AnalyticsModule: add AnalyticsModule.self to SneakyModule.dependencies."
            ])
        #expect(error.description.contains("Fix: AnalyticsModule registers AnalyticsTracker"))
    }

    @Test func missingRegistrationInAModuleWithoutOwnerNamesNoModule() throws {
        let assembler = try ModuleAssembler([SneakyModule()])
        let error = try #require(throws: ResolutionError.self) { try assembler.resolver.require(CheckoutService.self) }
        #expect(error.code == .notRegistered)
        #expect(error.suggestions.isEmpty)
    }

    @Test func factoryRunsInTheScopeOfTheModuleThatRegisteredIt() throws {
        let assembler = try ModuleAssembler([StagingModule()])
        let staging = try assembler.resolver(for: StagingModule.self)
        // StagingModule's own factory sees its own base URL first…
        #expect(try staging.require(String.self, name: "staging") == "https://staging.example.com")
        // …but NetworkModule's transport, resolved through StagingModule, still sees NetworkModule's.
        #expect(try staging.require(HTTPTransport.self).baseURL == "https://api.example.com")
        #expect(try assembler.resolver.require(HTTPTransport.self).baseURL == "https://api.example.com")
    }

    @Test func rootSearchesModulesInAssemblyOrder() throws {
        let assembler = try ModuleAssembler([StagingModule()])
        // NetworkModule is assembled first, so its registration of the shared key wins at the root.
        #expect(try assembler.resolver.require(String.self, name: "baseURL") == "https://api.example.com")
        #expect(try assembler.resolver.require(String.self, name: "staging") == "https://staging.example.com")
    }

    @Test func containerScopedServiceIsSharedByEveryDependent() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        let app = try assembler.resolver.require(AppCoordinator.self)
        #expect(app.feed.transport === app.profile.transport)
        #expect(app.feed.transport === app.checkout.transport)
        #expect(app.feed.analytics === app.checkout.analytics)
        #expect(app.feed.analytics.transport === app.feed.transport)
        #expect(try assembler.resolver(for: NetworkModule.self).require(HTTPTransport.self) === app.feed.transport)
    }

    @Test func resetDropsThatModulesInstancesOnly() throws {
        let assembler = try ModuleAssembler([ScopedClientModule()])
        let services = try assembler.resolver(for: ScopedServicesModule.self)
        let client = try assembler.resolver(for: ScopedClientModule.self)
        let container = try services.require(Counted.self, name: "container")
        let clientInstance = try client.require(Counted.self, name: "client")
        let transport = try services.require(HTTPTransport.self)

        try assembler.reset(ScopedClientModule.self)
        #expect(try client.require(Counted.self, name: "client") !== clientInstance)
        #expect(try client.require(Counted.self, name: "container") === container)  // a dependency's: kept

        try assembler.reset(ScopedServicesModule.self)
        #expect(try client.require(Counted.self, name: "container") !== container)
        #expect(try services.require(HTTPTransport.self) === transport)  // NetworkModule's: kept
    }

    @Test func resetAllDropsTheDependenciesInstancesToo() throws {
        let assembler = try ModuleAssembler([ScopedClientModule()])
        let client = try assembler.resolver(for: ScopedClientModule.self)
        let container = try client.require(Counted.self, name: "container")
        let own = try client.require(Counted.self, name: "client")
        let transport = try client.require(HTTPTransport.self)
        try assembler.resetAll(ScopedClientModule.self)
        #expect(try client.require(Counted.self, name: "client") !== own)
        #expect(try client.require(Counted.self, name: "container") !== container)
        #expect(try client.require(HTTPTransport.self) !== transport)
    }

    @Test func resetAllResetsASharedDependencyOnce() throws {
        let resets = Counter()
        let scope = ObjectScope(storageFactory: { ResetCountingStorage(resets: resets) }, description: "counting")
        struct Base: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [] }
            func assemble(container: Container) {}
        }
        struct Left: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [Base.self] }
            func assemble(container: Container) {}
        }
        struct Right: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [Base.self] }
            func assemble(container: Container) {}
        }
        struct Top: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [Left.self, Right.self] }
            func assemble(container: Container) {}
        }
        let assembler = try ModuleAssembler([Top()])
        let base = try #require(try assembler.resolver(for: Base.self) as? Container)
        base.register(Counted.self) { _ in Counted(Counter()) }.inObjectScope(scope)
        _ = try assembler.resolver.require(Counted.self)
        try assembler.resetAll(Top.self)
        #expect(resets.count == 1)
    }

    @Test func singletonsSurviveResetAndResetAll() throws {
        let assembler = try ModuleAssembler([ScopedClientModule()])
        let services = try assembler.resolver(for: ScopedServicesModule.self)
        let singleton = try services.require(Counted.self, name: "singleton")
        try assembler.reset(ScopedServicesModule.self)
        try assembler.resetAll(ScopedClientModule.self)
        #expect(try services.require(Counted.self, name: "singleton") === singleton)
    }

    @Test func resetDropsWeakInstancesOfTheModule() throws {
        let assembler = try ModuleAssembler([ScopedServicesModule()])
        let services = try assembler.resolver(for: ScopedServicesModule.self)
        let held = try services.require(Counted.self, name: "weak")
        #expect(try services.require(Counted.self, name: "weak") === held)
        try assembler.reset(ScopedServicesModule.self)
        #expect(try services.require(Counted.self, name: "weak") !== held)
    }

    @Test func resolverForAModuleIsItsOwnContainerLabelledWithItsName() throws {
        let assembler = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        let feed = try #require(try assembler.resolver(for: FeedModule.self) as? Container)
        #expect(feed.label == "FeedModule")
        #expect(feed.resolve(FeedService.self) != nil)
    }

    @Test func registrationsMadeAfterAssemblyAreVisibleToDependents() throws {
        let assembler = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        let network = try #require(try assembler.resolver(for: NetworkModule.self) as? Container)
        network.register(String.self, name: "late") { _ in "late" }
        #expect(try assembler.resolver(for: FeedModule.self).require(String.self, name: "late") == "late")
        #expect(try assembler.resolver.require(String.self, name: "late") == "late")
    }

    @Test func implementsIsExportedUnderTheForwardedType() throws {
        struct ClockModule: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [] }
            func assemble(container: Container) {
                container.register(Cat.self) { _ in Cat(name: "Tom") }.inObjectScope(.container).implements(Animal.self)
            }
        }
        let assembler = try ModuleAssembler([ClockModule()])
        let cat = try assembler.resolver.require(Cat.self)
        #expect(try assembler.resolver.require(Animal.self) === cat)
    }

    /// With `whileAnotherThreadResolves`, another thread is in the middle of a resolve (its factory waits), so
    /// what is retired meanwhile waits for it to finish; module containers must not be among what waits
    /// (outgrown tables and replaced fallback lists give up their references at once).
    @Test(arguments: [false, true])
    func releasingTheAssemblerReleasesEveryModuleContainer(whileAnotherThreadResolves: Bool) throws {
        let inProgress = whileAnotherThreadResolves ? ResolveInProgress() : nil
        defer { inProgress?.finish() }
        weak var feed: Container?
        weak var interfaces: Container?
        weak var network: Container?
        do {
            let parent = try ModuleAssembler([NetworkModule()])
            let assembler = try ModuleAssembler(
                [
                    AppModule(), InMemoryStorageModule(), CheckoutScreenModule(),
                    PaymentsContributorModule(),
                ], parent: parent)
            _ = try assembler.resolver.require(AppCoordinator.self)
            _ = try assembler.resolver.require(PaymentsAPI.self)
            feed = try assembler.resolver(for: FeedModule.self) as? Container
            interfaces = try assembler.resolver(for: InterfacesModule.self) as? Container
            network = try assembler.resolver(for: NetworkModule.self) as? Container
            #expect(feed != nil && interfaces != nil && network != nil)
        }
        #expect(feed == nil)
        #expect(interfaces == nil)
        #expect(network == nil)
    }

    @Test func aModulesResolverKeepsItsDependenciesAlive() throws {
        var feed: Resolver?
        do {
            let assembler = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
            feed = try assembler.resolver(for: FeedModule.self)
        }
        #expect(try feed?.require(FeedService.self).store.kind == "memory")
    }

    @Test func registrationsFromManyThreadsAreExportedToDependents() throws {
        let assembler = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        let network = try #require(try assembler.resolver(for: NetworkModule.self) as? Container)
        let feed = try assembler.resolver(for: FeedModule.self)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 {
                network.register(Int.self, name: "\(thread)-\(index)") { _ in thread * 1_000 + index }
                _ = feed.resolve(Int.self, name: "\(thread)-\(index / 2)")
            }
        }
        for thread in 0..<8 {
            for index in 0..<50 {
                #expect(feed.resolve(Int.self, name: "\(thread)-\(index)") == thread * 1_000 + index)
            }
        }
    }

    @Test func manyThreadsShareOneContainerScopedInstanceWhileModulesReset() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        let resolver = assembler.resolver
        let transports = UncheckedBox(value: Locked<Set<ObjectIdentifier>>([]))
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for round in 0..<200 {
                if index == 0, round % 50 == 49 { try? assembler.reset(FeedModule.self) }
                guard let app = resolver.resolve(AppCoordinator.self) else { continue }
                transports.value.withLock { $0.insert(ObjectIdentifier(app.feed.transport)) }
            }
        }
        // NetworkModule is never reset, so its transport is the one instance everyone got.
        #expect(transports.value.withLock { $0.count } == 1)
    }
}

/// A value behind a lock, for tests.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    @discardableResult
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

/// A resolve in progress on another thread until ``finish()``: its factory waits.
private final class ResolveInProgress: @unchecked Sendable {  // @unchecked: semaphores only.
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init() {
        let entered = DispatchSemaphore(value: 0)
        let blocking = Container()
        blocking.register(Int.self) { [release] _ in
            entered.signal()
            release.wait()
            return 1
        }
        Thread.detachNewThread { [done] in
            _ = blocking.resolve(Int.self)
            done.signal()
        }
        entered.wait()
    }

    /// Lets the factory return and waits for the thread.
    func finish() {
        release.signal()
        done.wait()
    }
}
