import Assemblage
import Testing

// The code of the "Autoregistration" article, compiled and run (see GettingStartedDocTests.swift).

enum AutoregistrationDoc {
    // snippet: autoregistration-types
    protocol Animal: AnyObject, Sendable {
        var name: String { get }
    }

    final class Cat: Animal {
        let name: String
        init() { name = "Mimi" }
    }

    final class Vet: Sendable {}

    protocol Person: AnyObject {}

    final class PetOwner: Person {
        let pet: Animal
        let vet: Vet
        init(pet: Animal, vet: Vet) {
            self.pet = pet
            self.vet = vet
        }
    }
    // end-snippet

    final class Visit {
        let owner: String
        let pet: Animal
        let vet: Vet
        init(owner: String, pet: Animal, vet: Vet) {
            self.owner = owner
            self.pet = pet
            self.vet = vet
        }
    }

    final class Walker {
        let pet: Animal
        let vet: Vet?
        init(pet: Animal, vet: Vet?) {
            self.pet = pet
            self.vet = vet
        }
    }

    @Suite("Docs: Autoregistration") struct Samples {
        @Test func basic() throws {
            // snippet: autoregistration-basic
            let container = Container()
            container.register(Animal.self) { _ in Cat() }
            container.register(Vet.self) { _ in Vet() }.inObjectScope(.container)
            container.autoregister(Person.self, initializer: PetOwner.init)

            let owner = try container.require(Person.self) as! PetOwner  // owner.pet is the Cat
            // end-snippet
            #expect(owner.pet.name == "Mimi")
        }

        @Test func equivalentFactory() throws {
            let container = Container()
            container.register(Animal.self) { _ in Cat() }
            container.register(Vet.self) { _ in Vet() }
            // snippet: autoregistration-equivalent
            container.register(Person.self) { r in
                PetOwner(pet: try r.require(Animal.self), vet: try r.require(Vet.self))
            }
            // end-snippet
            #expect(container.resolve(Person.self) is PetOwner)
        }

        @Test func nameAndScope() throws {
            let container = Container()
            container.register(Animal.self) { _ in Cat() }
            container.register(Vet.self) { _ in Vet() }
            // snippet: autoregistration-name-scope
            container.autoregister(Person.self, name: "johnny", initializer: PetOwner.init)
                .inObjectScope(.container)

            let johnny = container.resolve(Person.self, name: "johnny")
            // end-snippet
            #expect(johnny != nil && johnny === container.resolve(Person.self, name: "johnny"))
        }

        @Test func arguments() throws {
            let container = Container()
            container.register(Animal.self) { _ in Cat() }
            container.register(Vet.self) { _ in Vet() }
            // snippet: autoregistration-arguments
            // Visit(owner: String, pet: Animal, vet: Vet): the owner is given, the rest resolved
            container.autoregister(Visit.self, argument: String.self, initializer: Visit.init)
            let visit = try container.require(Visit.self, argument: "Ada")

            // Both the owner and the pet given, in the order resolve passes them
            container.autoregister(Visit.self, arguments: Animal.self, String.self, initializer: Visit.init)
            let other = try container.require(Visit.self, arguments: Cat() as Animal, "Grace")
            // end-snippet
            #expect(visit.owner == "Ada" && visit.pet.name == "Mimi")
            #expect(other.owner == "Grace")
        }

        @Test func optionalParameter() throws {
            let container = Container()
            container.register(Animal.self) { _ in Cat() }
            // snippet: autoregistration-optional
            // Walker(pet: Animal, vet: Vet?): no Vet is registered, so vet is nil
            container.autoregister(Walker.self, initializer: Walker.init)
            let walker = try container.require(Walker.self)
            // end-snippet
            #expect(walker.vet == nil)
        }

        @Test func failure() {
            var message = ""
            // snippet: autoregistration-failure
            let container = Container()
            container.register(Animal.self) { _ in Cat() }
            container.autoregister(Person.self, initializer: PetOwner.init)
            do {
                _ = try container.require(Person.self)
            } catch {
                print(error)  // names Vet, parameter 2 of 2 of PetOwner.init
            }
            // end-snippet
            do {
                _ = try container.require(Person.self)
            } catch {
                message = error.description
                #expect(error.code == .notRegistered)
                #expect(error.key == ServiceKey(Vet.self))
            }
            #expect(container.resolve(Person.self) == nil)
            #expect(
                message.hasPrefix(
                    """
                    No registration for Vet.
                      Resolution path: Person → Vet
                      Nothing is registered for Vet under any name or argument list.
                      Fix: Vet is parameter 2 of 2 of the initializer (Animal, Vet) -> Person autoregistered at \
                    AssemblageTests/AutoregistrationDocTests.swift:
                    """))
            #expect(
                message.hasSuffix(
                    """
                    : register Vet, make the parameter optional (Vet?) to receive nil when it is missing, or pass it \
                    at resolve time by listing Vet.self in `autoregister(Person.self, arguments: …)`.
                    """))
        }

        @Test func operators() throws {
            let container = Container()
            container.register(Vet.self) { _ in Vet() }
            container.register(Animal.self, name: "mimi") { _ in Cat() }
            // snippet: autoregistration-operators
            container.register(Person.self) { r in
                PetOwner(pet: r ~> (Animal.self, name: "mimi"), vet: r~>)
            }
            let owner: Person = container~>  // container.resolve(Person.self)!
            let vet = container ~> Vet.self
            // end-snippet
            #expect((owner as? PetOwner)?.pet.name == "Mimi")
            _ = vet
        }

        @Test func operatorsWithArguments() throws {
            let container = Container()
            container.register(Vet.self) { _ in Vet() }
            container.register(Animal.self) { _ in Cat() }
            container.autoregister(Visit.self, argument: String.self, initializer: Visit.init)
            container.autoregister(Visit.self, arguments: Animal.self, String.self, initializer: Visit.init)
            let cat = Cat()
            // snippet: autoregistration-operator-arguments
            let visit = container ~> (Visit.self, argument: "Ada")
            let other = container ~> (Visit.self, arguments: (cat as Animal, "Grace"))
            // end-snippet
            #expect(visit.owner == "Ada")
            #expect(other.pet === cat)
        }
    }
}
