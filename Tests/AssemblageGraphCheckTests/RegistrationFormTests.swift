import AssemblageGraphCheckKit
import Testing

/// Each registration and resolution form the runtime has: the form registers (or resolves) the key the runtime
/// does, so a correct use gives no finding, and its broken twin is still reported at its line.
@Suite struct RegistrationFormTests {
    private func facts(_ source: String) -> Facts {
        var facts = Facts()
        DSLScanner.scan(SourceFile(path: "App.swift", text: source), own: true, into: &facts)
        return facts
    }

    /// The findings as `line severity code`.
    private func summary(_ source: String, closedWorld: Bool = true) -> [String] {
        Check.run(source, closedWorld: closedWorld).map(Check.summary)
    }

    // MARK: Scoped values

    @Test func scopedValueDeclarationRegistersItsKey() {
        let found = facts(
            """
            container.registerScopedValue(Request.self)
            container.registerScopedValue(User.self, name: "caller", validationValue: { User(id: 0) })
            """
        ).registrations
        #expect(found.map(\.key.description) == ["Request", #"User (name: "caller")"#])
        #expect(found.map(\.kind) == [.service, .service])
    }

    /// The Request Scopes and Disposal article's registrations: a scoped factory requires the declared value.
    @Test func scopedFactoryRequiringADeclaredValueIsNoFinding() {
        let source = """
            let container = Container(label: "app")
            container.register(ConnectionPool.self) { _ in ConnectionPool() }.inObjectScope(.container)
            container.registerScopedValue(Request.self)            // provided by each scope
            container.register(UnitOfWork.self) { r in UnitOfWork(pool: try r.require(ConnectionPool.self)) }
                .inObjectScope(.scoped)
            container.register(TodoRepository.self) { r in
                TodoRepository(work: try r.require(UnitOfWork.self), request: try r.require(Request.self))
            }.inObjectScope(.scoped)
            """
        #expect(Check.run(source).isEmpty)
    }

    @Test func valueDeclaredUnderAnotherNameIsStillMissing() throws {
        let source = """
            container.registerScopedValue(User.self, name: "caller")
            container.register(Audit.self) { r in
                Audit(user: try r.require(User.self))
            }.inObjectScope(.scoped)
            """
        #expect(summary(source) == ["3 error notRegistered"])
        #expect(try #require(Check.run(source).first).message.contains(#"Registered for User: User (name: "caller")"#))
    }

    @Test func scopedValueDeclaredInAModuleIsVisibleOnlyThroughItsDependencies() {
        func source(dependencies: String) -> String {
            """
            struct RequestModule: AutoInitModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [] }
                func assemble(container: Container) { container.registerScopedValue(Request.self) }
            }
            struct TodoModule: AutoInitModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [\(dependencies)] }
                func assemble(container: Container) {
                    container.register(Todos.self) { r in Todos(request: try r.require(Request.self)) }
                }
            }
            """
        }
        #expect(summary(source(dependencies: "")) == ["8 error outsideDependencies"])
        #expect(Check.run(source(dependencies: "RequestModule.self")).isEmpty)
    }

    // MARK: Autoregistration

