// What a library layered on Assemblage (the properties library) keeps per container: one value per type, under the
// container's lock, copied with the container into validation sandboxes. `package` access: for this package's
// other libraries, not for users.

extension Container {
    /// The value of type `Value` kept for this container, or `defaultValue()` when none is; read under the
    /// container's lock. A scope's view shares its container's.
    package func extensionState<Value: Sendable>(_: Value.Type, default defaultValue: @autoclosure () -> Value) -> Value
    {
        writer.withLock { hooks.extensionStorage[ObjectIdentifier(Value.self)] as? Value } ?? defaultValue()
    }

    /// Runs `body` on this container's value of type `Value` (starting from `defaultValue()`) under the container's
    /// lock, and keeps what it leaves unless it throws.
    package func updateExtensionState<Value: Sendable, Result>(
        _: Value.Type, default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws -> Result
    ) rethrows -> Result {
        try writer.withLock {
            var value = hooks.extensionStorage[ObjectIdentifier(Value.self)] as? Value ?? defaultValue()
            let result = try body(&value)
            hooks.extensionStorage[ObjectIdentifier(Value.self)] = value
            return result
        }
    }

    /// Whether this container has fallbacks (a parent among them): when not, `lookupChain()` is itself alone.
    package var hasFallbacks: Bool { writer.withLock { fallbackList != nil } }
}
