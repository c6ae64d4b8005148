import Assemblage
import Dispatch
import Foundation

// Fixtures for the concurrency tests: main-actor view models, actor-backed services, and helpers that run
// code on a thread that is certainly not the main thread.

/// A view model whose initialiser is isolated to the main actor.
@MainActor final class ProfileModel {
    let title: String
    /// Whether the initialiser ran on the main queue, the main actor's executor (on Linux that is not
    /// necessarily the main thread).
    let madeOnMainQueue: Bool
    init(title: String = "Profile") {
        self.title = title
        madeOnMainQueue = isOnMainQueue()
    }
}

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main dispatch queue.
func isOnMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

/// A nonisolated screen that needs the main-actor view model: a synchronous path into a main-actor factory.
final class MainActorProfileScreen: Sendable {
    let model: ProfileModel
    init(model: ProfileModel) { self.model = model }
}

/// A service whose construction awaits.
actor SessionStore {
    let user: String
    init(user: String = "ada", delayNanoseconds: UInt64 = 0, counter: Counter? = nil) async {
        counter?.increment()
        if delayNanoseconds > 0 { try? await Task.sleep(nanoseconds: delayNanoseconds) }
        self.user = user
    }
    func greeting() -> String { "Hello, \(user)" }
}

/// A plain class made by async factories in graph tests.
final class Node: @unchecked Sendable {  // @unchecked: immutable after init; only compared by identity.
    let children: [Node]
    init(_ children: [Node] = []) { self.children = children }
}

/// A synchronous service that depends on an async one: a synchronous path into an async factory.
final class SessionReporter {
    let store: SessionStore
    init(store: SessionStore) { self.store = store }
}

struct Flaky: Error, CustomStringConvertible {
    var description: String { "flaky" }
}

/// Runs `body` on a thread that is not the main thread and returns its result.
func offMainThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Holds a value that one task sets and another reads.
final class Slot<T>: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.locked { stored } }
        set { lock.locked { stored = newValue } }
    }
}

extension NSLock {
    /// Runs `body` holding the lock (`NSLocking.withLock` needs newer Apple systems than the package supports).
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Runs `operation` in its own task and returns its result, or `nil` if it has not finished within
/// `seconds` of starting (the operation is then left running): a test of "does not hang" that cannot hang itself.
/// The clock starts when the operation's task does: under a full test run (and a sanitizer) the cooperative pool
/// can be busy with other tests for a long while before it runs, which is no hang of the operation's.
func finishing<T: Sendable>(within seconds: Double, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let claimed = Slot<Bool>()
    let lock = NSLock()
    func claim() -> Bool {
        lock.locked {
            if claimed.value == true { return false }
            claimed.value = true
            return true
        }
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        Task {
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if claim() { continuation.resume(returning: nil) }
            }
            let value = await operation()
            if claim() { continuation.resume(returning: value) }
        }
    }
}
