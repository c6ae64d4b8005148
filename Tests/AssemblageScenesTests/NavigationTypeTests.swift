import Assemblage
import AssemblageScenes
import Foundation
import Testing

@MainActor @Suite struct NavigationTypeTests {
    @Test func configureShowsStartingSceneAsRootNavigationStack() throws {
        let app = try TestApp()
        #expect(app.state.sceneNames == [["home"]])
        #expect(app.state.root?.isNavigationStack == true)
        #expect(app.transitionNames == ["setRoot"])
        #expect(app.host.topView?.sceneName == "home")
        #expect(app.coordinator.startingSceneName == "home")
    }

    @Test func pushAddsSceneToTopStack() throws {
        let app = try TestApp()
        #expect(app.go(.push(sceneName: "orders"))?.succeeded == true)
        #expect(app.state.sceneNames == [["home", "orders"]])
        #expect(app.transitionNames == ["setRoot", "push"])
        #expect(app.shownSceneNames == app.state.sceneNames)
    }

    @Test func presentShowsSingleSceneModalWithoutStack() throws {
        let app = try TestApp()
        #expect(app.go(.present(sceneName: "settings"))?.succeeded == true)
        #expect(app.state.sceneNames == [["home"], ["settings"]])
        #expect(app.state.modals.first?.isNavigationStack == false)
        #expect(app.transitionNames == ["setRoot", "present"])
        #expect(app.shownSceneNames == app.state.sceneNames)
    }

    @Test func presentAndPushShowsModalNavigationStackThatTakesPushes() throws {
        let app = try TestApp()
        #expect(app.go(.presentAndPush(sceneName: "help"))?.succeeded == true)
        #expect(app.go(.push(sceneName: "about"))?.succeeded == true)
        #expect(app.state.sceneNames == [["home"], ["help", "about"]])
        #expect(app.state.modals.first?.isNavigationStack == true)
        #expect(app.transitionNames == ["setRoot", "presentInNavigationStack", "push"])
        #expect(app.shownSceneNames == app.state.sceneNames)
    }

    @Test func backPopsTopStack() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        #expect(app.go(.back)?.succeeded == true)
        #expect(app.state.sceneNames == [["home"]])
        #expect(app.transitionNames.last == "pop")
        #expect(app.host.topView?.sceneName == "home")
    }

    @Test func backDismissesModalWhenNothingIsLeftToPop() throws {
        let app = try TestApp()
        app.go(.present(sceneName: "settings"))
        #expect(app.go(.back)?.succeeded == true)
        #expect(app.state.sceneNames == [["home"]])
        #expect(app.transitionNames.last == "dismiss")
    }

    @Test func backPopsInsideModalStackBeforeDismissingIt() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        app.go(.presentAndPush(sceneName: "help"))
        app.go(.push(sceneName: "about"))
        app.go(.back)
        #expect(app.state.sceneNames == [["home", "orders"], ["help"]])
        app.go(.back)
        #expect(app.state.sceneNames == [["home", "orders"]])
        #expect(Array(app.transitionNames.suffix(2)) == ["pop", "dismiss"])
        #expect(app.shownSceneNames == app.state.sceneNames)
    }

    @Test func setRootReplacesStacksAndModals() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        app.go(.presentAndPush(sceneName: "help"))
        #expect(app.go(.setRoot(sceneName: "about"))?.succeeded == true)
        #expect(app.state.sceneNames == [["about"]])
        #expect(app.transitionNames.last == "setRoot")
        #expect(app.shownSceneNames == [["about"]])
        // The starting scene is still the one `.reset` returns to.
        #expect(app.coordinator.startingSceneName == "home")
    }

    @Test func resetRegistersAgainAndReturnsToStartingScene() throws {
        let app = try TestApp()
        let catalog = try app.assembler.resolver.require(Catalog.self)
        app.go(.push(sceneName: "orders"))
        app.go(.present(sceneName: "settings"))
        #expect(app.registrationRuns.count == 1)

        #expect(app.go(.reset)?.succeeded == true)
        #expect(app.registrationRuns.count == 2)
        #expect(app.state.sceneNames == [["home"]])
        #expect(app.transitionNames.last == "setRoot")
        // Registrations were made again: container-scoped instances are new; the coordinator is the same.
        #expect(try app.assembler.resolver.require(Catalog.self) !== catalog)
        #expect(try app.assembler.resolver.transitionCoordinator() === app.coordinator)
    }

    @Test func reconfigureRegistersAgainAndShowsStartingScene() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        try app.assembler.reconfigure()
        #expect(app.registrationRuns.count == 2)
        #expect(app.state.sceneNames == [["home"]])
        #expect(app.transitionNames == ["setRoot", "push", "setRoot"])
    }

    @Test func openURLHandsURLToHostAndKeepsState() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        let before = app.state
        let url = try #require(URL(string: "https://example.com/help"))
        #expect(app.go(.openURL(url))?.succeeded == true)
        #expect(app.host.openedURLs == [url])
        #expect(app.state == before)
        #expect(app.transitionNames == ["setRoot", "push"])
    }

    @Test func keyedParametersReachTheScene() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders", parameters: ["filter": "open", "page": 2]))
        let view = try #require(app.host.topView)
        #expect(view.parameters.value("filter", as: String.self) == "open")
        #expect(view.parameters.value("page", as: Int.self) == 2)
        #expect(app.state.top?.parameters.value("page", as: Int.self) == 2)
    }

    @Test func typedParametersReachTypedScene() throws {
        let app = try TestApp()
        #expect(app.go(.push(OrderScene.self, parameters: .init(orderID: 7)))?.succeeded == true)
        #expect(app.host.topView?.detail == "order 7")
        #expect(app.state.top?.sceneName == "order")
        #expect(app.orderBuilds.count == 1)
    }

    @Test func everyBuildGetsItsOwnEntry() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        app.go(.push(sceneName: "orders"))
        let ids = app.state.layers[0].entries.map(\.id)
        #expect(Set(ids).count == 3)
        #expect(app.state.sceneNames == [["home", "orders", "orders"]])
    }
}
