import Testing

@testable import Assemblage

// A key is five words (its hash, argument count and option number share one) and a registration table numbers its
// entries with 32-bit counters: the edges of both, which ordinary registrations never reach.

/// Hashes every drawer alike: options told apart by `isEqualTo` alone.
private struct CollidingDrawer: ServiceKeyOption {
    let number: Int
    func isEqualTo(_ another: any ServiceKeyOption) -> Bool { (another as? CollidingDrawer)?.number == number }
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
    var description: String { "CollidingDrawer: \(number)" }
}

@Suite struct RegistrationKeyTests {
    @Test func keysOfManyOptionsStayDistinctAndGiveTheirOptionsBack() {
        let keys = (0..<500).map {
            ServiceKey(serviceType: Animal.self, argumentsType: Void.self, option: Shelf(number: $0))
        }
        #expect(Set(keys).count == 500)
        #expect(keys[321].option?.description == "Shelf: 321")
        #expect(
            keys[321] == ServiceKey(serviceType: Animal.self, argumentsType: Void.self, option: Shelf(number: 321)))
        #expect(keys[321] != ServiceKey(serviceType: Animal.self, argumentsType: Void.self))
        #expect(keys[321].argumentCount == 0)
    }

    @Test func optionsWhoseHashesCollideAreToldApartByEquality() {
        let first = ServiceKey(serviceType: Animal.self, argumentsType: Void.self, option: CollidingDrawer(number: 1))
        let second = ServiceKey(serviceType: Animal.self, argumentsType: Void.self, option: CollidingDrawer(number: 2))
        #expect(first != second)
        #expect(second.option?.description == "CollidingDrawer: 2")
        #expect(
            first == ServiceKey(serviceType: Animal.self, argumentsType: Void.self, option: CollidingDrawer(number: 1)))
    }

    @Test func argumentCountIsPartOfTheKeyBesideItsHash() {
        let three = ServiceKey(Animal.self, argumentTypes: Int.self, String.self, Bool.self)
        #expect(three.argumentCount == 3)
        #expect(three.hasArguments)
        // One argument of the tuple type against three arguments of its element types.
        let tuple = ServiceKey(
            serviceType: Animal.self, argumentsType: (Int, String, Bool).self, name: nil, argumentCount: 1)
        #expect(tuple != three)
        #expect(tuple.hashValue != three.hashValue || tuple != three)
    }

    @Test func keyWordKeepsTheWholeOptionNumberAndTheCount() {
        // The top option numbers set the word's top bit: it must come back unsigned.
        let bits = ServiceKey.bits(hash: .max, countedArguments: 255, optionID: 0xFF_FFFF)
        #expect(UInt32(truncatingIfNeeded: bits >> 40) == 0xFF_FFFF)
        #expect((bits >> 32) & 0xFF == 255)
        #expect(bits & 0xFFFF_FFFF == 0)  // `.max` folds to zero: the hash's halves cancel
    }

    @Test func aNegativeArgumentCountCountsZeroAndLeavesTheOptionAlone() {
        let key = ServiceKey(serviceType: Animal.self, argumentsType: Void.self, name: nil, argumentCount: -1)
        #expect(key.argumentCount == 0)
        #expect(key.option == nil)
        #expect(key == ServiceKey(serviceType: Animal.self, argumentsType: Void.self, name: nil, argumentCount: 0))
        #expect(key.hashValue == ServiceKey(Animal.self).hashValue)
    }

    @Test func entriesKeepTheirWordsWhereTheLibraryReadsThemWhateverTheServiceType() {
        struct Wide {
            let a: (Int, Int, Int, Int, Int)
            let b: String
        }
        #expect(_EntryLayout.isChecked)
        let container = Container()
        let entries: [Bool] = [
            container.register(Int.self) { _ in 1 }.wordStorageIsWhereWordsAre,
            container.register(String.self) { _ in "" }.wordStorageIsWhereWordsAre,
            container.register(Cat.self) { _ in Cat() }.wordStorageIsWhereWordsAre,
            container.register(Wide.self) { _ in Wide(a: (1, 2, 3, 4, 5), b: "") }.wordStorageIsWhereWordsAre,
            container.register(Animal.self, name: "n") { (_, n: Int) in Cat(name: "\(n)") }.wordStorageIsWhereWordsAre,
        ]
        #expect(entries == [true, true, true, true, true])
    }

    @Test func registrationOrderSurvivesTheCounterPassingThirtyTwoBits() {
        let container = Container()
        container.register(Animal.self, name: "a") { _ in Cat(name: "a") }
        container.register(Animal.self, name: "b") { _ in Cat(name: "b") }
        container.register(Animal.self, name: "c") { _ in Cat(name: "c") }
        // As if four billion registrations had come and gone: the next one takes the last 32-bit number, and the
        // one after it renumbers the table before it takes its own.
        container.writer.withLock { container.registry.lastOrder = .max - 1 }
        container.register(Animal.self, name: "d") { _ in Cat(name: "d") }
        #expect(container.writer.withLock { container.registry.lastOrder } == .max)
        container.register(Animal.self, name: "e") { _ in Cat(name: "e") }
        container.register(Animal.self, name: "b") { _ in Cat(name: "b2") }  // a replacement counts as the latest
        #expect(container.writer.withLock { container.registry.lastOrder } == 6)
        let names = container.currentEntries.map { $0.key.name ?? "" }
        #expect(names == ["a", "c", "d", "e", "b"])
        #expect(container.resolve(Animal.self, name: "b")?.name == "b2")
        #expect(container.resolve(Animal.self, name: "d")?.name == "d")
    }
}
