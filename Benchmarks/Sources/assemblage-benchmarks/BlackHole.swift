// Keeps the optimiser from deleting the work being measured. Imports neither library.

/// Where every measured result goes. Public and read at exit, so stores to it cannot be removed.
public nonisolated(unsafe) var blackHoleSink: AnyObject?

/// Consumes a result: the object escapes to a global, so it must really be built (no stack
/// promotion, no dead-code elimination), and the call cannot be hoisted out of the loop.
/// Storing releases the previous result, so a transient's deallocation is part of its cost,
/// the same for every contestant.
@inline(never)
public func blackHole(_ value: AnyObject?) {
    blackHoleSink = value
}

/// Read once at exit so that the sink is observably used.
@inline(never)
func drainBlackHole() -> Bool {
    defer { blackHoleSink = nil }
    return blackHoleSink != nil
}
