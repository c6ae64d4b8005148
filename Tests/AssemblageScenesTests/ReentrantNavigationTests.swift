import Assemblage
import AssemblageScenes
import Foundation
import Testing

// Navigations asked for while another is under way (from a scene's build, from the host, from a completion)
// are queued and run after it, by a loop: the coordinator and the host never disagree, and no number of
// queued navigations recurses.

@MainActor @Suite struct ReentrantNavigationTests {
    /// A coordinator over plain scenes and a headless host, started on "home".
    private func started(immediate: Bool = true, extra register: (Container) -> Void = { _ in })
        throws -> (TransitionCoordinator, HeadlessNavigationHost<TestView>)
    {
        let container = Container()
        registerPlainScenes(["home", "orders", "help", "about"], in: container)
        register(container)
        let coordinator = TransitionCoordinator(resolver: container)
        container.register(TransitionCoordinator.self, name: TransitionCoordinator.moduleName) { _ in coordinator }
        let host = HeadlessNavigationHost<TestView>(completesTransitionsImmediately: immediate)
        try coordinator.start(host: host, sceneName: "home")
        host.completePendingTransitions()
        return (coordinator, host)
    }

    private func shown(_ host: HeadlessNavigationHost<TestView>) -> [[String]] {
        host.layers.map { $0.views.map(\.sceneName) }
    }

    /// Registers "redirect", whose build asks for `navigation` (and records what it asked for).
    private func registerRedirect(
        _ container: Container, to navigation: NavigationType,
        throwing: Bool = false, log: Log
    ) {
        container.register(AnySceneModule<TestView>.self, name: "redirect") { _ in
            AnySceneModule(moduleName: "redirect") { resolver, parameters in
                let coordinator = try resolver.transitionCoordinator()
                coordinator.performNavigation(navigation, animated: false) { result in
                    log.lines.append("\(navigation): \(result.succeeded ? "ok" : "failed")")
                }
                log.lines.append("built redirect; navigating: \(coordinator.isNavigating)")
                if throwing { throw SceneFailure() }
                return TestView(sceneName: "redirect", parameters: parameters)
            }
        }
    }

    @Test func tenThousandQueuedTransitionsFinishWithoutRecursion() throws {
        let (coordinator, host) = try started(immediate: false)
        var finished = 0
        for _ in 0..<10_000 {
            coordinator.performNavigation(.push(sceneName: "orders"), animated: false) { result in
                if result.succeeded { finished += 1 }
            }
        }
        #expect(host.transitions.count == 2)  // setRoot, then the first push; the rest wait
        host.completesTransitionsImmediately = true
        host.completePendingTransitions()  // each completion sends the next, which finishes at once

        #expect(finished == 10_000)
        #expect(!coordinator.isNavigating)
        #expect(coordinator.state.layers.first?.entries.count == 10_001)
        #expect(host.layers.first?.views.count == 10_001)
        #expect(host.transitions.count == 10_001)
    }

    @Test func tenThousandNavigationsAskedForFromCompletionsRunIteratively() throws {
        let (coordinator, host) = try started()
        var remaining = 10_000
        func next() {
            guard remaining > 0 else { return }
            remaining -= 1
            coordinator.performNavigation(.push(sceneName: "help"), animated: false) { _ in next() }
        }
        next()
        #expect(remaining == 0)
        #expect(coordinator.state.layers.first?.entries.count == 10_001)
        #expect(shown(host) == coordinator.state.sceneNames)
    }

    @Test(arguments: [true, false])
    func navigationAskedForDuringBuildRunsAfterIt(immediate: Bool) throws {
        let log = Log()
        let (coordinator, host) = try started(immediate: immediate) { container in
            registerRedirect(container, to: .push(sceneName: "help"), log: log)
        }
        var pushed: Result<Void, NavigationError>?
        coordinator.performNavigation(.push(sceneName: "redirect"), animated: false) { pushed = $0 }
        host.completePendingTransitions()  // redirect finishes; help is sent
        host.completePendingTransitions()

        #expect(pushed?.succeeded == true)
        #expect(log.lines == ["built redirect; navigating: true", "push(\"help\"): ok"])
        #expect(coordinator.state.sceneNames == [["home", "redirect", "help"]])
        #expect(shown(host) == coordinator.state.sceneNames)
        #expect(host.transitions.map(\.name) == ["setRoot", "push", "push"])
        #expect(!coordinator.isNavigating)
    }

    @Test func navigationAskedForWhileTheStartingSceneIsBuiltRunsOnceItIsShown() throws {
        let log = Log()
        let container = Container()
        registerPlainScenes(["help"], in: container)
        registerRedirect(container, to: .presentAndPush(sceneName: "help"), log: log)
        let coordinator = TransitionCoordinator(resolver: container)
        container.register(TransitionCoordinator.self, name: TransitionCoordinator.moduleName) { _ in coordinator }
        let host = HeadlessNavigationHost<TestView>()

        try coordinator.start(host: host, sceneName: "redirect")

        #expect(coordinator.state.sceneNames == [["redirect"], ["help"]])
        #expect(shown(host) == coordinator.state.sceneNames)
        #expect(host.transitions.map(\.name) == ["setRoot", "presentInNavigationStack"])
        #expect(log.lines == ["built redirect; navigating: true", "presentAndPush(\"help\"): ok"])
    }

