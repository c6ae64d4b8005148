public import Assemblage

/// Sets an app's scenes up: registers everything, creates the ``TransitionCoordinator`` and shows the
/// starting scene on a host.
///
/// Give it the starting scene's name and the app's registrations (a closure, or assemblies); when the
/// UI is ready, hand it the host:
///
/// ```swift
/// let assembler = SceneAssembler(startingScene: HomeScene.moduleName) { container in
///     container.register(OrderService.self) { _ in RemoteOrderService() }.inObjectScope(.container)
///     container.register(scene: HomeScene())
///     container.register(scene: OrdersScene())
/// }
///
/// // UIKit, in scene(_:willConnectTo:options:):
/// try assembler.configure(host: UIKitNavigationHost(window: window))
/// ```
///
/// After your registrations, the assembler registers its coordinator as `TransitionCoordinator` under
/// ``TransitionCoordinator/moduleName``, so scenes resolve it with `try resolver.transitionCoordinator()`.
/// The container holds the coordinator weakly: keep the assembler alive as long as the app runs.
///
/// ## Starting over
/// ``reconfigure(animated:)``, and the `.reset` navigation, remove every registration (dropping every
/// kept instance, singletons included), run the registrations again and show the starting scene as the
/// new root: the way to return to a clean app after signing out.
@MainActor
public final class SceneAssembler {
    /// The scene ``configure(host:animated:)`` and `.reset` show first.
    public let startingSceneName: String
    /// What the starting scene is built with.
    public let startingParameters: SceneParameters
    /// The coordinator scenes navigate with.
    public let coordinator: TransitionCoordinator

    /// The container the registrations go into.
    let container: Container
    private let registrations: @MainActor (Container) -> Void

    /// What the app resolves from.
    public var resolver: any Resolver { container }

    /// Creates an assembler and runs `registrations` into `container`.
    ///
    /// ```swift
    /// let assembler = SceneAssembler(startingScene: "home") { container in
    ///     container.register(scene: HomeScene())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - startingScene: The name of the scene to show first.
    ///   - parameters: What the starting scene is built with.
    ///   - container: The container to register into.
    ///   - registrations: Registers the app's services and scenes; runs now and again on each reconfigure.
    public init(
        startingScene: String, parameters: SceneParameters = [:], container: Container = Container(),
        registrations: @escaping @MainActor (Container) -> Void
    ) {
        startingSceneName = startingScene
        startingParameters = parameters
        self.container = container
        self.registrations = registrations
        coordinator = TransitionCoordinator(resolver: container)
        coordinator.beforeReset = { [weak self] in self?.registerAgain() }
        register()
    }

    /// Creates an assembler that applies `assemblies` (as one `Assembler` batch: every
    /// `assemble`, then every `loaded`) now and on each reconfigure.
    ///
    /// ```swift
    /// let assembler = SceneAssembler(startingScene: "home", assemblies: [ServiceAssembly(), SceneAssembly()])
    /// ```
    ///
    /// - Parameters:
    ///   - startingScene: The name of the scene to show first.
    ///   - parameters: What the starting scene is built with.
    ///   - assemblies: The app's assemblies, in order.
    ///   - container: The container to register into.
    public convenience init(
        startingScene: String, parameters: SceneParameters = [:], assemblies: [any Assembly],
        container: Container = Container()
    ) {
        self.init(startingScene: startingScene, parameters: parameters, container: container) { container in
            Assembler(container: container).apply(assemblies: assemblies)
        }
    }

    /// Builds the starting scene and makes it the root on `host`.
    ///
    /// ```swift
    /// let host = TerminalNavigationHost()
    /// try assembler.configure(host: host)
    /// ```
    ///
    /// - Parameters:
    ///   - host: The host to show the app's scenes on.
    ///   - animated: Whether the host animates showing the root.
    /// - Throws: ``NavigationError`` when the starting scene is unknown or cannot be built; nothing is
    ///   shown then, and the coordinator keeps its previous host and state.
    public func configure<Host: NavigationHost>(host: Host, animated: Bool = false) throws(NavigationError) {
        try coordinator.start(
            host: host, sceneName: startingSceneName, parameters: startingParameters,
            animated: animated)
    }

    /// Removes every registration, registers again, and shows the starting scene as the root on the same host.
    ///
    /// ```swift
    /// session.signOut()
    /// try assembler.reconfigure()
    /// ```
    ///
    /// - Parameter animated: Whether the host animates showing the new root.
    /// - Throws: ``NavigationError/Code/notStarted`` before ``configure(host:animated:)`` (nothing is removed
    ///   then), ``NavigationError/Code/transitionInProgress`` while a navigation runs (nothing is removed);
    ///   when the starting scene cannot be built, the registrations are already renewed but the screen and
    ///   the navigation state stay as they were.
    public func reconfigure(animated: Bool = false) throws(NavigationError) {
        try coordinator.restart(animated: animated, beforeBuilding: { [weak self] in self?.registerAgain() })
    }

    private func register() {
        registrations(container)
        // Weakly: the coordinator holds the container, and the assembler holds both.
        container.register(TransitionCoordinator.self, name: TransitionCoordinator.moduleName) {
            [weak coordinator] _ in
            guard let coordinator else { throw NavigationError(code: .coordinatorUnavailable) }
            return coordinator
        }.inObjectScope(.transient)
    }

    private func registerAgain() {
        container.removeAll()
        register()
    }
}
