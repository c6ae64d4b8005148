public import Assemblage

/// Builds one scene of the app: resolves what the scene needs and returns its view.
///
/// A scene module is registered in the container under its ``moduleName``, and the
/// ``TransitionCoordinator`` builds it when a navigation names it. The view is whatever the
/// ``NavigationHost`` shows: a `UIViewController` for `UIKitNavigationHost`, a ``TerminalScreen`` for
/// ``TerminalNavigationHost``, any type you like for ``HeadlessNavigationHost``.
///
/// ```swift
/// struct OrdersScene: SceneModule {
///     static let moduleName = "orders"
///
///     @MainActor
///     func build(resolver: Resolver, parameters: SceneParameters) throws -> UIViewController {
///         let coordinator = try resolver.transitionCoordinator()
///         let orders = try resolver.require(OrderService.self)
///         return OrdersViewController(orders: orders, coordinator: coordinator)
///     }
/// }
///
/// container.register(scene: OrdersScene())
/// ```
///
/// ## Typed parameters
/// By default a scene receives ``SceneParameters``. A scene that needs specific values declares its own
/// `Parameters` type instead; navigations then pass a value of it through the typed forms
/// (``NavigationType/push(_:parameters:)``), and a navigation that passes something else fails with
/// ``NavigationError/Code/invalidParameters`` before `build` runs:
///
/// ```swift
/// struct OrderScene: SceneModule {
///     struct Parameters: Sendable { let orderID: Int }
///     static let moduleName = "order"
///
///     @MainActor
///     func build(resolver: Resolver, parameters: Parameters) throws -> UIViewController {
///         OrderViewController(orderID: parameters.orderID, orders: try resolver.require(OrderService.self))
///     }
/// }
/// ```
///
/// ## Isolation
/// A scene module is a `Sendable` value whose `build` runs on the main actor, so it can be registered from
/// any context (the container's factories are nonisolated) and still create views.
public protocol SceneModule: Sendable {
    /// The view the scene's host shows.
    associatedtype View
    /// What a navigation hands to ``build(resolver:parameters:)``; ``SceneParameters`` unless the scene
    /// declares its own type.
    associatedtype Parameters: Sendable = SceneParameters

    /// The scene's name: the registration name in the container and the name navigations use.
    ///
    /// Defaults to the type's name.
    static var moduleName: String { get }

    /// Resolves what the scene needs and creates its view.
    ///
    /// ```swift
    /// @MainActor
    /// func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
    ///     let next = try parameters.require("next", as: String.self)
    ///     return TerminalScreen(title: "Sign in", lines: ["Then: \(next)"])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - resolver: Resolves the scene's dependencies, including the ``TransitionCoordinator``.
    ///   - parameters: What the navigation passed.
    /// - Returns: The scene's view.
    /// - Throws: Anything; the coordinator reports it as ``NavigationError/Code/sceneBuildFailed`` (or
    ///   ``NavigationError/Code/invalidParameters`` for a ``NavigationError`` of that code) and shows nothing.
    @MainActor
    func build(resolver: any Resolver, parameters: Parameters) throws -> View
}

extension SceneModule {
    /// The type's name, for scene modules that do not choose one.
    public static var moduleName: String { String(describing: Self.self) }
}

extension SceneModule where Parameters == SceneParameters {
    /// Builds the scene with no parameters.
    ///
    /// ```swift
    /// let view = try HomeScene().build(resolver: resolver)
    /// ```
    ///
    /// - Parameter resolver: Resolves the scene's dependencies.
    /// - Returns: The scene's view.
    /// - Throws: What ``build(resolver:parameters:)`` throws.
    @MainActor
    public func build(resolver: any Resolver) throws -> View {
        try build(resolver: resolver, parameters: [:])
    }
}

/// A scene module for views of type `View`, whatever its own type: what the container stores.
///
/// The coordinator resolves `AnySceneModule<Host.View>` under the scene's name.
/// ``Assemblage/Container/register(scene:file:line:)`` registers one for you; register one directly to
/// define a scene with a closure, or to write the registration the way the original design does:
///
/// ```swift
/// container.register(AnySceneModule<TerminalScreen>.self, name: "about") { _ in
///     AnySceneModule(moduleName: "about") { _, _ in TerminalScreen(title: "About", lines: ["v1.0"]) }
/// }
/// ```
public struct AnySceneModule<View>: Sendable {
    /// The scene's name.
    public let moduleName: String
    /// The name of the parameters type the scene takes.
    public let parametersTypeName: String
    private let buildView: @MainActor @Sendable (any Resolver, SceneParameters) throws -> View

    /// Wraps a scene module.
    ///
    /// A scene with its own `Parameters` type receives the navigation's typed payload; when the navigation
    /// passed something else, building throws ``NavigationError/Code/invalidParameters`` without calling
    /// the scene.
    ///
    /// ```swift
    /// let module = AnySceneModule(OrdersScene())
    /// ```
    ///
    /// - Parameter scene: The scene module.
    public init<Scene: SceneModule>(_ scene: Scene) where Scene.View == View {
        moduleName = Scene.moduleName
        parametersTypeName = String(describing: Scene.Parameters.self)
        buildView = { resolver, parameters in
            if let parameters = parameters as? Scene.Parameters {
                return try scene.build(resolver: resolver, parameters: parameters)
            }
            if let payload = parameters.payload(as: Scene.Parameters.self) {
                return try scene.build(resolver: resolver, parameters: payload)
            }
            let passed = parameters.payload.map { "a \(type(of: $0))" } ?? "keyed values \(parameters)"
            throw NavigationError(
                code: .invalidParameters, sceneName: Scene.moduleName,
                detail: "it takes \(Scene.Parameters.self) and the navigation passed \(passed)")
        }
    }

    /// Defines a scene with a closure.
    ///
    /// ```swift
    /// let about = AnySceneModule<TerminalScreen>(moduleName: "about") { resolver, parameters in
    ///     TerminalScreen(title: "About", lines: ["Assemblage \(parameters.value("version", as: String.self) ?? "")"])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - moduleName: The scene's name.
    ///   - build: Resolves what the scene needs and creates its view, on the main actor.
    public init(
        moduleName: String,
        build: @escaping @MainActor @Sendable (any Resolver, SceneParameters) throws -> View
    ) {
        self.moduleName = moduleName
        self.parametersTypeName = String(describing: SceneParameters.self)
        self.buildView = build
    }

    /// Builds the scene.
    ///
    /// ```swift
    /// let screen = try module.build(resolver: container, parameters: ["next": "orders"])
    /// ```
    ///
    /// - Parameters:
    ///   - resolver: Resolves the scene's dependencies.
    ///   - parameters: What the navigation passed.
    /// - Returns: The scene's view.
    /// - Throws: What the scene throws, or ``NavigationError`` when the parameters do not fit a typed scene.
    @MainActor
    public func build(resolver: any Resolver, parameters: SceneParameters = [:]) throws -> View {
        try buildView(resolver, parameters)
    }
}
