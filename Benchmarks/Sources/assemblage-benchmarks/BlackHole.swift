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

/// The same for code running on several threads at once: every worker stores into its own slot
/// (a local variable), because two threads storing into `blackHoleSink` would race on the release
/// of the previous value.
@inline(never)
public func blackHole(_ value: AnyObject?, into slot: inout AnyObject?) {
    slot = value
}

/// What the setup workloads built (containers, assemblers), kept until the harness releases them
/// after the timed batch: tearing down 10,000 registrations is not part of making them.
nonisolated(unsafe) var keptResults: [AnyObject] = []

/// Keeps a setup workload's result alive until `settle()`, outside the timed region.
@inline(never)
func keepAlive(_ value: AnyObject) {
    keptResults.append(value)
}

/// Called by the harness after every timed call, with the clock stopped: releases what setup
/// workloads kept and the black hole's last result, so that no contestant's batch pays for
/// releasing another contestant's objects.
func settle() {
    keptResults.removeAll(keepingCapacity: true)
    blackHoleSink = nil
}
