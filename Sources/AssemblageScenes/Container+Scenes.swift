public import Assemblage

extension Container {
    /// Registers a scene module under its ``SceneModule/moduleName``, so that navigations can name it.
    ///
    /// The scene is stored as an ``AnySceneModule`` for its view type: a coordinator whose host shows
    /// `Scene.View` views finds it.
    ///
    /// ```swift
    /// container.register(scene: HomeScene())
    /// container.register(scene: OrdersScene())
    /// ```
    ///
    /// Registering another scene under the same name and view type replaces the earlier one.
    ///
    /// - Parameters:
    ///   - scene: The scene module (a `Sendable` value; its `build` runs on the main actor).
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    /// - Returns: The entry, to configure as any registration.
    @discardableResult
    public func register<Scene: SceneModule>(
        scene: Scene, file: String = #fileID,
        line: Int = #line
    ) -> ServiceEntry<AnySceneModule<Scene.View>> {
        register(AnySceneModule<Scene.View>.self, name: Scene.moduleName, file: file, line: line) { _ in
            AnySceneModule(scene)
        }
    }

    /// Registers a scene module made by a factory, under its ``SceneModule/moduleName``.
    ///
    /// Use it when the module itself needs something from the container (most scenes resolve what they
    /// need in `build` instead).
    ///
    /// ```swift
    /// container.register(scene: OrdersScene.self) { r in OrdersScene(pageSize: try r.require(Int.self, name: "pageSize")) }
    /// ```
    ///
    /// - Parameters:
    ///   - scene: The scene module type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - factory: Makes the scene module each time the scene is built.
    /// - Returns: The entry, to configure as any registration.
    @discardableResult
    public func register<Scene: SceneModule>(
        scene: Scene.Type, file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Scene
    ) -> ServiceEntry<AnySceneModule<Scene.View>> {
        register(AnySceneModule<Scene.View>.self, name: Scene.moduleName, file: file, line: line) { r in
            AnySceneModule(try factory(r))
        }
    }
}

extension Resolver {
    /// Resolves the ``TransitionCoordinator`` registered under ``TransitionCoordinator/moduleName``.
    ///
    /// ```swift
    /// let coordinator = try resolver.transitionCoordinator()
    /// coordinator.performNavigation(.back)
    /// ```
    ///
    /// - Returns: The coordinator.
    /// - Throws: `ResolutionError` when none is registered (no ``SceneAssembler`` set this
    ///   container up) or its ``SceneAssembler`` is gone.
    public func transitionCoordinator() throws(ResolutionError) -> TransitionCoordinator {
        try require(TransitionCoordinator.self, name: TransitionCoordinator.moduleName)
    }
}
