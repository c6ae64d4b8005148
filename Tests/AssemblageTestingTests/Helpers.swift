import Assemblage
import Foundation

final class Flag: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

final class Slot: @unchecked Sendable {  // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: Container?
    func set(_ container: Container) { lock.withLock { stored = container } }
    var value: Container? { lock.withLock { stored } }
}
