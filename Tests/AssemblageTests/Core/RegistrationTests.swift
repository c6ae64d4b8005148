import Assemblage
import Testing

@Suite struct RegistrationTests {
    @Test func resolvesRegisteredService() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        #expect(container.resolve(Animal.self)?.name == "Mimi")
    }

    @Test func infersServiceTypeFromFactory() {
        let container = Container()
        container.register { _ in Cat(name: "Inferred") as Animal }
        #expect(container.resolve(Animal.self)?.name == "Inferred")
        #expect(container.resolve(Cat.self) == nil)
    }

    @Test func unregisteredTypeResolvesToNil() {
        #expect(Container().resolve(Animal.self) == nil)
    }

    @Test func resolvesNamedRegistrationAmongMany() {
        let container = Container()
        for index in 0..<10 {
            container.register(Animal.self, name: "cat\(index)") { _ in Cat(name: "cat\(index)") }
        }
        container.register(Animal.self) { _ in Dog() }
        #expect(container.resolve(Animal.self, name: "cat7")?.name == "cat7")
        #expect(container.resolve(Animal.self)?.name == "Rex")
        #expect(container.resolve(Animal.self, name: "cat10") == nil)
    }

    @Test func namedLookupDoesNotFallBackToUnnamed() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        #expect(container.resolve(Animal.self, name: "other") == nil)
    }

    @Test func laterRegistrationReplacesEarlierWithSameKey() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.register(Animal.self) { _ in Dog() }
        #expect(container.resolve(Animal.self)?.name == "Rex")
    }

    @Test func factoryReceivesResolverForDependencies() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.register(Person.self) { r in Person(pet: r.resolve(Animal.self)!) }
        #expect(container.resolve(Person.self)?.pet.name == "Mimi")
    }

    @Test func manyRegistrationsGrowTheTableAndStayResolvable() {
        let container = Container()
        for index in 0..<2_000 {
            container.register(Int.self, name: "n\(index)") { _ in index }
        }
        for index in stride(from: 0, to: 2_000, by: 37) {
            #expect(container.resolve(Int.self, name: "n\(index)") == index)
        }
    }

    @Test func removeAllDropsRegistrations() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        #expect(container.hasAnyRegistration)
        container.removeAll()
        #expect(container.resolve(Animal.self) == nil)
        #expect(!container.hasAnyRegistration)
        container.register(Animal.self) { _ in Dog() }
        #expect(container.resolve(Animal.self)?.name == "Rex")
    }

    @Test func hasAnyRegistrationChecksTypeAndName() {
        let parent = Container()
        parent.register(Animal.self, name: "cat") { _ in Cat() }
        let child = Container(parent: parent)
        child.register(Food.self) { _ in Fish() }
        #expect(child.hasAnyRegistration(of: Food.self))
        #expect(child.hasAnyRegistration(of: Animal.self, name: "cat"))
        #expect(!child.hasAnyRegistration(of: Animal.self))
        #expect(!parent.hasAnyRegistration(of: Food.self))
    }

    @Test func emptyNameIsANameOfItsOwn() {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "unnamed") }
        container.register(Animal.self, name: "") { _ in Cat(name: "empty") }
        #expect(container.resolve(Animal.self)?.name == "unnamed")
        #expect(container.resolve(Animal.self, name: "")?.name == "empty")
        #expect(ServiceKey(Animal.self, name: "") != ServiceKey(Animal.self))
        #expect(ServiceKey(Animal.self, name: "").name == "")
        #expect(ServiceKey(Animal.self).name == nil)
        #expect(ServiceKey(Animal.self, name: "", argumentTypes: Int.self).argumentCount == 1)
        #expect(
            ServiceKey(Animal.self, name: "", argumentTypes: Int.self).description
                == "Animal (name: \"\", arguments: Int)")
    }

    @Test func namesSurviveTableGrowthAndRemoveAll() {
        let container = Container()
        for round in 0..<2 {
            for index in 0..<300 {
                container.register(Int.self, name: "n\(index)") { _ in index + round }
            }
            #expect(container.resolve(Int.self, name: "n0") == round)
            #expect(container.resolve(Int.self, name: "n299") == 299 + round)
            #expect(container.resolve(Int.self) == nil)
            container.removeAll()
            #expect(container.resolve(Int.self, name: "n0") == nil)
        }
    }

    @Test func replacementsAndForwardersAmongManyAreFoundByTheirOwnKeysAfterGrowth() {
        // The table compares each entry's own key: a replacement keeps its key's place, a forwarder answers for the
        // type it forwards, and growth re-files every entry by its key.
        let container = Container()
        for index in 0..<400 {
            container.register(Int.self, name: "n\(index)") { _ in index }
        }
        for index in stride(from: 0, to: 400, by: 2) {
            container.register(Int.self, name: "n\(index)") { _ in -index }
        }
        container.register(Cat.self) { _ in Cat(name: "Tom") }.implements(Animal.self, name: "pet")
        for index in 400..<1_200 {
            container.register(String.self, name: "s\(index)") { _ in "\(index)" }
        }
        #expect(container.resolve(Int.self, name: "n0") == 0)
        #expect(container.resolve(Int.self, name: "n1") == 1)
        #expect(container.resolve(Int.self, name: "n398") == -398)
        #expect(container.resolve(Int.self, name: "n399") == 399)
        #expect(container.resolve(Int.self, name: "n400") == nil)
        #expect(container.resolve(Animal.self, name: "pet")?.name == "Tom")
        #expect(container.resolve(Animal.self) == nil)
        #expect(container.resolve(String.self, name: "s1199") == "1199")
        #expect(container.resolve(String.self, name: "n0") == nil)
    }

    @Test func behaviorAddedLaterIsToldOfLaterRegistrationsOnly() {
        let container = Container()
        container.register(Cat.self, name: "before") { _ in Cat() }
        let recorder = RegistrationRecorder()
        container.addBehavior(recorder)
        container.register(Cat.self, name: "after") { _ in Cat() }
        #expect(recorder.seen == ["Cat/Cat/after"])
    }

    @Test func anEntryOutlivingItsContainerForwardsNowhere() {
        var container: Container? = Container()
        let entry = container!.register(Cat.self) { _ in Cat() }.inObjectScope(.container)
        _ = container!.resolve(Cat.self)
        weak let gone = container
        container = nil
        #expect(gone == nil)
        entry.implements(Animal.self)  // its container is gone: nothing to add the forward to
        #expect(entry.objectScope === ObjectScope.container)
    }

    @Test func behaviorIsNotifiedOfRegistrationsAndForwards() {
        let recorder = RegistrationRecorder()
        let container = Container(behaviors: [recorder])
        container.register(Cat.self, name: "c") { _ in Cat() }.implements(Animal.self)
        #expect(recorder.seen == ["Cat/Cat/c", "Animal/Cat/-"])
    }

    @Test func registeringClosureRunsAtInit() {
        let container = Container { $0.register(Animal.self) { _ in Dog() } }
        #expect(container.resolve(Animal.self)?.name == "Rex")
    }

    @Test func synchronizeReturnsAWorkingResolver() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        #expect(container.synchronize().resolve(Animal.self)?.name == "Mimi")
    }

    @Test func debugDescriptionListsRegistrationsWithScopeAndSite() {
        let container = Container(label: "app")
        container.register(Animal.self, name: "cat") { _ in Cat() }.inObjectScope(.container)
        let text = container.debugDescription
        #expect(text.contains("app: 1 registration\n"))
        #expect(text.contains("Animal (name: \"cat\") — scope: container"))
        #expect(text.contains("RegistrationTests.swift"))
    }

    @Test func entryRecordsRegistrationSite() {
        let entry = Container().register(Animal.self) { _ in Cat() }
        #expect(entry.site.file.hasSuffix("RegistrationTests.swift"))
        #expect(entry.site.line > 0)
    }
}

/// A behavior that records each registration it is told of as "type/service/name" ("-" for no name).
private final class RegistrationRecorder: Behavior, @unchecked Sendable {  // @unchecked: used on one thread.
    var seen: [String] = []
    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {
        seen.append("\(Type.self)/\(Service.self)/\(name ?? "-")")
    }
}
