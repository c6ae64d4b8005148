import Assemblage
import AssemblageScenes
import Foundation
import Testing

@MainActor @Suite struct NavigationFlowTests {
    @Test func signInIsInsertedBeforeProtectedSceneThenResumed() throws {
        let app = try TestApp()

        // Signed out: the protected scene is not shown; sign-in is presented, told where to go next.
        try app.tapButton()
        #expect(app.state.sceneNames == [["home"], ["signIn"]])
        #expect(app.host.topView?.detail == "then orders")

        // Signing in leaves the modal and resumes with the protected scene.
        try app.tapButton()
        #expect(app.state.sceneNames == [["home", "orders"]])
        #expect(app.transitionNames == ["setRoot", "presentInNavigationStack", "dismiss", "push"])
        #expect(app.shownSceneNames == app.state.sceneNames)

        // Signed in: home goes straight to the protected scene.
        app.go(.back)
        try app.tapButton()
        #expect(app.state.sceneNames == [["home", "orders"]])
        #expect(app.transitionNames.suffix(2) == ["pop", "push"])
    }

    @Test func signInResumesWhenHostAnimates() throws {
        let app = try TestApp()
        app.host.completesTransitionsImmediately = false
        app.host.completePendingTransitions()  // nothing waits yet

        try app.tapButton()  // presents sign-in (animating)
        app.host.completePendingTransitions()
        try app.tapButton()  // dismiss starts; the push waits for it
        #expect(app.transitionNames.last == "dismiss")
        #expect(app.state.sceneNames == [["home"]])

        app.host.completePendingTransitions()  // dismiss finishes; the push is sent
        #expect(app.transitionNames.last == "push")
        app.host.completePendingTransitions()
        #expect(app.state.sceneNames == [["home", "orders"]])
        #expect(!app.coordinator.isNavigating)
    }

    @Test func navigationsWaitForTheRunningTransition() throws {
        let app = try TestApp()
        app.host.completesTransitionsImmediately = false
        var finished: [String] = []
        app.coordinator.performNavigation(.push(sceneName: "orders")) { _ in finished.append("orders") }
        app.coordinator.performNavigation(.push(sceneName: "help")) { _ in finished.append("help") }

        #expect(app.transitionNames == ["setRoot", "push"])  // only the first was sent
        #expect(app.coordinator.isNavigating)
        #expect(finished.isEmpty)

        app.host.completePendingTransitions()
        #expect(finished == ["orders"])
        #expect(app.transitionNames == ["setRoot", "push", "push"])

        app.host.completePendingTransitions()
        #expect(finished == ["orders", "help"])
        #expect(app.state.sceneNames == [["home", "orders", "help"]])
        #expect(!app.coordinator.isNavigating)
    }

    @Test func queuedNavigationThatFailsDoesNotBlockTheNextOne() throws {
        let app = try TestApp()
        app.host.completesTransitionsImmediately = false
        var results: [String] = []
        for name in ["orders", "nowhere", "help"] {
            app.coordinator.performNavigation(.push(sceneName: name)) { result in
                results.append(result.succeeded ? name : "\(name) failed")
            }
        }
        app.host.completePendingTransitions()
        app.host.completePendingTransitions()
        #expect(results == ["orders", "nowhere failed", "help"])
        #expect(app.state.sceneNames == [["home", "orders", "help"]])
    }

    @Test func completionCanAskForTheNextNavigation() throws {
        let app = try TestApp()
        var last: Result<Void, NavigationError>?
        app.coordinator.performNavigation(.presentAndPush(sceneName: "help")) { _ in
            app.coordinator.performNavigation(.push(sceneName: "about")) { last = $0 }
        }
        #expect(last?.succeeded == true)
        #expect(app.state.sceneNames == [["home"], ["help", "about"]])
    }

    @Test func startWhileNavigatingFails() throws {
        let app = try TestApp()
        app.host.completesTransitionsImmediately = false
        app.go(.push(sceneName: "orders"))
        #expect {
            try app.coordinator.start(host: app.host, sceneName: "home")
        } throws: { error in
            (error as? NavigationError)?.code == .transitionInProgress
        }
        app.host.completePendingTransitions()
        #expect(app.state.sceneNames == [["home", "orders"]])
    }

    @Test func asyncNavigateReturnsOnceHostHasFinished() async throws {
        let app = try TestApp()
        try await app.coordinator.navigate(.presentAndPush(sceneName: "help"))
        try await app.coordinator.navigate(.push(sceneName: "about"))
        try await app.coordinator.navigate(.back)
        #expect(app.state.sceneNames == [["home"], ["help"]])
        #expect(!app.coordinator.isNavigating)
    }

    @Test func popAndDismissTheUserMadeUpdateTheState() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        app.go(.presentAndPush(sceneName: "help"))
        app.go(.push(sceneName: "about"))

        app.host.simulateUserPop()
        #expect(app.state.sceneNames == [["home", "orders"], ["help"]])
        app.host.simulateUserDismiss()
        #expect(app.state.sceneNames == [["home", "orders"]])
        // The coordinator goes on from there.
        #expect(app.go(.back)?.succeeded == true)
        #expect(app.state.sceneNames == [["home"]])
        #expect(app.shownSceneNames == app.state.sceneNames)
    }

    @Test func reportsThatDoNotFitTheStateAreIgnored() throws {
        let app = try TestApp()
        app.go(.push(sceneName: "orders"))
        app.coordinator.hostDidPop(count: 5)  // only one scene above the stack's first
        #expect(app.state.sceneNames == [["home"]])
        app.coordinator.hostDidDismiss()  // no modal
        #expect(app.state.sceneNames == [["home"]])
    }

    @Test func secondCompletionFromFaultyHostIsIgnored() throws {
        let container = Container()
        registerPlainScenes(["home", "orders", "help"], in: container)
        let coordinator = TransitionCoordinator(resolver: container)
        let host = TwiceCompletingHost()
        try coordinator.start(host: host, sceneName: "home")
        var calls = 0
        coordinator.performNavigation(.push(sceneName: "orders")) { _ in calls += 1 }
        #expect(calls == 1)
        #expect(coordinator.state.sceneNames == [["home", "orders"]])
        #expect(host.performed == 2)
    }

    @Test func coordinatorWorksWithoutAssembler() throws {
        let container = Container()
        registerPlainScenes(["home", "orders"], in: container)
        let coordinator = TransitionCoordinator(resolver: container)
        let host = HeadlessNavigationHost<TestView>()
        try coordinator.start(host: host, sceneName: "home", parameters: ["greeting": "hi"])
        coordinator.performNavigation(.push(sceneName: "orders"))
        coordinator.performNavigation(.reset)  // no assembler: just the starting scene again
        #expect(coordinator.state.sceneNames == [["home"]])
        #expect(host.topView?.parameters.value("greeting", as: String.self) == "hi")
    }
}

/// A host that calls each completion twice.
@MainActor
final class TwiceCompletingHost: NavigationHost {
    var performed = 0
    func perform(
        _ transition: HostTransition<TestView>, animated: Bool,
        completion: @escaping @MainActor @Sendable () -> Void
    ) {
        performed += 1
        completion()
        completion()
    }

    func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
        completion(true)
    }
}
