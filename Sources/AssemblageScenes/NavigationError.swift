public import Assemblage

#if canImport(FoundationEssentials)
import FoundationEssentials  // LocalizedError's defaults, which the AssemblageError conformance uses
#else
import Foundation
#endif

/// Why a navigation did not happen.
///
/// ``TransitionCoordinator/performNavigation(_:animated:completion:)`` passes it to its completion, and
/// ``TransitionCoordinator/navigate(_:animated:)`` throws it. When a navigation fails, the coordinator's
/// ``TransitionCoordinator/state`` stays as it was and the host is told nothing. The error names the scene
/// and says what to change:
///
/// ```swift
/// coordinator.performNavigation(.push(sceneName: "ordres")) { result in
///     if case .failure(let error) = result {
///         print(error)
///         // No scene named "ordres" is registered for TerminalScreen views.
///         //   Registered scenes: home, orders, signIn
///     }
/// }
/// ```
public struct NavigationError: AssemblageError {
    /// What kind of failure this is.
    public let code: Code
    /// The navigation that failed, when the failure came from one.
    public internal(set) var navigation: NavigationType?
    /// The scene the failure is about: the scene to be shown, or for `.back` the scene on top.
    public internal(set) var sceneName: String?
    /// For ``NavigationError/Code/invalidParameters`` from a keyed lookup: the key.
    public let parameterKey: String?
    /// For ``NavigationError/Code/unknownScene``: the scene names registered for the host's view type.
    public let registeredScenes: [String]
    /// Specifics that complete the sentence of the description.
    public let detail: String?
    /// What the scene's `build` or the resolver threw.
    public let underlying: (any Error)?

    init(
        code: Code, navigation: NavigationType? = nil, sceneName: String? = nil, parameterKey: String? = nil,
        registeredScenes: [String] = [], detail: String? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.navigation = navigation
        self.sceneName = sceneName
        self.parameterKey = parameterKey
        self.registeredScenes = registeredScenes
        self.detail = detail
        self.underlying = underlying
    }

    /// What the scene's `build` or the resolver threw, described.
    public var underlyingDescription: String? { underlying.map { String(describing: $0) } }

    /// What failed, on one line.
    public var summary: String {
        let scene = sceneName.map { "\"\($0)\"" } ?? "the scene"
        switch code {
        case .unknownScene:
            return "No scene named \(scene) is registered\(detail.map { " " + $0 } ?? "")."
        case .sceneBuildFailed:
            if causeHasLinesOfItsOwn { return "Building scene \(scene) failed." }
            return "Building scene \(scene) failed: \(underlyingDescription ?? detail ?? "unknown error")"
        case .invalidParameters:
            return "Scene \(scene) cannot use its parameters: \(detail ?? "they do not fit")."
        case .nothingToGoBack:
            return "Nothing to go back to: \(scene) is the only scene on screen."
        case .noNavigationStack:
            return "Cannot push \(scene): the top scene\(detail.map { ", \"\($0)\"," } ?? "") was presented "
                + "without a navigation stack; present scenes that others push onto with .presentAndPush."
        case .notStarted:
            return "Cannot navigate to \(scene) before the coordinator has a host and a root; "
                + "call SceneAssembler.configure(host:) first."
        case .urlNotOpened:
            return "The host did not open \(detail ?? "the URL")."
        case .transitionInProgress:
            return "Cannot start with \(scene) while a navigation is still running."
        case .coordinatorUnavailable:
            return "The transition coordinator is gone: keep the SceneAssembler that owns it alive."
        default:
            return "Navigating to \(scene) failed (\(code))."
        }
    }

    /// The lines under the summary: the registered scenes (for an unknown scene), the cause (when it does not fit
    /// the summary) and the navigation that failed.
    public var details: [ErrorDetail] {
        var details: [ErrorDetail] = []
        if code == .unknownScene {
            details.append(
                registeredScenes.isEmpty
                    ? ErrorDetail(
                        "No scenes are registered for this host; register them with container.register(scene:).")
                    : ErrorDetail("Registered scenes", registeredScenes.joined(separator: ", ")))
        }
        if causeHasLinesOfItsOwn, let underlying { details.append(.cause(describing: underlying)) }
        if let navigation { details.append(ErrorDetail("Navigation", "\(navigation)")) }
        return details
    }

    /// Whether what the build threw goes on a `Cause:` line of its own rather than at the end of the summary: when
    /// it is an `AssemblageError` (its details then follow it) or its description has several lines.
    private var causeHasLinesOfItsOwn: Bool {
        guard code == .sceneBuildFailed, let underlying else { return false }
        return underlying is any AssemblageError || underlyingDescription?.contains("\n") == true
    }
}

extension NavigationError {
    /// The kinds of ``NavigationError``.
    ///
    /// New codes may be added: match with `==`, or switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"unknownScene"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// No scene module is registered under the scene name for the host's view type.
        public static var unknownScene: Self { Self("unknownScene") }
        /// The scene module's `build` threw, or resolving the scene module itself failed.
        public static var sceneBuildFailed: Self { Self("sceneBuildFailed") }
        /// The parameters do not fit the scene: a missing or mistyped key, or a payload of another type.
        public static var invalidParameters: Self { Self("invalidParameters") }
        /// `.back` with a single scene on screen: nothing to pop and nothing to dismiss.
        public static var nothingToGoBack: Self { Self("nothingToGoBack") }
        /// `.push` while the top scene was presented without a navigation stack.
        public static var noNavigationStack: Self { Self("noNavigationStack") }
        /// The coordinator has no host and root yet (``TransitionCoordinator/start(host:sceneName:parameters:animated:)``
        /// or ``SceneAssembler/configure(host:animated:)`` was not called).
        public static var notStarted: Self { Self("notStarted") }
        /// The host reported that it could not open the URL.
        public static var urlNotOpened: Self { Self("urlNotOpened") }
        /// `start` was called while a navigation was still running.
        public static var transitionInProgress: Self { Self("transitionInProgress") }
        /// The coordinator registered in a container was released (its ``SceneAssembler`` is gone).
        public static var coordinatorUnavailable: Self { Self("coordinatorUnavailable") }
    }
}
