extension Container {
    /// Drops the instances kept by this container's own registrations, in every scope but `.singleton`.
    ///
    /// Unlike ``resetObjectScope(_:)`` this does not reach the fallback containers: a module's reset
    /// clears that module only.
    func _resetOwnInstances() {
        let live = writer.withLock { liveEntriesLocked() }
        for entry in live { entry._reset(matching: nil, includingSingletons: false) }
    }
}
