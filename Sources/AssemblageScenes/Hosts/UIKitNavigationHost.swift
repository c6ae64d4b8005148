#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Shows scenes with UIKit: a window whose root is a `UINavigationController`, modals presented above it.
///
/// Scenes build `UIViewController`s. The host keeps the controllers it put on screen, one a layer (the
/// root navigation controller, then each presented controller), and does what the coordinator says:
///
/// ```swift
/// func scene(_ scene: UIScene, willConnectTo session: UISceneSession,
///            options connectionOptions: UIScene.ConnectionOptions) {
///     guard let windowScene = scene as? UIWindowScene else { return }
///     let window = UIWindow(windowScene: windowScene)
///     self.window = window
///     try? AppAssembler.shared.configure(host: UIKitNavigationHost(window: window))
/// }
/// ```
///
/// The host is the delegate of the navigation controllers it creates and of the presentation controllers
/// of what it presents, so that a Back button, an edge swipe or a swiped-away sheet is reported to the
/// coordinator (``TransitionCoordinator/hostDidPop(count:)``, ``TransitionCoordinator/hostDidDismiss()``)
/// and the navigation state stays true to the screen.
///
/// - Note: Thin on purpose: every decision is the coordinator's, and is tested with ``HeadlessNavigationHost``.
@MainActor
public final class UIKitNavigationHost: NSObject, NavigationHost {
    /// The window whose root the host sets.
    public let window: UIWindow
    /// Wraps a scene's controller in a navigation stack (for the root and `.presentAndPush`).
    public var makeNavigationController: (UIViewController) -> UINavigationController
    /// The root navigation controller first, then each presented controller.
    public private(set) var layers: [UIViewController] = []
    private weak var coordinator: TransitionCoordinator?

    /// Creates a host for `window`.
    ///
    /// ```swift
    /// let host = UIKitNavigationHost(window: window) { root in
    ///     let stack = UINavigationController(rootViewController: root)
    ///     stack.navigationBar.prefersLargeTitles = true
    ///     return stack
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - window: The window to show scenes in.
    ///   - makeNavigationController: Wraps a controller in a navigation stack.
    public init(
        window: UIWindow,
        makeNavigationController: @escaping (UIViewController) -> UINavigationController = {
            UINavigationController(rootViewController: $0)
        }
    ) {
        self.window = window
        self.makeNavigationController = makeNavigationController
        super.init()
    }

    /// Keeps the coordinator (weakly) to report what the user did without it.
    ///
    /// ```swift
    /// host.attach(to: coordinator)
    /// ```
    ///
    /// - Parameter coordinator: The coordinator that drives this host.
    public func attach(to coordinator: TransitionCoordinator) {
        self.coordinator = coordinator
    }

    /// Performs the transition with UIKit and calls `completion` when its animation has finished.
    ///
    /// ```swift
    /// host.perform(.push(OrdersViewController()), animated: true) { print("shown") }
    /// ```
    ///
    /// - Parameters:
    ///   - transition: The transition.
    ///   - animated: Whether to animate (`.setRoot` never animates).
    ///   - completion: Called once the transition has finished.
    public func perform(
        _ transition: HostTransition<UIViewController>, animated: Bool,
        completion: @escaping @MainActor @Sendable () -> Void
    ) {
        switch transition {
        case .setRoot(let view):
            let root = wrap(view)
            if let previous = window.rootViewController, previous.presentedViewController != nil {
                previous.dismiss(animated: false)
            }
            window.rootViewController = root
            window.makeKeyAndVisible()
            layers = [root]
            completion()
        case .push(let view):
            guard let stack = layers.last as? UINavigationController else { return completion() }
            stack.pushViewController(view, animated: animated)
            whenTransitionEnds(in: stack, animated: animated, completion)
        case .pop:
            guard let stack = layers.last as? UINavigationController else { return completion() }
            stack.popViewController(animated: animated)
            whenTransitionEnds(in: stack, animated: animated, completion)
        case .present(let view, let inNavigationStack):
            guard let presenter = layers.last else { return completion() }
            let presented = inNavigationStack ? wrap(view) : view
            presented.presentationController?.delegate = self
            layers.append(presented)
            presenter.present(presented, animated: animated) { Self.onMain(completion) }
        case .dismiss:
            guard layers.count > 1 else { return completion() }
            let presented = layers.removeLast()
            presented.dismiss(animated: animated) { Self.onMain(completion) }
        }
    }

    /// Opens the URL with `UIApplication.shared`.
    ///
    /// ```swift
    /// host.open(URL(string: "https://example.com")!) { opened in print(opened) }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - completion: Called with whether the system opened it.
    public func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
        UIApplication.shared.open(url, options: [:]) { opened in Self.onMain { completion(opened) } }
    }

    /// Runs `body` from a UIKit completion handler, which UIKit calls on the main thread. SDKs import these
    /// handlers differently (`@MainActor`, plain, or `@Sendable` since SE-0463); this works with each.
    private nonisolated static func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        MainActor.assumeIsolated { body() }
    }

    private func wrap(_ view: UIViewController) -> UINavigationController {
        let stack = makeNavigationController(view)
        stack.delegate = self
        return stack
    }

    /// Calls `completion` when the navigation controller's push or pop animation has finished.
    private func whenTransitionEnds(
        in stack: UINavigationController, animated: Bool,
        _ completion: @escaping @MainActor @Sendable () -> Void
    ) {
        guard animated, let transition = stack.transitionCoordinator else { return completion() }
        transition.animate(alongsideTransition: nil) { _ in Self.onMain(completion) }
    }
}

extension UIKitNavigationHost: UINavigationControllerDelegate {
    /// Reports pops the user made (Back button, edge swipe, the Back button's menu) to the coordinator.
    ///
    /// ```swift
    /// // UIKit calls it; nothing to do.
    /// ```
    ///
    /// - Parameters:
    ///   - navigationController: The stack that changed.
    ///   - viewController: The controller now on top.
    ///   - animated: Whether the change was animated.
    public func navigationController(
        _ navigationController: UINavigationController,
        didShow viewController: UIViewController, animated: Bool
    ) {
        guard let coordinator, let index = layers.lastIndex(of: navigationController), index == layers.count - 1,
            index < coordinator.state.layers.count
        else { return }
        let recorded = coordinator.state.layers[index].entries.count
        let shown = navigationController.viewControllers.count
        if shown < recorded { coordinator.hostDidPop(count: recorded - shown) }
    }
}

extension UIKitNavigationHost: UIAdaptivePresentationControllerDelegate {
    /// Reports a sheet the user swiped away to the coordinator.
    ///
    /// ```swift
    /// // UIKit calls it; nothing to do.
    /// ```
    ///
    /// - Parameter presentationController: The presentation that ended.
    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
        guard let index = layers.lastIndex(where: { $0 === presentationController.presentedViewController }),
            index > 0
        else { return }
        let dismissed = layers.count - index
        layers.removeSubrange(index...)
        for _ in 0..<dismissed { coordinator?.hostDidDismiss() }
    }
}
#endif
