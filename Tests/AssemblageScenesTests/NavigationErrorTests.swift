import Assemblage
import AssemblageScenes
import Foundation
import Testing

@MainActor @Suite struct NavigationErrorTests {
    /// Every navigation that shows a scene, towards `name`.
    static let showing: [@Sendable (String) -> NavigationType] = [
        { .push(sceneName: $0) }, { .present(sceneName: $0) },
        { .presentAndPush(sceneName: $0) }, { .setRoot(sceneName: $0) },
    ]

    @Test(arguments: 0..<4)
    func unknownSceneFailsAndChangesNothing(kind: Int) throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        let (before, transitions) = (app.state, app.transitionNames)

        let navigation = Self.showing[kind]("nowhere")
        let error = try #require(app.failure(of: navigation))
        #expect(error.code == .unknownScene)
        #expect(error.sceneName == "nowhere")
        #expect(error.registeredScenes.contains("home") && error.registeredScenes.contains("orders"))
        #expect(error.navigation?.sceneName == "nowhere")
        #expect(error.underlying is ResolutionError)
        #expect(app.state == before)
        #expect(app.transitionNames == transitions)
    }

    @Test(arguments: 0..<4)
    func sceneWhoseBuildThrowsFailsAndChangesNothing(kind: Int) throws {
        let app = try TestApp()
        let (before, transitions) = (app.state, app.transitionNames)

        let error = try #require(app.failure(of: Self.showing[kind](BrokenScene.moduleName)))
        #expect(error.code == .sceneBuildFailed)
        #expect(error.sceneName == "broken")
        #expect(error.underlying is SceneFailure)
        #expect(error.description.contains("Building scene \"broken\" failed: the database is locked"))
        #expect(app.state == before)
        #expect(app.transitionNames == transitions)
    }

    @Test func backWithSingleSceneOnScreenFails() throws {
        let app = try TestApp()
        let before = app.state
        let error = try #require(app.failure(of: .back))
        #expect(error.code == .nothingToGoBack)
        #expect(error.sceneName == "home")
        #expect(error.description.hasPrefix("Nothing to go back to: \"home\" is the only scene on screen."))
        #expect(app.state == before)
        #expect(app.transitionNames == ["setRoot"])
    }

    @Test func pushOntoModalWithoutStackFails() throws {
        let app = try TestApp()
        app.go(.present(sceneName: "settings"))
        let (before, transitions) = (app.state, app.transitionNames)

        let error = try #require(app.failure(of: .push(sceneName: "orders")))
        #expect(error.code == .noNavigationStack)
        #expect(error.sceneName == "orders")
        #expect(error.description.contains("the top scene, \"settings\", was presented without a navigation stack"))
        #expect(app.state == before)
        #expect(app.transitionNames == transitions)
    }

    @Test func typedSceneRejectsParametersOfAnotherTypeBeforeBuilding() throws {
        let app = try TestApp()
        let before = app.state
        let error = try #require(app.failure(of: .push(sceneName: "order", parameters: ["orderID": 7])))
        #expect(error.code == .invalidParameters)
        #expect(error.sceneName == "order")
        #expect(error.description.contains("it takes Parameters and the navigation passed keyed values [orderID]"))
        #expect(app.orderBuilds.count == 0)
        #expect(app.state == before)
    }

    @Test func missingKeyedParameterFailsNamingTheKey() throws {
        let app = try TestApp()
        let before = app.state
        let error = try #require(app.failure(of: .presentAndPush(sceneName: "signIn")))
        #expect(error.code == .invalidParameters)
        #expect(error.sceneName == "signIn")
        #expect(error.parameterKey == "next")
        #expect(error.description.contains("parameter \"next\" is missing (expected String)"))
        #expect(app.state == before)
        #expect(app.transitionNames == ["setRoot"])
    }

    @Test func navigationBeforeConfigureFails() throws {
        let app = try TestApp(configure: false)
        for navigation in [
            NavigationType.push(sceneName: "orders"), .back, .reset,
            .openURL(try #require(URL(string: "https://example.com"))),
        ] {
            let error = try #require(app.failure(of: navigation))
            #expect(error.code == .notStarted)
        }
        #expect(app.state.layers.isEmpty)
        #expect(app.host.transitions.isEmpty)
        #expect(app.host.openedURLs.isEmpty)
    }

    @Test func unknownStartingSceneFailsConfigureAndShowsNothing() throws {
        let app = try TestApp(configure: false, startingScene: "nowhere")
        #expect {
            try app.assembler.configure(host: app.host)
        } throws: { error in
            (error as? NavigationError)?.code == .unknownScene && (error as? NavigationError)?.sceneName == "nowhere"
        }
        #expect(app.state.layers.isEmpty)
        #expect(app.host.transitions.isEmpty)
        #expect(app.coordinator.host == nil)
        #expect(app.coordinator.startingSceneName == nil)
    }

    @Test func failedStartKeepsPreviousHostStateAndStartingScene() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        let before = app.state
        let other = HeadlessNavigationHost<TestView>()

        #expect(throws: NavigationError.self) {
            try app.coordinator.start(host: other, sceneName: BrokenScene.moduleName)
        }
        #expect(app.coordinator.host === app.host)
        #expect(app.state == before)
        #expect(app.coordinator.startingSceneName == "home")
        #expect(other.transitions.isEmpty)
        // Still driving the first host.
        #expect(app.go(.back)?.succeeded == true)
        #expect(app.host.topView?.sceneName == "home")
    }

    @Test func reconfigureBeforeConfigureFailsWithoutRegisteringAgain() throws {
        let app = try TestApp(configure: false)
        #expect {
            try app.assembler.reconfigure()
        } throws: { error in
            (error as? NavigationError)?.code == .notStarted
        }
        #expect(app.registrationRuns.count == 1)
    }

    @Test func resetFailsAndKeepsStateWhenStartingSceneCannotBeBuilt() throws {
        // Registrations that drop the starting scene when run again.
        let runs = Counter()
        let assembler = SceneAssembler(startingScene: "home") { container in
            runs.increment()
            registerPlainScenes(runs.count == 1 ? ["home", "orders"] : ["orders"], in: container)
        }
        let host = HeadlessNavigationHost<TestView>()
        try assembler.configure(host: host)
        assembler.coordinator.performNavigation(.push(sceneName: "orders"), animated: false)
        let before = assembler.coordinator.state

        var received: Result<Void, NavigationError>?
        assembler.coordinator.performNavigation(.reset) { received = $0 }
        guard case .failure(let error)? = received else {
            Issue.record("reset should have failed")
            return
        }
        #expect(error.code == .unknownScene)
        #expect(error.sceneName == "home")
        #expect(runs.count == 2)
        #expect(assembler.coordinator.state == before)
        #expect(host.transitions.map(\.name) == ["setRoot", "push"])
    }

    @Test func urlTheHostCannotOpenFails() throws {
        let app = try TestApp()
        app.host.opensURLs = false
        let url = try #require(URL(string: "mailto:help@example.com"))
        let error = try #require(app.failure(of: .openURL(url)))
        #expect(error.code == .urlNotOpened)
        #expect(error.description.contains("The host did not open mailto:help@example.com."))
        #expect(app.state.sceneNames == [["home"]])
    }

    @Test func asyncNavigateThrowsTheTypedError() async throws {
        let app = try TestApp()
        do {
            try await app.coordinator.navigate(.push(sceneName: "nowhere"))
            Issue.record("navigate should have thrown")
        } catch {
            // `error` is a NavigationError: navigate throws only that type.
            #expect(error.code == .unknownScene)
            #expect(error.sceneName == "nowhere")
        }
        #expect(app.state.sceneNames == [["home"]])
    }

    @Test func unknownSceneDescriptionListsRegisteredScenes() throws {
        let app = try TestApp()
        let error = try #require(app.failure(of: .push(sceneName: "ordres")))
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.first == "No scene named \"ordres\" is registered for TestView views.")
        #expect(lines.contains("  Registered scenes: about, broken, help, home, order, orders, settings, signIn"))
        #expect(lines.last == "  Navigation: push(\"ordres\")")
    }

    @Test func printsThroughTheSharedErrorShape() throws {
        let app = try TestApp()
        let error = try #require(app.failure(of: .push(sceneName: "ordres")))
        #expect(
            error.description == """
                No scene named "ordres" is registered for TestView views.
                  Registered scenes: about, broken, help, home, order, orders, settings, signIn
                  Navigation: push("ordres")
                """)
        #expect(error.summary == "No scene named \"ordres\" is registered for TestView views.")
        #expect(error.details.map(\.label) == ["Registered scenes", "Navigation"])
        #expect(error.debugDescription == "NavigationError.unknownScene: \(error.description)")
        #expect((error as any Error).localizedDescription == error.description)

        let broken = try #require(app.failure(of: .push(sceneName: BrokenScene.moduleName)))
        #expect(
            broken.description == """
                Building scene "broken" failed: the database is locked
                  Navigation: push("broken")
                """)
    }
}
