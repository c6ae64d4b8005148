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
public struct NavigationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let raw: String
        /// No scene module is registered under the scene name for the host's view type.
        public static let unknownScene = Code(raw: "unknownScene")
        /// The scene module's `build` threw, or resolving the scene module itself failed.
        public static let sceneBuildFailed = Code(raw: "sceneBuildFailed")
        /// The parameters do not fit the scene: a missing or mistyped key, or a payload of another type.
        public static let invalidParameters = Code(raw: "invalidParameters")
        /// `.back` with a single scene on screen: nothing to pop and nothing to dismiss.
        public static let nothingToGoBack = Code(raw: "nothingToGoBack")
        /// `.push` while the top scene was presented without a navigation stack.
        public static let noNavigationStack = Code(raw: "noNavigationStack")
        /// The coordinator has no host and root yet (``TransitionCoordinator/start(host:sceneName:parameters:animated:)``
        /// or ``SceneAssembler/configure(host:animated:)`` was not called).
        public static let notStarted = Code(raw: "notStarted")
        /// The host reported that it could not open the URL.
        public static let urlNotOpened = Code(raw: "urlNotOpened")
        /// `start` was called while a navigation was still running.
        public static let transitionInProgress = Code(raw: "transitionInProgress")
        /// The coordinator registered in a container was released (its ``SceneAssembler`` is gone).
        public static let coordinatorUnavailable = Code(raw: "coordinatorUnavailable")
        /// The short name of the code.
        public var description: String { raw }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The navigation that failed, when the failure came from one.
    public internal(set) var navigation: NavigationType?
    /// The scene the failure is about: the scene to be shown, or for `.back` the scene on top.
    public internal(set) var sceneName: String?
    /// For ``Code/invalidParameters`` from a keyed lookup: the key.
    public let parameterKey: String?
    /// For ``Code/unknownScene``: the scene names registered for the host's view type.
    public let registeredScenes: [String]
    /// Specifics that complete the sentence of the description.
    public let detail: String?
    /// What the scene's `build` or the resolver threw.
    public let underlying: (any Error)?

    init(code: Code, navigation: NavigationType? = nil, sceneName: String? = nil, parameterKey: String? = nil,
         registeredScenes: [String] = [], detail: String? = nil, underlying: (any Error)? = nil) {
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

    /// A complete, readable account of the failure.
    public var description: String {
        let scene = sceneName.map { "\"\($0)\"" } ?? "the scene"
        var lines: [String] = []
        switch code {
        case .unknownScene:
            lines.append("No scene named \(scene) is registered\(detail.map { " " + $0 } ?? "").")
            lines.append(registeredScenes.isEmpty
                ? "  No scenes are registered for this host; register them with container.register(scene:)."
                : "  Registered scenes: " + registeredScenes.joined(separator: ", "))
        case .sceneBuildFailed:
            lines.append("Building scene \(scene) failed: \(underlyingDescription ?? detail ?? "unknown error")")
        case .invalidParameters:
            lines.append("Scene \(scene) cannot use its parameters: \(detail ?? "they do not fit").")
        case .nothingToGoBack:
            lines.append("Nothing to go back to: \(scene) is the only scene on screen.")
        case .noNavigationStack:
            lines.append("Cannot push \(scene): the top scene\(detail.map { ", \"\($0)\"," } ?? "") was presented "
                + "without a navigation stack; present scenes that others push onto with .presentAndPush.")
        case .notStarted:
            lines.append("Cannot navigate to \(scene) before the coordinator has a host and a root; "
                + "call SceneAssembler.configure(host:) first.")
        case .urlNotOpened:
            lines.append("The host did not open \(detail ?? "the URL").")
        case .transitionInProgress:
            lines.append("Cannot start with \(scene) while a navigation is still running.")
        case .coordinatorUnavailable:
            lines.append("The transition coordinator is gone: keep the SceneAssembler that owns it alive.")
        default:
            lines.append("Navigating to \(scene) failed (\(code)).")
        }
        if let navigation { lines.append("  Navigation: \(navigation)") }
        return lines.joined(separator: "\n")
    }
}
