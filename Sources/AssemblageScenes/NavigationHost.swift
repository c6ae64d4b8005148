#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Shows scenes on a platform: the thin layer between the ``TransitionCoordinator`` and a UI toolkit.
///
/// The coordinator decides every navigation and keeps the ``NavigationState``; the host only does what it
/// is told, one ``HostTransition`` at a time, and calls the completion when the transition has finished
/// (after its animation). The coordinator sends the next transition only after that, so a host never
/// has to cope with two transitions at once.
///
/// Assemblage provides ``HeadlessNavigationHost`` (records transitions, for tests),
/// ``TerminalNavigationHost`` (text screens) and, on Apple platforms with UIKit, `UIKitNavigationHost`.
/// A host of your own looks like this:
///
/// ```swift
/// @MainActor
/// final class LoggingHost: NavigationHost {
///     func perform(_ transition: HostTransition<String>, animated: Bool,
///                  completion: @escaping @MainActor @Sendable () -> Void) {
///         print(transition)
///         completion()
///     }
///
///     func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
///         completion(false)
///     }
/// }
/// ```
@MainActor
public protocol NavigationHost: AnyObject {
    /// What scenes build and the host shows.
    associatedtype View

    /// Performs one transition, then calls `completion` exactly once.
    ///
    /// The coordinator has already checked the transition against its state: a `.push` or `.pop` always
    /// has a navigation stack on top, a `.dismiss` always has a modal to dismiss. `.setRoot` replaces
    /// everything, modals included.
    ///
    /// ```swift
    /// func perform(_ transition: HostTransition<Screen>, animated: Bool,
    ///              completion: @escaping @MainActor @Sendable () -> Void) {
    ///     switch transition {
    ///     case .push(let screen): stack.append(screen)
    ///     // …
    ///     }
    ///     completion()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - transition: What to show or remove.
    ///   - animated: Whether to animate.
    ///   - completion: Call it once the transition has finished.
    func perform(
        _ transition: HostTransition<View>, animated: Bool,
        completion: @escaping @MainActor @Sendable () -> Void)

    /// Opens a URL outside the scenes (a browser, another app), then calls `completion` exactly once.
    ///
    /// ```swift
    /// func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
    ///     UIApplication.shared.open(url) { opened in completion(opened) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - completion: Call it with whether the URL was opened.
    func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void)

    /// Called when a coordinator starts using this host.
    ///
    /// A host whose user can go back without asking the coordinator (a Back button, a swipe that dismisses
    /// a sheet) keeps the coordinator, weakly, and reports those changes with
    /// ``TransitionCoordinator/hostDidPop(count:)`` and ``TransitionCoordinator/hostDidDismiss()``.
    /// The default does nothing.
    ///
    /// ```swift
    /// func attach(to coordinator: TransitionCoordinator) { self.coordinator = coordinator }
    /// ```
    ///
    /// - Parameter coordinator: The coordinator that drives this host.
    func attach(to coordinator: TransitionCoordinator)
}

extension NavigationHost {
    /// Does nothing.
    public func attach(to coordinator: TransitionCoordinator) {}
}

/// One change a ``NavigationHost`` makes to what is on screen.
///
/// ```swift
/// switch transition {
/// case .setRoot(let view): window.root = Stack([view])
/// case .push(let view): topStack.push(view)
/// case .pop: topStack.pop()
/// case .present(let view, let inNavigationStack): present(inNavigationStack ? Stack([view]) : view)
/// case .dismiss: dismissTopModal()
/// }
/// ```
public enum HostTransition<View> {
    /// Remove everything (modals included) and show a new root navigation stack that holds `view`.
    case setRoot(View)
    /// Push `view` onto the navigation stack on top.
    case push(View)
    /// Pop the top view of the navigation stack on top.
    case pop
    /// Present `view` modally above everything, wrapped in a new navigation stack when `inNavigationStack`.
    case present(View, inNavigationStack: Bool)
    /// Dismiss the top modal.
    case dismiss

    /// The view this transition shows, if it shows one.
    public var view: View? {
        switch self {
        case .setRoot(let view), .push(let view), .present(let view, _): view
        case .pop, .dismiss: nil
        }
    }

    /// The transition without its view: `"push"`, `"presentInNavigationStack"`.
    public var name: String {
        switch self {
        case .setRoot: "setRoot"
        case .push: "push"
        case .pop: "pop"
        case .present(_, let inNavigationStack): inNavigationStack ? "presentInNavigationStack" : "present"
        case .dismiss: "dismiss"
        }
    }
}

extension HostTransition: Sendable where View: Sendable {}
