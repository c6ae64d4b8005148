// A correct graph using every form of the registration DSL the check reads. It must produce no finding at all.
// `// expect:` comments in the other fixtures mark the lines that must produce a finding; this file has none.
import Assemblage

struct ServiceAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Clock.self) { _ in SystemClock() }.inObjectScope(.container)
        container.register(HTTPClient.self, name: "primary") { _ in URLSessionHTTPClient() }
        container.register(HTTPClient.self) { r in try r.require(HTTPClient.self, name: "primary") }
        container.register(FeedService.self) { r in
            FeedService(
                http: try r.require(HTTPClient.self),
                clock: r.resolve(Clock.self)!
            )
        }
        container.register(Greeting.self) { (r, name: String, times: Int) in
            Greeting(name: name, times: times, clock: try r.require(Clock.self))
        }
        container.register(FileCache.self) { _ in FileCache() }
            .inObjectScope(.container)
            .implements(Cache.self, Purgeable.self)
        container.register(Uses.self) { r in Uses(cache: try r.require(Cache.self), purge: try r.require(Purgeable.self)) }
        container.register(Report.self) { r in
            Report(renderer: r.resolve(Lazy<Renderer>.self)!, pages: try r.require(Provider<Page>.self),
                   printer: try r.require(Printer?.self), handlers: try r.require([LogHandler].self),
                   named: try r.require([String: LogHandler].self))
        }
        container.register(Renderer.self) { r in Renderer(report: try r.require(Lazy<Report>.self)) }
        container.register(Page.self) { _ in Page() }
        container.registerIntoCollection(LogHandler.self, name: "console", priority: 10) { _ in ConsoleLogHandler() }
        container.registerIntoCollection(LogHandler.self) { _ in MemoryLogHandler() }.inObjectScope(.container)
        container.register(AppLogger.self) { r in AppLogger(handlers: try r.resolveAll(LogHandler.self)) }
        container.decorate(LogHandler.self) { r, inner in TimestampedLogHandler(inner, clock: try r.require(Clock.self)) }
        container.register(ProfileViewModel.self, mainActorFactory: { (r, userID: Int) in
            ProfileViewModel(userID: userID, feed: try r.require(FeedService.self))
        })
        container.register(Database.self) { _ in try await Database.open(path: "app.sqlite") }
        container.register(Parent.self) { r in Parent(child: try r.require(Child.self)) }
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = r.resolve(Parent.self) }
        container.register { _ in SystemClock() }
        // Per-request services and the value each scope provides.
        container.registerScopedValue(Request.self)
        container.registerScopedValue(User.self, name: "caller", validationValue: { User(id: 0) })
        container.register(TodoRepository.self) { r in
            TodoRepository(request: try r.require(Request.self), user: try r.require(User.self, name: "caller"),
                           scope: try r.require(Scope.self), graph: try r.require(GraphIdentifier.self))
        }.inObjectScope(.scoped)
        // SwinjectAutoregistration's operators and autoregistration of every shape.
        container.register(Owner.self) { r in Owner(clock: r ~> Clock.self, page: r ~> (Page.self)) }
        container.autoregister(Walker.self, initializer: Walker.init(owner:clock:))
        container.autoregister(Visit.self, name: "first", arguments: Page.self, String.self, initializer: Visit.init)
        container.autoregister(Trip.self, arguments: Page.self, String.self, Int.self, initializer: Trip.init)
        // Objects made elsewhere, scenes and properties.
        container.registerInjection(for: ProfileScreen.self) { r, screen in screen.feed = try r.require(FeedService.self) }
        container.register(scene: HomeScene())
        container.register(scene: OrdersScene.self) { r in OrdersScene(feed: try r.require(FeedService.self)) }
        container.register(Server.self) { r in
            Server(port: try r.requireProperty("port"), settings: try r.decodeProperties(Settings.self))
        }
    }
}

final class ProfileModel {
    @Injected var feed: FeedService
    @Injected(name: "primary") var http: HTTPClient
    @LazyInjected var renderer: Renderer
    @OptionalInjected var clock: Clock?
    @WeakLazyInjected var parent: Parent?
}

func visit(container: Container) {
    let walker = container ~> Walker.self
    let visit = container ~> (Visit.self, name: "first", arguments: (Page(), "Ada"))
    // The deprecated comma-separated forms: one runtime argument per value after `arguments:`.
    let again = container ~> (Visit.self, name: "first", arguments: Page(), "Ada")
    let trip = container ~> (Trip.self, arguments: Page(), "Ada", 3)
    print(walker, visit, again, trip)
}

func run(container: Container) async throws {
    let greeting = try container.require(Greeting.self, arguments: "Ada", 2)
    let model = try await container.resolveAsync(ProfileViewModel.self, argument: 7)
    let database = try await container.resolveAsync(Database.self)
    let clock = try container.require(SystemClock.self)
    print(greeting, model, database, clock)
}

// Modules: a tree, a dynamic module with a contribution, and a complete replacement.
struct NetworkModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(HTTPTransport.self) { _ in URLSessionTransport() }.inObjectScope(.container)
    }
}

struct StorageModule: DefaultModuleAssemblyOverride {
    typealias OverrideType = InMemoryStorageModule
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let path: String
    func assemble(container: Container) {
        let path = self.path
        container.register(Storage.self) { _ in DiskStorage(path: path) }
        container.register(Migrator.self, name: "v2") { _ in Migrator() }
    }
}

struct InMemoryStorageModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [StorageModule.self] }
    func assemble(container: Container) {
        container.register(Storage.self) { _ in InMemoryStorage() }
        container.register(Migrator.self, name: "v2") { _ in Migrator() }
    }
}

struct InterfacesModule: DynamicModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

struct SearchModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, InterfacesModule.self] }
    func assemble(container: Container) {
        container.contribute(into: InterfacesModule.self) { interfaces in
            // Runs in SearchModule's scope: it may use NetworkModule.
            interfaces.register(SearchAPI.self) { r in Search(transport: try r.require(HTTPTransport.self)) }
        }
    }
}

struct FeedModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [StorageModule.self, InterfacesModule.self, NetworkModule.self]
    }
    func assemble(container: Container) {
        container.register(FeedStore.self) { r in
            FeedStore(storage: try r.require(Storage.self), search: r.resolve(SearchAPI.self),
                      transport: try r.require(HTTPTransport.self))
        }
    }
}

struct AppModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [FeedModule.self, SearchModule.self] }
    func assemble(container: Container) {
        // Transitive: Storage comes from StorageModule through FeedModule.
        container.register(App.self) { r in App(feed: try r.require(FeedStore.self), storage: try r.require(Storage.self)) }
    }
}
