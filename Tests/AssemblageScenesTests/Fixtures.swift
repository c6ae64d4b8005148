import Assemblage
import AssemblageScenes
import Foundation
import Testing

// Small fixtures: a view type for the headless host, scenes, and an app wired with a SceneAssembler.

/// What a test scene builds: which scene, with what, and what it did.
struct TestView {
    let sceneName: String
    let parameters: SceneParameters
    var detail = ""
    /// A button of the scene, if it has one.
    var action: (@MainActor () -> Void)?
}

/// A scene module defined by a closure that records its name and parameters.
func plainScene(_ name: String) -> AnySceneModule<TestView> {
    AnySceneModule(moduleName: name) { _, parameters in TestView(sceneName: name, parameters: parameters) }
}

/// Registers plain scenes under their names.
func registerPlainScenes(_ names: [String], in container: Container) {
    for name in names {
        container.register(AnySceneModule<TestView>.self, name: name) { _ in plainScene(name) }
    }
}

struct SceneFailure: Error, CustomStringConvertible {
    var description: String { "the database is locked" }
}

/// A scene whose build always throws.
struct BrokenScene: SceneModule {
    static let moduleName = "broken"
    @MainActor func build(resolver: Resolver, parameters: SceneParameters) throws -> TestView {
        throw SceneFailure()
    }
}

/// Counts how often it is called, from any thread.
final class Counter: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

/// A scene with typed parameters; counts its builds.
struct OrderScene: SceneModule {
    struct Parameters: Sendable { let orderID: Int }
    static let moduleName = "order"
    let builds: Counter

    @MainActor func build(resolver: Resolver, parameters: Parameters) throws -> TestView {
        builds.increment()
        return TestView(sceneName: Self.moduleName, parameters: [:], detail: "order \(parameters.orderID)")
    }
}

/// Whether the user has signed in; a main-actor service created by a nonisolated factory.
@MainActor
final class Session {
    var user: String?
    nonisolated init() {}
}

/// The home scene: its button opens the protected orders scene, asking for sign-in first when needed.
struct HomeScene: SceneModule {
    static let moduleName = "home"

    @MainActor func build(resolver: Resolver, parameters: SceneParameters) throws -> TestView {
        let coordinator = try resolver.transitionCoordinator()
        let session = try resolver.require(Session.self)
        return TestView(
            sceneName: Self.moduleName, parameters: parameters,
            action: {
                if session.user == nil {
                    coordinator.performNavigation(
                        .presentAndPush(
                            sceneName: SignInScene.moduleName,
                            parameters: ["next": "orders"]))
                } else {
                    coordinator.performNavigation(.push(sceneName: "orders"))
                }
            })
    }
}

/// Signs in, then leaves the modal and resumes where the user was going (its "next" parameter).
struct SignInScene: SceneModule {
    static let moduleName = "signIn"

    @MainActor func build(resolver: Resolver, parameters: SceneParameters) throws -> TestView {
        let next = try parameters.require("next", as: String.self)
        let coordinator = try resolver.transitionCoordinator()
        let session = try resolver.require(Session.self)
        return TestView(
            sceneName: Self.moduleName, parameters: parameters, detail: "then \(next)",
            action: {
                session.user = "Ada"
                coordinator.performNavigation(.back, animated: false)
                coordinator.performNavigation(.push(sceneName: next), animated: false)
            })
    }
}

/// A service with one instance per container, to see registrations renewed.
final class Catalog: Sendable {}

/// An app: home (starting), sign-in, a few plain scenes, a typed scene and a broken one.
@MainActor
final class TestApp {
    let assembler: SceneAssembler
    let host: HeadlessNavigationHost<TestView>
    let registrationRuns = Counter()
    let orderBuilds = Counter()

    var coordinator: TransitionCoordinator { assembler.coordinator }
    var state: NavigationState { assembler.coordinator.state }

    /// - Parameter configure: Whether to show the starting scene on the host now.
    init(configure: Bool = true, startingScene: String = HomeScene.moduleName) throws {
        let runs = registrationRuns
        let builds = orderBuilds
        assembler = SceneAssembler(startingScene: startingScene) { container in
            runs.increment()
            container.register(Session.self) { _ in Session() }.inObjectScope(.container)
            container.register(Catalog.self) { _ in Catalog() }.inObjectScope(.container)
            container.register(scene: HomeScene())
            container.register(scene: SignInScene())
            container.register(scene: BrokenScene())
            container.register(scene: OrderScene.self) { _ in OrderScene(builds: builds) }
            registerPlainScenes(["orders", "settings", "help", "about"], in: container)
        }
        host = HeadlessNavigationHost<TestView>()
        if configure { try assembler.configure(host: host) }
    }

    /// Performs a navigation and returns what its completion received (the headless host finishes at once).
    @discardableResult
    func go(_ navigation: NavigationType) -> Result<Void, NavigationError>? {
        var received: Result<Void, NavigationError>?
        coordinator.performNavigation(navigation, animated: false) { received = $0 }
        return received
    }

    /// The error a navigation failed with, or `nil` when it succeeded.
    func failure(of navigation: NavigationType) -> NavigationError? {
        guard case .failure(let error)? = go(navigation) else { return nil }
        return error
    }

    /// Runs the button of the view on top.
    func tapButton() throws {
        let action = try #require(host.topView?.action, "the top view has no button")
        action()
    }

    /// The names of the transitions the host performed.
    var transitionNames: [String] { host.transitions.map(\.name) }
    /// What the host would show, as scene names per layer.
    var shownSceneNames: [[String]] { host.layers.map { $0.views.map(\.sceneName) } }
}

extension Result where Success == Void {
    var succeeded: Bool { if case .success = self { true } else { false } }
}
