/// Storages that keep instances per graph and must forget a graph when it ends.
///
/// `InstanceStorage.graphResolutionCompleted()` (Swinject's hook) does not say which graph ended, and several
/// graphs may be running at once on different threads; without the identifier, `GraphStorage` could only keep
/// every graph's instance forever (one strong instance per top-level resolution: an unbounded leak).
protocol _GraphScopedStorage: AnyObject {
    /// Drops what is kept for `graph`. Called under the creation coordinator's lock.
    func _forget(_ graph: GraphIdentifier)
}

extension InstanceStorage {
    /// Tells the storage that the top-level resolution `graph` (which touched it) ended. Called under the
    /// creation coordinator's lock.
    func _finishGraph(_ graph: GraphIdentifier?) {
        graphResolutionCompleted()
        if let graph, let scoped = self as? any _GraphScopedStorage { scoped._forget(graph) }
    }
}
