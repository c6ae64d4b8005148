/// What is on screen, as the ``TransitionCoordinator`` keeps it: layers of scenes.
///
/// The first layer is the root, a navigation stack. Each modal presented above it is another layer: a
/// navigation stack (``NavigationType/presentAndPush(sceneName:parameters:)``) or a single scene
/// (``NavigationType/present(sceneName:parameters:)``). Pushing and popping act on the top layer.
///
/// ```swift
/// try coordinator.start(host: host, sceneName: "home")
/// coordinator.performNavigation(.push(sceneName: "orders"))
/// coordinator.performNavigation(.presentAndPush(sceneName: "signIn"))
/// coordinator.state.sceneNames    // [["home", "orders"], ["signIn"]]
/// coordinator.state.description   // home › orders | signIn
/// ```
///
/// Two states are equal when the same built scenes (by ``Entry/id``) are in the same places.
public struct NavigationState: Sendable, Equatable, CustomStringConvertible {
    /// One built scene on screen.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// Tells this build of the scene from every other build, including builds of the same scene.
        public let id: Int
        /// The scene's name.
        public let sceneName: String
        /// What the navigation passed when the scene was built.
        public let parameters: SceneParameters

        /// Entries are equal when they are the same build.
        public static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.id == rhs.id }

        /// The scene's name.
        public var description: String { sceneName }
    }

    /// The root, or one modal: a navigation stack, or a single scene presented on its own.
    public struct Layer: Sendable, Equatable {
        /// The scenes in this layer, bottom first. A layer that is not a navigation stack holds one.
        public internal(set) var entries: [Entry]
        /// Whether scenes can be pushed onto this layer.
        public let isNavigationStack: Bool
    }

    /// The root layer first, then each modal in the order they were presented.
    public internal(set) var layers: [Layer] = []

    /// The root layer, or `nil` before the coordinator has started.
    public var root: Layer? { layers.first }
    /// The modal layers, bottom first.
    public var modals: ArraySlice<Layer> { layers.dropFirst() }
    /// The scene on top of everything.
    public var top: Entry? { layers.last?.entries.last }
    /// Every layer's scene names: `[["home", "orders"], ["signIn"]]`.
    public var sceneNames: [[String]] { layers.map { $0.entries.map(\.sceneName) } }

    /// Layers separated by `|`, scenes in a stack by `›`: `home › orders | signIn`.
    public var description: String {
        layers.isEmpty
            ? "(nothing on screen)"
            : layers.map { $0.entries.map(\.sceneName).joined(separator: " › ") }.joined(separator: " | ")
    }
}
