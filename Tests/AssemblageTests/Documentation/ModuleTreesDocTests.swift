import Assemblage
import Testing

// The code of the "Module Trees and Overrides" article, compiled and run (see GettingStartedDocTests.swift).

enum ModulesDoc {
    protocol HTTPClient: AnyObject, Sendable {}
    final class LiveHTTPClient: HTTPClient {}

    protocol Storage: AnyObject, Sendable {}
    final class SQLiteStorage: Storage {
        let path: String
        init(path: String) { self.path = path }
    }
    final class InMemoryStorage: Storage {}

    final class FeedService: Sendable {
        let http: HTTPClient
        let storage: Storage
        init(http: HTTPClient, storage: Storage) {
            self.http = http
            self.storage = storage
        }
    }

    final class SearchAPI: Sendable {
        let http: HTTPClient
        init(http: HTTPClient) { self.http = http }
    }

    final class ProfileViewController {
        var feed: FeedService?
    }

    // snippet: modules-define
    struct NetworkModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }

        func assemble(container: Container) {
            container.register(HTTPClient.self) { _ in LiveHTTPClient() }.inObjectScope(.container)
        }
    }

    /// Needs a value from the app, so it cannot create itself: the app passes an instance.
    struct StorageModule: ModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        let path: String

        func assemble(container: Container) {
            let path = self.path
            container.register(Storage.self) { _ in SQLiteStorage(path: path) }.inObjectScope(.container)
        }
    }

    struct FeedModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, StorageModule.self] }

        func assemble(container: Container) {
            container.register(FeedService.self) { r in
                FeedService(http: try r.require(HTTPClient.self), storage: try r.require(Storage.self))
            }
        }
    }

    struct AppModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [FeedModule.self] }
        func assemble(container: Container) {}
    }
    // end-snippet

    // snippet: modules-replacement
    struct InMemoryStorageModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        static var replaces: [any ModuleAssembly.Type] { [StorageModule.self] }

        func assemble(container: Container) {
            container.register(Storage.self) { _ in InMemoryStorage() }.inObjectScope(.container)
        }
    }
    // end-snippet

    // snippet: modules-default-override
    /// The storage module of a tree whose tests use an in-memory database by default.
    struct CacheModule: ModuleAssembly, DefaultModuleAssemblyOverride {
        typealias OverrideType = InMemoryCacheModule
        static var dependencies: [any ModuleAssembly.Type] { [] }
        let path: String

        func assemble(container: Container) {
            let path = self.path
            container.register(Storage.self) { _ in SQLiteStorage(path: path) }.inObjectScope(.container)
        }
    }

    struct InMemoryCacheModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        static var replaces: [any ModuleAssembly.Type] { [CacheModule.self] }

        func assemble(container: Container) {
            container.register(Storage.self) { _ in InMemoryStorage() }.inObjectScope(.container)
        }
    }
    // end-snippet

    struct CachedFeedModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, CacheModule.self] }
        func assemble(container: Container) {
            container.register(FeedService.self) { r in
                FeedService(http: try r.require(HTTPClient.self), storage: try r.require(Storage.self))
            }
        }
    }

    // snippet: modules-dynamic
    /// Interfaces whose implementations other modules contribute.
    struct PluginsModule: DynamicModuleAssembly, AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        func assemble(container: Container) {}
    }

    struct SearchModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }

        func assemble(container: Container) {
            container.contribute(into: PluginsModule.self) { plugins in
                plugins.register(SearchAPI.self) { r in
                    SearchAPI(http: try r.require(HTTPClient.self))  // from NetworkModule, SearchModule's dependency
                }
            }
        }
    }

    struct ShellModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [PluginsModule.self] }
        func assemble(container: Container) {}
    }
    // end-snippet

    // snippet: modules-injection
    struct ProfileModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [FeedModule.self] }

        func assemble(container: Container) {
            container.registerInjection(for: ProfileViewController.self) { r, controller in
                controller.feed = try r.require(FeedService.self)
            }
        }
    }
    // end-snippet

    struct Request: Sendable {
        let id: Int
    }

    /// One request's session: made once per request, closed when the request ends.
    final class Session: Disposable, @unchecked Sendable {  // @unchecked: `isClosed` is written once, by the end.
        let request: Request
        private(set) var isClosed = false
        init(request: Request) { self.request = request }
        func dispose() { isClosed = true }
    }

    final class Timeline: Sendable {
        let session: Session
        let feed: FeedService
        init(session: Session, feed: FeedService) {
            self.session = session
            self.feed = feed
        }
    }

    // snippet: modules-request-scope-define
    struct RequestModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }

        func assemble(container: Container) {
            container.registerScopedValue(Request.self)  // each request provides it
            container.register(Session.self) { r in Session(request: try r.require(Request.self)) }
                .inObjectScope(.scoped)
        }
    }

    struct TimelineModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [RequestModule.self, FeedModule.self] }

        func assemble(container: Container) {
            container.register(Timeline.self) { r in
                Timeline(session: try r.require(Session.self), feed: try r.require(FeedService.self))
            }.inObjectScope(.scoped)
        }
    }
    // end-snippet

    @Suite("Docs: Module Trees and Overrides") struct Samples {
        @Test func requestScopesAcrossModules() async throws {
            // snippet: modules-request-scope
            let assembler = try ModuleAssembler([TimelineModule(), StorageModule(path: "feed.sqlite")])
            let timeline = try await assembler.withScope(label: "request 42") { scope in
                try scope.provide(Request(id: 42))  // declared by RequestModule
                return try scope.require(Timeline.self)  // TimelineModule's, over RequestModule's session
            }  // the request ends: its Timeline and Session are disposed, newest first
            // end-snippet
            #expect(timeline.session.request.id == 42)
            #expect(timeline.session.isClosed)
        }

        @Test func requestScopeMadeByHand() async throws {
            let assembler = try ModuleAssembler([TimelineModule(), StorageModule(path: "feed.sqlite")])
            // snippet: modules-request-scope-manual
            let scope = assembler.makeScope(label: "job")  // a scope of assembler.resolver
            try scope.provide(Request(id: 7))
            let session = try scope.require(Session.self)  // RequestModule's
            let timeline = try scope.require(Timeline.self)  // TimelineModule's, over the same session
            try await scope.end()  // disposes both, newest first
            // end-snippet
            #expect(timeline.session === session)
            #expect(session.isClosed)
            let sessionOnly = try #require(try assembler.resolver(for: RequestModule.self) as? Container)
            try await sessionOnly.withScope { scope in
                try scope.provide(Request(id: 8))
                #expect(try scope.require(Session.self).request.id == 8)
                #expect(scope.resolve(Timeline.self) == nil)  // RequestModule's view does not see TimelineModule
            }
        }

        @Test func assembleTheTree() throws {
            // snippet: modules-assemble
            let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "feed.sqlite")])
            let feed = try assembler.resolver.require(FeedService.self)
            print(assembler.modules)  // [NetworkModule, StorageModule, FeedModule, AppModule]
            // end-snippet
            #expect(assembler.modules.map { "\($0)" } == ["NetworkModule", "StorageModule", "FeedModule", "AppModule"])
            #expect((feed.storage as? SQLiteStorage)?.path == "feed.sqlite")

            // snippet: modules-scope
            let network = try assembler.resolver(for: NetworkModule.self)
            let invisible = network.resolve(FeedService.self)  // nil: NetworkModule does not depend on FeedModule
            // end-snippet
            #expect(invisible == nil)
        }

        @Test func missingModuleIsReported() {
            var message = ""
            // snippet: modules-missing
            do {
                _ = try ModuleAssembler([AppModule()])
            } catch {
                print(error)
            }
            // end-snippet
            do {
                _ = try ModuleAssembler([AppModule()])
            } catch {
                message = error.description
                #expect(error.codes == [.moduleNotProvided])
            }
            #expect(
                message == """
                    StorageModule is needed but was not passed in, and it cannot create itself.
                      Dependency path: AppModule → FeedModule → StorageModule
                      Fix: pass a StorageModule instance to ModuleAssembler, or conform it to AutoInitModuleAssembly.
                    """)
        }

        @Test func replacements() throws {
            // snippet: modules-replace
            let test = try ModuleAssembler([AppModule(), InMemoryStorageModule()])
            let feed = try test.resolver.require(FeedService.self)  // feed.storage is an InMemoryStorage
            // end-snippet
            #expect(feed.storage is InMemoryStorage)
            #expect(!test.modules.contains { $0 == StorageModule.self })

            // snippet: modules-use-default-overrides
            let app = try ModuleAssembler([CachedFeedModule(), CacheModule(path: "cache.sqlite")])
            let tests = try ModuleAssembler([CachedFeedModule()])  // in a test process
            // app: SQLiteStorage (passed in, so never overridden); tests: InMemoryStorage, and no CacheModule instance was needed
            // end-snippet
            #expect(try app.resolver.require(FeedService.self).storage is SQLiteStorage)
            #expect(try tests.resolver.require(FeedService.self).storage is InMemoryStorage)
        }

        @Test func resets() throws {
            let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "feed.sqlite")])
            let before = try assembler.resolver.require(FeedService.self)
            // snippet: modules-reset
            try assembler.reset(NetworkModule.self)  // NetworkModule's kept instances only
            try assembler.resetAll(FeedModule.self)  // FeedModule and everything it depends on
            // end-snippet
            let after = try assembler.resolver.require(FeedService.self)
            #expect(after.http !== before.http)
            #expect(after.storage !== before.storage)
        }

        @Test func shutdown() async throws {
            let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "feed.sqlite")])
            _ = try assembler.resolver.require(FeedService.self)
            // snippet: modules-shutdown
            try await assembler.shutdown()  // AppModule's instances, then FeedModule's, … StorageModule's last
            // A framework that takes a container ends the graph the same way:
            // ContainerService(assembler.container), RequestScopeMiddleware(container: assembler.container)
            // end-snippet
            #expect(assembler.container.isShutDown)
            #expect(throws: ResolutionError.self) { try assembler.resolver.require(FeedService.self) }
        }

        @Test func dynamicModules() throws {
            // snippet: modules-contributions
            let full = try ModuleAssembler([ShellModule(), SearchModule()])
            let search = try full.resolver(for: ShellModule.self).resolve(SearchAPI.self)  // contributed

            let bare = try ModuleAssembler([ShellModule()])
            let none = try bare.resolver(for: ShellModule.self).resolve(SearchAPI.self)  // nil: no contributor
            // end-snippet
            #expect(search != nil)
            #expect(none == nil)
        }

        @Test func injection() throws {
            let assembler = try ModuleAssembler([ProfileModule(), StorageModule(path: "feed.sqlite")])
            // snippet: modules-inject
            let controller = ProfileViewController()  // made by a storyboard or a framework, not the container
            try assembler.resolver.inject(into: controller)
            // controller.feed is set
            // end-snippet
            #expect(controller.feed != nil)
        }

        @Test func childAssembler() throws {
            // snippet: modules-parent
            let app = try ModuleAssembler([AppModule(), StorageModule(path: "feed.sqlite")])
            let profile = try ModuleAssembler([ProfileModule()], parent: app)  // reuses app's FeedModule and the rest
            // end-snippet
            #expect(profile.modules.map { "\($0)" } == ["ProfileModule"])
            #expect(try profile.resolver.require(FeedService.self).storage is SQLiteStorage)
        }
    }
}
