import Assemblage
import Testing

// How `autoregister(…, argument(s): …)` matches runtime arguments to an initializer's parameters: by type, in any
// declared order, by conversion when no parameter has the argument's own type, and a typed error (never a stop
// of the program) when an argument fits no parameter.

private final class NamedPetOwner {
    let name: String
    let pet: Animal
    init(name: String, pet: Animal) {
        self.name = name
        self.pet = pet
    }
}

private final class Shelter {
    let guest: Animal
    let resident: Cat
    init(guest: Animal, resident: Cat) {
        self.guest = guest
        self.resident = resident
    }
}

private final class Pair {
    let first: String
    let count: Int
    let second: String
    init(first: String, count: Int, second: String) {
        self.first = first
        self.count = count
        self.second = second
    }
}

private final class Visit {
    let pet: Animal?
    let owner: String
    init(pet: Animal?, owner: String) {
        self.pet = pet
        self.owner = owner
    }
}

@Suite struct AutoregistrationArgumentMatchingTests {
    @Test func argumentFillsAParameterOfAProtocolItConformsTo() throws {
        let container = Container()
        container.autoregister(Person.self, argument: Cat.self, initializer: Person.init)
        let person = try container.require(Person.self, argument: Cat(name: "Tom"))
        #expect(person.pet.name == "Tom")
    }

    @Test func argumentsMatchParametersInAnyDeclaredOrder() throws {
        let container = Container()
        container.autoregister(
            NamedPetOwner.self, arguments: Animal.self, String.self, initializer: NamedPetOwner.init)
        let owner = try container.require(NamedPetOwner.self, arguments: Dog() as Animal, "Ann")
        #expect(owner.name == "Ann")
        #expect(owner.pet is Dog)
    }

    @Test func exactTypeIsMatchedBeforeAConversion() throws {
        let container = Container()
        container.autoregister(Shelter.self, arguments: Cat.self, Dog.self, initializer: Shelter.init)
        let shelter = try container.require(Shelter.self, arguments: Cat(name: "Tom"), Dog(name: "Rex"))
        #expect(shelter.resident.name == "Tom")
        #expect(shelter.guest.name == "Rex")
    }

    @Test func twoArgumentsOfOneTypeFillItsParametersInOrder() throws {
        let container = Container()
        container.autoregister(Pair.self, arguments: String.self, Int.self, String.self, initializer: Pair.init)
        let pair = try container.require(Pair.self, arguments: "a", 2, "b")
        #expect(pair.first == "a" && pair.count == 2 && pair.second == "b")
    }

    @Test func argumentConvertsToAnOptionalParameter() throws {
        let container = Container()
        container.autoregister(Visit.self, arguments: String.self, Cat.self, initializer: Visit.init)
        let visit = try container.require(Visit.self, arguments: "Ann", Cat(name: "Tom"))
        #expect(visit.pet?.name == "Tom" && visit.owner == "Ann")
    }

    @Test func parameterWithoutAnArgumentIsResolved() throws {
        let container = Container()
        container.register(Animal.self) { _ in Dog(name: "registered") }
        container.autoregister(NamedPetOwner.self, argument: String.self, initializer: NamedPetOwner.init)
        let owner = try container.require(NamedPetOwner.self, argument: "Ann")
        #expect(owner.pet.name == "registered")
    }

    @Test func argumentThatFitsNoParameterIsATypedErrorAtResolveTime() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        // Registering does not stop the program, whatever the argument type.
        container.autoregister(Person.self, argument: String.self, initializer: Person.init)
        #expect(container.resolve(Person.self, argument: "Ann") == nil)
        let error = #expect(throws: ResolutionError.self) {
            try container.require(Person.self, argument: "Ann")
        }
        #expect(error?.code == .unusedArgument)
        #expect(error?.summary.contains("no parameter of its autoregistered initializer takes") == true)
        #expect(error?.suggestions.first?.contains("The runtime argument (a String) fits no parameter") == true)
        #expect(error?.suggestions.first?.contains("(Animal) -> Person") == true)
    }

    @Test func surplusArgumentOfATypeAlreadyTakenIsATypedError() {
        let container = Container()
        container.autoregister(Person.self, arguments: Cat.self, Dog.self, initializer: Person.init)
        let error = #expect(throws: ResolutionError.self) {
            try container.require(Person.self, arguments: Cat(), Dog())
        }
        #expect(error?.code == .unusedArgument)
        #expect(error?.suggestions.first?.contains("Runtime argument 2 of 2 (a Dog)") == true)
    }

    @Test func unusedArgumentFailsTheOuterResolutionThroughAFactory() {
        let container = Container()
        container.autoregister(Person.self, argument: String.self, initializer: Person.init)
        container.register(NamedPetOwner.self) { r in
            let person = try r.require(Person.self, argument: "Ann")
            return NamedPetOwner(name: "x", pet: person.pet)
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(NamedPetOwner.self) }
        #expect(error?.code == .unusedArgument)
        #expect(error?.key == ServiceKey(Person.self, argumentTypes: String.self))
    }
}