    @Test func autoregistrationOfEveryShapeRegistersItsKey() {
        let found = facts(
            """
            c.autoregister(Person.self, initializer: PetOwner.init(pet:vet:))
            c.autoregister(initializer: Walker.init(owner:))
            c.autoregister(Clock.self) { (zone: Zone) in SystemClock(zone: zone) }
            c.autoregister(initializer: { (zone: Zone) in SystemClock(zone: zone) })
            c.autoregister(Visit.self, name: "first", arguments: Animal.self, String.self, initializer: Visit.init)
            """
        ).registrations
        #expect(
            found.map(\.key.description) == [
                "Person", "Walker", "Clock", "SystemClock", #"Visit (name: "first", arguments: Animal, String)"#,
            ])
    }

    @Test func autoregisteredKeyWithOtherArgumentsIsStillMissing() {
        let source = """
            c.autoregister(Visit.self, argument: String.self, initializer: Visit.init)
            let visit = try c.require(Visit.self, argument: "Ada")
            let other = try c.require(Visit.self)
            """
        #expect(summary(source) == ["3 error notRegistered"])
    }

    // MARK: Collections

    @Test func collectionElementsSatisfyCollectionsButNotAPlainResolve() {
        let source = """
            c.registerIntoCollection(Handler.self, name: "console", priority: 10) { _ in ConsoleHandler() }
            c.register(Logger.self) { r in
                Logger(all: try r.resolveAll(Handler.self), named: try r.resolveAllNamed(Handler.self),
                       array: try r.require([Handler].self), dictionary: try r.require([String: Handler].self))
            }
            c.register(Audit.self) { r in Audit(handler: try r.require(Handler.self)) }
            """
        #expect(summary(source) == ["6 error notRegistered"])
    }

    // MARK: Decorators

    @Test func decoratorResolvesInItsOwnContext() throws {
        let source = """
            c.register(Handler.self) { _ in ConsoleHandler() }
            c.register(Clock.self) { _ in SystemClock() }
            c.decorate(Handler.self) { r, inner in Timestamped(inner, clock: try r.require(Clock.self)) }
            c.decorate(Handler.self) { r, inner in
                Audited(inner, trail: try r.require(AuditTrail.self))
            }
            """
        #expect(summary(source) == ["5 error notRegistered"])
        #expect(
            try #require(Check.run(source).first).message.contains("Resolution path: decorator of Handler → AuditTrail")
        )
    }

    // MARK: Aliases

    @Test func implementsAndForwardRegisterTheirTypes() {
        let source = """
            c.register(FileCache.self) { _ in FileCache() }.implements(Cache.self, Purgeable.self)
            let entry = c.register(SQLStore.self) { _ in SQLStore() }
            c.forward(Store.self, name: "sql", to: entry)
            c.register(Uses.self) { r in
                Uses(cache: try r.require(Cache.self), purge: try r.require(Purgeable.self),
                     store: try r.require(Store.self, name: "sql"), plain: try r.require(Store.self))
            }
            """
        #expect(summary(source) == ["6 error notRegistered"])
    }

    // MARK: Isolation and async

    @Test func mainActorAndAsyncFactoriesAreFactories() {
        let source = """
            c.register(FeedService.self) { _ in FeedService() }
            c.register(ProfileViewModel.self, mainActorFactory: { (r, userID: Int) in
                ProfileViewModel(userID: userID, feed: try r.require(FeedService.self))
            })
            c.register(Router.self, mainActorFactory: { r in
                Router(session: try r.require(Session.self))
            })
            c.register(Database.self) { r async throws in
                try await Database.open(pool: try await r.resolveAsync(Pool.self))
            }
            let model = try await c.resolveAsync(ProfileViewModel.self, argument: 7)
            """
        #expect(summary(source) == ["6 error notRegistered", "9 error notRegistered"])
        #expect(Check.run(source).first?.message.contains("Resolution path: Router → Session") == true)
    }

    // MARK: Scenes

    @Test func sceneRegistrationRegistersASceneModuleUnderANameTheSourceDoesNotSay() {
        let found = facts(
            """
            container.register(scene: HomeScene())
            container.register(scene: OrdersScene.self) { r in OrdersScene(pageSize: 20) }
            """
        ).registrations
        #expect(
            found.map(\.key.description) == [
                "AnySceneModule<_> (name: <not a literal>)", "AnySceneModule<_> (name: <not a literal>)",
            ])
    }

    @Test func sceneModulesResolvedByNameAreNotesAndSceneFactoriesAreChecked() {
        let source = """
            container.register(scene: HomeScene())
            let home = try container.require(AnySceneModule<TerminalScreen>.self, name: "home")
            container.register(scene: OrdersScene.self) { r in
                OrdersScene(pageSize: try r.require(Int.self, name: "pageSize"))
            }
            """
        #expect(summary(source) == ["2 note notChecked", "4 error notRegistered"])
    }

    // MARK: Properties

    @Test func propertiesAreNeitherRegistrationsNorResolves() {
        let source = """
            struct HTTPModule: AutoInitModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [] }
                func assemble(container: Container) {
                    container.applyPropertyLoader(EnvironmentPropertyLoader())
                    let port = container.property("http.port", as: Int.self)
                    container.register(HTTPServer.self) { r in
                        HTTPServer(host: try r.requireProperty("http.host"), port: r.property("http.port") ?? 80,
                                   settings: try r.decodeProperties(HTTPSettings.self, forKey: "http"))
                    }
                    container.register(Router.self) { r in Router(server: try r.require(HTTPServer.self)) }
                    container.register(Gateway.self) { r in Gateway(tls: try r.require(TLSConfig.self)) }
                }
            }
            """
        let found = facts(source)
        #expect(found.registrations.map(\.key.description) == ["HTTPServer", "Router", "Gateway"])
        #expect(found.resolves.map(\.key.description) == ["HTTPServer", "TLSConfig"])
        // Reading properties does not hand the container to unread code: the missing key is an error.
        #expect(summary(source) == ["11 error notRegistered"])
    }

    // MARK: Property wrappers

    @Test func propertyWrappersResolveTheirPropertysType() {
        let found = facts(
            """
            final class ProfileModel {
                @Injected var network: NetworkService
                @Injected(name: "avatars") private(set) var images: ImageLoader
                @OptionalInjected var analytics: Analytics?
                @LazyInjected(container: Container.main) var renderer: Renderer
                @MainActor @WeakLazyInjected var coordinator: Coordinator?
            }
            """
        ).resolves
        #expect(
            found.map(\.key.description) == [
                "NetworkService", #"ImageLoader (name: "avatars")"#, "Analytics", "Renderer", "Coordinator",
            ])
        #expect(found.map(\.required) == [true, true, false, true, false])
        #expect(found.map(\.context) == [.none, .none, .none, .none, .none])
    }

    @Test func anotherLibrarysWrapperOfTheSameNameIsNotRead() {
        let source = """
            final class ProfileModel {
                @Injected(\\.users) var users: UserService
                @LazyInjected(\\Container.renderer) var renderer: Renderer
            }
            """
        #expect(facts(source).resolves.isEmpty)
        #expect(facts("@Injected(name: \"x\", container: main) var users: UserService").resolves.count == 1)
    }

    @Test func injectedPropertyOfAMissingServiceIsAnErrorAndAnOptionalOneANote() {
        let source = """
            Container.main.register(NetworkService.self) { _ in NetworkService() }
            final class ProfileModel {
                @Injected var network: NetworkService
                @Injected var users: UserService
                @LazyInjected var renderer: Renderer
                @OptionalInjected var analytics: Analytics?
            }
            struct Box<Service> {
                @Injected var service: Service
            }
            """
        #expect(
            summary(source) == [
                "4 error notRegistered", "5 error notRegistered", "6 note notChecked", "9 note notChecked",
            ])
        #expect(
            Check.run(source).dropFirst(2).first?.message.contains(
                "Not an error because it is resolved with @OptionalInjected, which gives nil instead of failing")
                == true)
    }

    // MARK: Wrappers of a registration

    @Test func lazyProviderAndOptionalResolveTheWrappedKeyWithItsName() {
        let source = """
            c.register(Renderer.self, name: "pdf") { _ in PDFRenderer() }
            c.register(Report.self) { r in
                Report(pdf: try r.require(Lazy<Renderer>.self, name: "pdf"), pages: try r.require(Provider<Page>.self),
                       printer: try r.require(Printer?.self))
            }
            c.register(Viewer.self) { r in Viewer(renderer: try r.require(Lazy<Renderer>.self)) }
            """
        #expect(summary(source) == ["3 error notRegistered", "6 error notRegistered"])
    }

    // MARK: Keys the runtime answers

    @Test func graphIdentifierAndScopeNeedNoRegistration() {
        let source = """
            c.register(Editor.self) { r in
                Editor(graph: try r.require(GraphIdentifier.self), scope: try r.require(Scope.self))
            }
            c.register(Page.self) { r in Page(graph: try r.require(GraphIdentifier.self, name: "other")) }
            """
        #expect(summary(source) == ["4 error notRegistered"])
    }

    // MARK: Operators

    @Test func operatorsAreRequiresOfTheirKey() {
        let found = facts(
            """
            c.register(Person.self) { r in PetOwner(pet: r ~> (Animal.self, name: "mimi"), vet: r ~> Vet.self) }
            let visit = container ~> (Visit.self, argument: "Ada")
            let other = container ~> (Visit.self, name: "x", arguments: (cat as Animal, "Grace"))
            """
        ).resolves
        #expect(
            found.map(\.key.description) == [
                #"Animal (name: "mimi")"#, "Vet", "Visit (1 argument)", #"Visit (name: "x", 2 arguments)"#,
            ])
        #expect(found.map(\.required) == [true, true, true, true])
        #expect(found.map(\.context) == [.factory(0), .factory(0), .none, .none])
    }

    @Test func commaSeparatedOperatorArgumentsCountOneArgumentEach() {
        let found = facts(
            """
            let a = container ~> (Triple.self, arguments: "a", 1, true)
            let b = container ~> (Triple.self, name: "x", arguments: "b", 2)
            let c = container ~> (Triple.self, arguments: ("c", 3), true)
            let d = container ~> (Triple.self, arguments: ("d", 4))
            """
        ).resolves
        #expect(
            found.map(\.key.description) == [
                "Triple (3 arguments)", #"Triple (name: "x", 2 arguments)"#, "Triple (2 arguments)",
                "Triple (2 arguments)",
            ])
    }

    @Test func operatorOfAMissingKeyIsAnErrorAndThePostfixFormANote() {
        let source = """
            c.register(Vet.self) { _ in Vet() }
            c.register(Person.self) { r in
                PetOwner(pet: r ~> (Animal.self, name: "mimi"), vet: r~>)
            }
            let vet = container ~> Vet.self
            """
        #expect(summary(source) == ["3 error notRegistered", "3 note notChecked"])
    }

    // MARK: Injection into objects made elsewhere

    @Test func injectionRegistersItsObjectWithTheTargetAsArgument() {
        let found = facts(
            "c.registerInjection(for: ProfileViewController.self) { r, vc in vc.feed = try r.require(Feed.self) }")
        #expect(
            found.registrations.map(\.key.description) == [
                "ProfileViewController (arguments: _InjectionTarget<ProfileViewController>)"
            ])
        #expect(found.resolves.first?.context == .initCompleted(0))
    }

    @Test func injectionResolvesInItsModulesScope() {
        func source(dependencies: String) -> String {
            """
            struct FeedModule: AutoInitModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [] }
                func assemble(container: Container) { container.register(FeedService.self) { _ in FeedService() } }
            }
            struct ProfileModule: AutoInitModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [\(dependencies)] }
                func assemble(container: Container) {
                    container.registerInjection(for: ProfileViewController.self) { r, controller in
                        controller.feed = try r.require(FeedService.self)
                    }
                }
            }
            """
        }
        #expect(summary(source(dependencies: "")) == ["9 error outsideDependencies"])
        #expect(Check.run(source(dependencies: "FeedModule.self")).isEmpty)
    }
}
