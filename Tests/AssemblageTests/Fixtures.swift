import Assemblage
import Foundation

// Small domain fixtures shared by the tests.

protocol Animal: AnyObject { var name: String { get } }

final class Cat: Animal {
    let name: String
    let age: Int
    init(name: String = "Mimi", age: Int = 1) {
        self.name = name
        self.age = age
    }
}

final class Dog: Animal {
    let name: String
    init(name: String = "Rex") { self.name = name }
}

/// A `ServiceKeyOption` told apart by its number (a SwinjectStoryboard-style discriminator).
struct Shelf: ServiceKeyOption {
    let number: Int
    func isEqualTo(_ another: any ServiceKeyOption) -> Bool { (another as? Shelf)?.number == number }
    func hash(into hasher: inout Hasher) { hasher.combine(number) }
    var description: String { "Shelf: \(number)" }
}

protocol Food {}
final class Fish: Food {}

final class Person {
    let pet: Animal
    init(pet: Animal) { self.pet = pet }
}

/// Counts constructions, safely from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

final class Counted {
    init(_ counter: Counter) { counter.increment() }
}

/// A box for sending non-Sendable values across a test boundary on purpose.
struct UncheckedBox<T>: @unchecked Sendable { let value: T }

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}
