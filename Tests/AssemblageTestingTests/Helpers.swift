import Assemblage
import Foundation

final class Flag: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    func set() { lock.locked { value = true } }
    var isSet: Bool { lock.locked { value } }
}

final class Slot: @unchecked Sendable {  // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: Container?
    func set(_ container: Container) { lock.locked { stored = container } }
    var value: Container? { lock.locked { stored } }
}

extension NSLock {
    /// Runs `body` holding the lock (`NSLocking.withLock` needs newer Apple systems than the package supports).
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