    @Test func navigationQueuedByABuildThatFailsStillRunsAgainstTheUnchangedState() throws {
        let log = Log()
        let (coordinator, host) = try started { container in
            registerRedirect(container, to: .push(sceneName: "help"), throwing: true, log: log)
        }
        var pushed: Result<Void, NavigationError>?
        coordinator.performNavigation(.push(sceneName: "redirect"), animated: false) { pushed = $0 }

        guard case .failure(let error)? = pushed else {
            Issue.record("the push of a scene whose build throws succeeded")
            return
        }
        #expect(error.code == .sceneBuildFailed)
        #expect(error.sceneName == "redirect")
        #expect(coordinator.state.sceneNames == [["home", "help"]])
        #expect(shown(host) == coordinator.state.sceneNames)
        #expect(log.lines == ["built redirect; navigating: true", "push(\"help\"): ok"])
    }

    @Test func startAskedForDuringBuildIsRefusedAndChangesNothing() throws {
        let log = Log()
        let refusal = Captured<NavigationError>()
        let (coordinator, host) = try started { container in
            container.register(AnySceneModule<TestView>.self, name: "restarting") { _ in
                AnySceneModule(moduleName: "restarting") { resolver, parameters in
                    let coordinator = try resolver.transitionCoordinator()
                    let other = HeadlessNavigationHost<TestView>()
                    do {
                        try coordinator.start(host: other, sceneName: "about")
                    } catch let error as NavigationError {
                        refusal.value = error
                    }
                    log.lines.append("other host: \(other.transitions.count) transitions")
                    return TestView(sceneName: "restarting", parameters: parameters)
                }
            }
        }
        coordinator.performNavigation(.push(sceneName: "restarting"), animated: false)

        #expect(refusal.value?.code == .transitionInProgress)
        #expect(refusal.value?.sceneName == "about")
        #expect(log.lines == ["other host: 0 transitions"])
        #expect(coordinator.host === host)
        #expect(coordinator.startingSceneName == "home")
        #expect(coordinator.state.sceneNames == [["home", "restarting"]])
        #expect(shown(host) == coordinator.state.sceneNames)
    }

    @Test(arguments: [true, false])
    func navigationAskedForByTheHostDuringATransitionRunsAfterIt(immediate: Bool) throws {
        let container = Container()
        registerPlainScenes(["home", "orders", "help"], in: container)
        let coordinator = TransitionCoordinator(resolver: container)
        let host = InterruptingHost(completesImmediately: immediate)
        try coordinator.start(host: host, sceneName: "home")
        host.finishAll()
        // While it pushes "orders", the host (as a UIKit delegate callback might) asks for "help".
        host.onPush = { view in
            guard view.sceneName == "orders" else { return }
            coordinator.performNavigation(.push(sceneName: "help"), animated: false)
            host.sawNavigating = coordinator.isNavigating
        }

        coordinator.performNavigation(.push(sceneName: "orders"), animated: false)
        host.finishAll()

        #expect(host.sawNavigating)
        #expect(coordinator.state.sceneNames == [["home", "orders", "help"]])
        #expect(host.stack == ["home", "orders", "help"])
        #expect(!coordinator.isNavigating)
    }
}

/// Lines appended by scenes and completions, in order.
@MainActor
final class Log {
    var lines: [String] = []
}

/// A value set from inside a scene's build.
@MainActor
final class Captured<Value> {
    var value: Value?
}

/// A host that calls back into the coordinator from inside `perform`, before finishing.
@MainActor
final class InterruptingHost: NavigationHost {
    var stack: [String] = []
    var onPush: ((TestView) -> Void)?
    var sawNavigating = false
    private let completesImmediately: Bool
    private var waiting: [@MainActor @Sendable () -> Void] = []

    init(completesImmediately: Bool) { self.completesImmediately = completesImmediately }

    func perform(
        _ transition: HostTransition<TestView>, animated: Bool,
        completion: @escaping @MainActor @Sendable () -> Void
    ) {
        switch transition {
        case .setRoot(let view): stack = [view.sceneName]
        case .push(let view):
            stack.append(view.sceneName)
            onPush?(view)
        case .pop: stack.removeLast()
        case .present, .dismiss: break
        }
        if completesImmediately { completion() } else { waiting.append(completion) }
    }

    func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) { completion(false) }

    /// Finishes waiting transitions until none is left (each may send the next).
    func finishAll() {
        while !waiting.isEmpty { waiting.removeFirst()() }
    }
}
