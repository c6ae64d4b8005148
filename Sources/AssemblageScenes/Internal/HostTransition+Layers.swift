extension HostTransition {
    /// Applies the transition to what a host shows, kept as `layers`: the root navigation stack first, then each
    /// modal, each holding its views bottom first (``HeadlessNavigationHost`` and ``TerminalNavigationHost`` keep
    /// that list). A push needs a layer to push onto, a pop keeps a layer's bottom view and a dismiss keeps the root:
    /// the coordinator never asks for more, but a host that applies a user's Back or swipe itself may.
    ///
    /// - Parameters:
    ///   - layers: The layers, changed in place.
    ///   - views: A layer's views.
    ///   - newLayer: A new layer of one view; the flag says whether it is a navigation stack.
    /// - Returns: Whether anything changed.
    @discardableResult
    func apply<Layer>(
        to layers: inout [Layer], views: WritableKeyPath<Layer, [View]>,
        newLayer: (View, _ isNavigationStack: Bool) -> Layer
    ) -> Bool {
        switch self {
        case .setRoot(let view):
            layers = [newLayer(view, true)]
        case .push(let view):
            guard !layers.isEmpty else { return false }
            layers[layers.count - 1][keyPath: views].append(view)
        case .pop:
            guard let top = layers.indices.last, layers[top][keyPath: views].count > 1 else { return false }
            layers[top][keyPath: views].removeLast()
        case .present(let view, let inNavigationStack):
            layers.append(newLayer(view, inNavigationStack))
        case .dismiss:
            guard layers.count > 1 else { return false }
            layers.removeLast()
        }
        return true
    }
}
