import Assemblage
import Testing

// Code in the shape Swinject 2.10 users write it, compiled against Assemblage. If this file stops compiling,
// source compatibility broke.

private protocol PersonType { var pet: AnimalType? { get } }
private protocol AnimalType { var name: String? { get } }

private final class Human: PersonType {
    var pet: AnimalType?
    init(pet: AnimalType?) { self.pet = pet }
}

private final class Kitten: AnimalType {
    let name: String?
    init(name: String?) { self.name = name }
}

private final class Horse: AnimalType {
    let name: String?
    var running = false
    init(name: String, running: Bool) {
        self.name = name
        self.running = running
    }
}

private final class PetOwner: PersonType {
    var pet: AnimalType?
    init() {}
}

private struct CountingBehavior: Behavior {
    let counter: Counter
    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {
        counter.increment()
    }
}

private struct SeedAssembly: AssemblyType {
    func assemble(container: Container) {
        container.register(AnimalType.self) { _ in Kitten(name: "Seed") }
    }
}

@Suite struct SwinjectCompatibilityTests {
    @Test func seedNamesAssemblyTypeAndResolverTypeAreTheSameProtocols() {
        let assembler = Assembler([SeedAssembly()])
        let resolver: ResolverType = assembler.resolver
        #expect(resolver.resolve(AnimalType.self)?.name == "Seed")
        let assemblies: [any Assembly] = [SeedAssembly() as any AssemblyType]
        #expect(assemblies.count == 1)
    }

    @Test func readmeStyleRegistrationAndResolution() {
        let container = Container()
        container.register(AnimalType.self) { _ in Kitten(name: "Mimi") }
        container.register(PersonType.self) { r in
            Human(pet: r.resolve(AnimalType.self)!)
        }
        let person = container.resolve(PersonType.self)!
        #expect(person.pet?.name == "Mimi")
    }

    @Test func argumentsUpToThreeInSwinjectSpelling() {
        let container = Container()
        container.register(AnimalType.self) { (_, name: String) in Kitten(name: name) }
        container.register(AnimalType.self) { _, name, running in Horse(name: name, running: running) }
        container.register(AnimalType.self, name: "3") { (_, a: String, b: Bool, c: Int) in Horse(name: a, running: b) }
        let kitten = container.resolve(AnimalType.self, argument: "Mew")
        let horse = container.resolve(AnimalType.self, arguments: "Spirit", true) as? Horse
        let third = container.resolve(AnimalType.self, name: "3", arguments: "Third", false, 3)
        #expect(kitten?.name == "Mew")
        #expect(horse?.running == true)
        #expect(third?.name == "Third")
    }

    @Test func inferredArgumentTypeFollowsTheInitializerAsInSwinject() {
        let container = Container()
        container.register(AnimalType.self) { _, name in Kitten(name: name) }  // name: String? (from Kitten.init)
        #expect(container.resolve(AnimalType.self, argument: "Mew") == nil)
        #expect(container.resolve(AnimalType.self, argument: Optional("Mew"))?.name == "Mew")
        #expect(throws: ResolutionError.self) {
            do {
                _ = try container.require(AnimalType.self, argument: "Mew")
            } catch {
                #expect(
                    String(describing: error).contains(
                        "Registered for AnimalType: AnimalType (arguments: Optional<String>)"))
                throw error
            }
        }
    }

    @Test func propertyInjectionWithInitCompleted() {
        let container = Container()
        container.register(AnimalType.self) { _ in Kitten(name: "Mimi") }
        container.register(PersonType.self) { _ in PetOwner() }
            .initCompleted { r, p in
                let owner = p as! PetOwner
                owner.pet = r.resolve(AnimalType.self)
            }
        #expect(container.resolve(PersonType.self)?.pet?.name == "Mimi")
    }

    @Test func scopesHierarchyAndAssemblerSpellings() {
        let counter = Counter()
        let parent = Container(defaultObjectScope: .graph, behaviors: [CountingBehavior(counter: counter)])
        parent.register(AnimalType.self) { _ in Kitten(name: "p") }.inObjectScope(ObjectScope.container)
        let child = Container(parent: parent)
        #expect((child.resolve(AnimalType.self) as? Kitten) === (parent.resolve(AnimalType.self) as? Kitten))
        parent.resetObjectScope(ObjectScope.container)
        parent.resetObjectScope(.container, serviceType: AnimalType.self)
        #expect(counter.count == 1)
        #expect(parent.hasAnyRegistration(of: AnimalType.self))

        let threadSafe: Resolver = child.synchronize()
        #expect(threadSafe.resolve(AnimalType.self, name: nil) != nil)

        let assembler = Assembler(container: Container())
        assembler.apply(assembly: KittenAssembly())
        assembler.apply(assemblies: [KittenAssembly()])
        #expect(assembler.resolver.resolve(AnimalType.self) != nil)
    }

    @Test func typeForwardingAndWrappers() {
        let container = Container()
        let entry = container.register(Kitten.self) { _ in Kitten(name: "f") }
        container.forward(AnimalType.self, to: entry)
        #expect(container.resolve(AnimalType.self)?.name == "f")
        let lazy = container.resolve(Lazy<Kitten>.self)!
        let provider = container.resolve(Provider<Kitten>.self)!
        #expect(lazy.instance.name == provider.instance.name)
    }

    @Test func customScopeWithSwinjectStorages() {
        let custom = ObjectScope(
            storageFactory: PermanentStorage.init, description: "custom", parent: ObjectScope.graph)
        let container = Container()
        container.register(Kitten.self) { _ in Kitten(name: nil) }.inObjectScope(custom)
        #expect(container.resolve(Kitten.self) === container.resolve(Kitten.self))
        container.removeAll()
        #expect(container.resolve(Kitten.self) == nil)
    }
}

private struct KittenAssembly: Assembly {
    func assemble(container: Container) {
        container.register(AnimalType.self) { _ in Kitten(name: "assembled") }
    }
}
