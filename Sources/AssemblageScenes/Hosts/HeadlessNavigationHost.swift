#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A host without a UI: records every transition and keeps the views it would show, for tests of apps.
///
/// Start the app's scenes on it and assert on what the coordinator told it, or on what would be on screen:
///
/// ```swift
/// @MainActor @Test func ordersNeedSignIn() throws {
///     let host = HeadlessNavigationHost<TestScreen>()
///     try assembler.configure(host: host)
///     assembler.coordinator.performNavigation(.push(sceneName: "orders"))
///     #expect(host.transitions.map(\.name) == ["setRoot", "presentInNavigationStack"])
///     #expect(host.topView?.title == "Sign in")
/// }
/// ```
///
/// Transitions finish at once unless ``completesTransitionsImmediately`` is `false`; then they wait for
/// ``completePendingTransitions()``, like an animating host. ``simulateUserPop()`` and
/// ``simulateUserDismiss()`` act like a user's Back button and sheet swipe.
@MainActor
public final class HeadlessNavigationHost<View>: NavigationHost {
    /// A navigation stack or a single presented view, as the host would show it.
    public struct Layer {
        /// The views, bottom first.
        public internal(set) var views: [View]
        /// Whether the layer is a navigation stack.
        public let isNavigationStack: Bool
    }

    /// Every transition the host was told to perform, in order.
    public private(set) var transitions: [HostTransition<View>] = []
    /// Every URL the host was asked to open, in order.
    public private(set) var openedURLs: [URL] = []
    /// What would be on screen: the root first, then each modal.
    public private(set) var layers: [Layer] = []
    /// Whether ``open(_:completion:)`` reports success. Defaults to `true`.
    public var opensURLs: Bool
    /// Whether transitions finish at once. When `false`, they wait for ``completePendingTransitions()``.
    public var completesTransitionsImmediately: Bool
    /// Completions of transitions that have not finished yet.
    private var pendingCompletions: [@MainActor @Sendable () -> Void] = []
    private weak var coordinator: TransitionCoordinator?

    /// Creates a host with nothing on screen.
    ///
    /// ```swift
    /// let host = HeadlessNavigationHost<String>(opensURLs: false)
    /// ```
    ///
    /// - Parameters:
    ///   - opensURLs: Whether opening a URL succeeds.
    ///   - completesTransitionsImmediately: Whether transitions finish at once.
    public init(opensURLs: Bool = true, completesTransitionsImmediately: Bool = true) {
        self.opensURLs = opensURLs
        self.completesTransitionsImmediately = completesTransitionsImmediately
    }

    /// The view on top of everything.
    public var topView: View? { layers.last?.views.last }

    /// Whether transitions are waiting for ``completePendingTransitions()``.
    public var hasPendingTransitions: Bool { !pendingCompletions.isEmpty }

    /// Records the transition and applies it to ``layers``.
    ///
    /// ```swift
    /// host.perform(.push(view), animated: false) {}
    /// ```
    ///
    /// - Parameters:
    ///   - transition: The transition.
    ///   - animated: Ignored.
    ///   - completion: Called now, or by ``completePendingTransitions()``.
    public func perform(
        _ transition: HostTransition<View>, animated: Bool,
        completion: @escaping @MainActor @Sendable () -> Void
    ) {
        transitions.append(transition)
        apply(transition)
        if completesTransitionsImmediately {
            completion()
        } else {
            pendingCompletions.append(completion)
        }
    }

    /// Records the URL and reports ``opensURLs``.
    ///
    /// ```swift
    /// host.open(URL(string: "https://example.com")!) { opened in print(opened) }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - completion: Called at once with ``opensURLs``.
    public func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
        openedURLs.append(url)
        completion(opensURLs)
    }

    /// Keeps the coordinator (weakly) for ``simulateUserPop()`` and ``simulateUserDismiss()``.
    ///
    /// ```swift
    /// host.attach(to: coordinator)
    /// ```
    ///
    /// - Parameter coordinator: The coordinator that drives this host.
    public func attach(to coordinator: TransitionCoordinator) {
        self.coordinator = coordinator
    }

    /// Finishes the waiting transitions, oldest first (the coordinator may send more as each finishes;
    /// those wait for the next call, or finish at once when ``completesTransitionsImmediately`` is `true`).
    ///
    /// The coordinator takes each next navigation in a loop, not from inside this completion, so any number
    /// of queued navigations finish here without deepening the stack.
    ///
    /// ```swift
    /// host.completesTransitionsImmediately = false
    /// coordinator.performNavigation(.push(sceneName: "a"))
    /// coordinator.performNavigation(.push(sceneName: "b"))   // waits
    /// host.completePendingTransitions()                      // a finishes; b is sent
    /// ```
    public func completePendingTransitions() {
        let completions = pendingCompletions
        pendingCompletions.removeAll()
        for completion in completions { completion() }
    }

    /// Pops the top navigation stack as a user's Back button would, and tells the coordinator.
    ///
    /// ```swift
    /// host.simulateUserPop()
    /// #expect(coordinator.state.top?.sceneName == "home")
    /// ```
    ///
    /// Does nothing when the top layer holds a single view.
    public func simulateUserPop() {
        guard apply(.pop) else { return }
        coordinator?.hostDidPop()
    }

    /// Dismisses the top modal as a user's swipe would, and tells the coordinator.
    ///
    /// ```swift
    /// host.simulateUserDismiss()
    /// ```
    ///
    /// Does nothing when no modal is shown.
    public func simulateUserDismiss() {
        guard apply(.dismiss) else { return }
        coordinator?.hostDidDismiss()
    }

    /// Applies `transition` to ``layers``; returns whether anything changed.
    @discardableResult
    private func apply(_ transition: HostTransition<View>) -> Bool {
        transition.apply(to: &layers, views: \.views) { Layer(views: [$0], isNavigationStack: $1) }
    }
}
