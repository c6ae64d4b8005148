#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A navigation a scene asks the ``TransitionCoordinator`` for.
///
/// Scenes name the scene to show by its ``SceneModule/moduleName``; the coordinator resolves the scene
/// module from the container, builds it and tells its ``NavigationHost`` what to show:
///
/// ```swift
/// coordinator.performNavigation(.push(sceneName: OrdersScene.moduleName))
/// coordinator.performNavigation(.presentAndPush(sceneName: "signIn", parameters: ["next": "orders"]))
/// coordinator.performNavigation(.push(OrderScene.self, parameters: .init(orderID: 7)))   // typed
/// coordinator.performNavigation(.back)
/// ```
///
/// The screen is a stack of layers: the root (a navigation stack) and, above it, each presented modal
/// (a navigation stack or a single scene). See ``NavigationState``.
public enum NavigationType: Sendable, CustomStringConvertible {
    /// Presents the scene modally, on its own (without a navigation stack, so nothing can be pushed onto it).
    case present(sceneName: String, parameters: SceneParameters = [:])
    /// Pushes the scene onto the navigation stack of the top layer.
    case push(sceneName: String, parameters: SceneParameters = [:])
    /// Presents a new navigation stack modally, with the scene as its first scene.
    case presentAndPush(sceneName: String, parameters: SceneParameters = [:])
    /// Pops the top layer's stack, or dismisses the top modal when its stack holds a single scene.
    case back
    /// Starts over from the starting scene; with a ``SceneAssembler``, registrations are redone first.
    case reset
    /// Replaces everything on screen with a new root navigation stack that holds the scene.
    case setRoot(sceneName: String, parameters: SceneParameters = [:])
    /// Hands the URL to the host (a browser, another app); the navigation state does not change.
    case openURL(URL)

    /// The scene this navigation shows, if it shows one.
    public var sceneName: String? {
        switch self {
        case .present(let name, _), .push(let name, _), .presentAndPush(let name, _), .setRoot(let name, _): name
        case .back, .reset, .openURL: nil
        }
    }

    /// The navigation as it would be written: `push("orders", [next])`.
    public var description: String {
        func scene(_ name: String, _ parameters: SceneParameters) -> String {
            parameters.isEmpty ? "\"\(name)\"" : "\"\(name)\", \(parameters)"
        }
        switch self {
        case .present(let name, let parameters): return "present(\(scene(name, parameters)))"
        case .push(let name, let parameters): return "push(\(scene(name, parameters)))"
        case .presentAndPush(let name, let parameters): return "presentAndPush(\(scene(name, parameters)))"
        case .back: return "back"
        case .reset: return "reset"
        case .setRoot(let name, let parameters): return "setRoot(\(scene(name, parameters)))"
        case .openURL(let url): return "openURL(\(url.absoluteString))"
        }
    }
}

// MARK: - Typed forms

extension NavigationType {
    /// Presents `scene` modally on its own, with parameters of the scene's own type.
    ///
    /// The compiler checks that `parameters` is what the scene's `build` takes.
    ///
    /// ```swift
    /// coordinator.performNavigation(.present(ReceiptScene.self, parameters: .init(orderID: 7)))
    /// ```
    ///
    /// - Parameters:
    ///   - scene: The scene module type; its ``SceneModule/moduleName`` names the scene.
    ///   - parameters: The scene's parameters.
    /// - Returns: The navigation.
    public static func present<Scene: SceneModule>(_ scene: Scene.Type, parameters: Scene.Parameters) -> Self {
        .present(sceneName: Scene.moduleName, parameters: SceneParameters(wrapping: parameters))
    }

    /// Pushes `scene` onto the top navigation stack, with parameters of the scene's own type.
    ///
    /// ```swift
    /// coordinator.performNavigation(.push(OrderScene.self, parameters: .init(orderID: 7)))
    /// ```
    ///
    /// - Parameters:
    ///   - scene: The scene module type.
    ///   - parameters: The scene's parameters.
    /// - Returns: The navigation.
    public static func push<Scene: SceneModule>(_ scene: Scene.Type, parameters: Scene.Parameters) -> Self {
        .push(sceneName: Scene.moduleName, parameters: SceneParameters(wrapping: parameters))
    }

    /// Presents a new navigation stack that starts with `scene`, with parameters of the scene's own type.
    ///
    /// ```swift
    /// coordinator.performNavigation(.presentAndPush(SignInScene.self, parameters: .init(next: "orders")))
    /// ```
    ///
    /// - Parameters:
    ///   - scene: The scene module type.
    ///   - parameters: The scene's parameters.
    /// - Returns: The navigation.
    public static func presentAndPush<Scene: SceneModule>(_ scene: Scene.Type, parameters: Scene.Parameters) -> Self {
        .presentAndPush(sceneName: Scene.moduleName, parameters: SceneParameters(wrapping: parameters))
    }

    /// Makes `scene` the new root, with parameters of the scene's own type.
    ///
    /// ```swift
    /// coordinator.performNavigation(.setRoot(HomeScene.self, parameters: .init(user: "Ada")))
    /// ```
    ///
    /// - Parameters:
    ///   - scene: The scene module type.
    ///   - parameters: The scene's parameters.
    /// - Returns: The navigation.
    public static func setRoot<Scene: SceneModule>(_ scene: Scene.Type, parameters: Scene.Parameters) -> Self {
        .setRoot(sceneName: Scene.moduleName, parameters: SceneParameters(wrapping: parameters))
    }
}

extension SceneParameters {
    /// `parameters` itself when it is a `SceneParameters`, otherwise a payload.
    init<P: Sendable>(wrapping parameters: P) {
        if let parameters = parameters as? SceneParameters {
            self = parameters
        } else {
            self.init(payload: parameters)
        }
    }
}
