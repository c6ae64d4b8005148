import Assemblage
import AssemblageScenes
import Testing

/// Applies the app's scenes; counts its `loaded` calls.
struct SceneAssembly: Assembly {
    let loads: Counter
    func assemble(container: Container) {
        registerPlainScenes(["home", "orders"], in: container)
    }
    func loaded(resolver: Resolver) { loads.increment() }
}

@MainActor @Suite struct SceneAssemblerTests {
    @Test func registersCoordinatorUnderItsModuleName() throws {
        let app = try TestApp()
        #expect(try app.assembler.resolver.transitionCoordinator() === app.coordinator)
        let named = app.assembler.resolver.resolve(TransitionCoordinator.self, name: TransitionCoordinator.moduleName)
        #expect(named === app.coordinator)
        #expect(TransitionCoordinator.moduleName == "TransitionCoordinator")
    }

    @Test func scenesResolveTheirDependenciesAndTheCoordinator() throws {
        let app = try TestApp()
        // HomeScene resolved the coordinator and the session while building; its button uses both.
        try app.tapButton()
        #expect(app.state.top?.sceneName == "signIn")
    }

    @Test func assembliesAreAppliedAgainOnReconfigure() throws {
        let loads = Counter()
        let assembler = SceneAssembler(startingScene: "home", assemblies: [SceneAssembly(loads: loads)])
        #expect(loads.count == 1)
        let host = HeadlessNavigationHost<TestView>()
        try assembler.configure(host: host)
        assembler.coordinator.performNavigation(.push(sceneName: "orders"))
        try assembler.reconfigure()
        #expect(loads.count == 2)
        #expect(assembler.coordinator.state.sceneNames == [["home"]])
        #expect(try assembler.resolver.transitionCoordinator() === assembler.coordinator)
    }

    @Test func startingSceneIsBuiltWithTheGivenParameters() throws {
        let container = Container()
        let assembler = SceneAssembler(startingScene: "home", parameters: ["user": "Ada"], container: container) {
            registerPlainScenes(["home"], in: $0)
        }
        let host = HeadlessNavigationHost<TestView>()
        try assembler.configure(host: host)
        #expect(host.topView?.parameters.value("user", as: String.self) == "Ada")
        #expect((assembler.resolver as? Container) === container)
    }

    @Test func containerHoldsTheCoordinatorWeakly() throws {
        var assembler: SceneAssembler? = SceneAssembler(startingScene: "home") { registerPlainScenes(["home"], in: $0) }
        let resolver = try #require(assembler?.resolver)
        weak let coordinator = assembler?.coordinator
        #expect(coordinator != nil)
        assembler = nil
        #expect(coordinator == nil)
        #expect {
            try resolver.transitionCoordinator()
        } throws: { error in
            ((error as? ResolutionError)?.underlying as? NavigationError)?.code == .coordinatorUnavailable
        }
    }

    @Test func registerSceneUsesModuleNameAndViewType() throws {
        let container = Container()
        container.register(scene: HomeScene())
        container.register(scene: OrderScene.self) { _ in OrderScene(builds: Counter()) }
        #expect(container.resolve(AnySceneModule<TestView>.self, name: "home")?.moduleName == "home")
        let order = try #require(container.resolve(AnySceneModule<TestView>.self, name: "order"))
        #expect(order.parametersTypeName == "Parameters")
        // A scene is found only for the view type it builds.
        #expect(container.resolve(AnySceneModule<String>.self, name: "home") == nil)
    }

    @Test func moduleNameDefaultsToTheTypeName() {
        struct AboutScene: SceneModule {
            @MainActor func build(resolver: Resolver, parameters: SceneParameters) throws -> String { "about" }
        }
        #expect(AboutScene.moduleName == "AboutScene")
    }

    @Test func sceneBuildsWithoutParameters() throws {
        struct AboutScene: SceneModule {
            @MainActor func build(resolver: Resolver, parameters: SceneParameters) throws -> String {
                parameters.isEmpty ? "about" : "unexpected"
            }
        }
        #expect(try AboutScene().build(resolver: Container()) == "about")
        #expect(try AnySceneModule(AboutScene()).build(resolver: Container()) == "about")
    }
}
