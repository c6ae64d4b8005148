import Assemblage
import Testing

/// A graph of objects where two parts need the same dependency.
final class Engine {}
final class Wheel {
    let engine: Engine
    init(engine: Engine) { self.engine = engine }
}
final class Car {
    let engine: Engine
    let wheel: Wheel
    init(engine: Engine, wheel: Wheel) {
        self.engine = engine
        self.wheel = wheel
    }
}

@Suite struct ScopeTests {
    func carContainer(engineScope: ObjectScope) -> Container {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(engineScope)
        container.register(Wheel.self) { r in Wheel(engine: r.resolve(Engine.self)!) }
        container.register(Car.self) { r in Car(engine: r.resolve(Engine.self)!, wheel: r.resolve(Wheel.self)!) }
        return container
    }

    @Test func transientMakesANewInstanceEveryTime() throws {
        let car = try #require(carContainer(engineScope: .transient).resolve(Car.self))
        #expect(car.engine !== car.wheel.engine)
    }

    @Test func graphSharesWithinOneResolutionOnly() throws {
        let container = carContainer(engineScope: .graph)
        let first = try #require(container.resolve(Car.self))
        let second = try #require(container.resolve(Car.self))
        #expect(first.engine === first.wheel.engine)
        #expect(first.engine !== second.engine)
    }

    @Test func graphIsTheDefaultScope() {
        let entry = Container().register(Engine.self) { _ in Engine() }
        #expect(entry.objectScope === ObjectScope.graph)
    }

    @Test func perContainerDefaultScopeApplies() {
        let container = Container(defaultObjectScope: .container)
        container.register(Engine.self) { _ in Engine() }
        #expect(container.resolve(Engine.self) === container.resolve(Engine.self))
    }

    @Test func containerScopeKeepsOneInstance() {
        let container = carContainer(engineScope: .container)
        #expect(container.resolve(Car.self)!.engine === container.resolve(Car.self)!.engine)
    }

    @Test func containerScopeIsSharedWithChildContainers() {
        let parent = Container()
        parent.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        let child1 = Container(parent: parent)
        let child2 = Container(parent: parent)
        #expect(child1.resolve(Engine.self) === child2.resolve(Engine.self))
        #expect(child1.resolve(Engine.self) === parent.resolve(Engine.self))
    }

    @Test func resetObjectScopeDiscardsInstances() {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        let first = container.resolve(Engine.self)
        container.resetObjectScope(.container)
        #expect(container.resolve(Engine.self) !== first)
    }

    @Test func resetReleasesTheInstance() {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        weak let held = container.resolve(Engine.self)
        #expect(held != nil)
        container.resetObjectScope(.container)
        #expect(held == nil)
    }

    @Test(arguments: [ObjectScope.container, .singleton])
    func sharedClassesValuesAndExistentialsAreMadeOnceAndAResetOfTheirScopeReleasesThem(scope: ObjectScope) {
        // A class instance is kept as itself, anything else in a box: both are made once, and a reset of `.container`
        // lets go of them (a singleton outlives it).
        let container = Container()
        let made = Counter()
        container.register(Engine.self) { _ in
            made.increment()
            return Engine()
        }.inObjectScope(scope)
        container.register(Animal.self) { _ in
            made.increment()
            return Cat()
        }.inObjectScope(scope)
        container.register(Int.self) { _ in
            made.increment()
            return 42
        }.inObjectScope(scope)
        container.register(String.self) { _ in
            made.increment()
            return "tag"
        }.inObjectScope(scope)
        weak let engine = container.resolve(Engine.self)
        weak let animal = container.resolve(Animal.self) as? Cat
        for _ in 0..<3 {
            #expect(container.resolve(Engine.self) === engine)
            #expect(container.resolve(Animal.self) as? Cat === animal)
            #expect(container.resolve(Int.self) == 42)
            #expect(container.resolve(String.self) == "tag")
        }
        #expect(made.count == 4)
        container.resetObjectScope(scope)
        if scope === ObjectScope.singleton {
            // A singleton outlives resets of its scope.
            #expect(engine != nil && animal != nil)
            #expect(container.resolve(Int.self) == 42)
            #expect(made.count == 4)
        } else {
            #expect(engine == nil)
            #expect(animal == nil)
            #expect(container.resolve(Int.self) == 42)
            #expect(made.count == 5)
        }
    }

    @Test func resetOfOneTypeLeavesOthers() {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        container.register(Cat.self) { _ in Cat() }.inObjectScope(.container)
        let engine = container.resolve(Engine.self)
        let cat = container.resolve(Cat.self)
        container.resetObjectScope(.container, serviceType: Engine.self)
        #expect(container.resolve(Engine.self) !== engine)
        #expect(container.resolve(Cat.self) === cat)
    }

    @Test func singletonSurvivesResets() {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.singleton)
        let first = container.resolve(Engine.self)
        container.resetObjectScope(.container)
        container.resetObjectScope(.singleton)
        #expect(container.resolve(Engine.self) === first)
    }

    @Test func weakScopeSharesWhileHeldAndRemakesAfterRelease() {
        let counter = Counter()
        let container = Container()
        container.register(Counted.self) { _ in Counted(counter) }.inObjectScope(.weak)
        var strong: Counted? = container.resolve(Counted.self)
        #expect(container.resolve(Counted.self) === strong)
        #expect(counter.count == 1)
        strong = nil
        _ = strong
        _ = container.resolve(Counted.self)
        #expect(counter.count == 2)
    }

    @Test func customScopeUsesItsStorageAndResets() {
        let session = ObjectScope(storageFactory: PermanentStorage.init, description: "session")
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(session)
        container.register(Cat.self) { _ in Cat() }.inObjectScope(.container)
        let engine = container.resolve(Engine.self)
        let cat = container.resolve(Cat.self)
        #expect(container.resolve(Engine.self) === engine)
        container.resetObjectScope(session)
        #expect(container.resolve(Engine.self) !== engine)
        #expect(container.resolve(Cat.self) === cat)
    }

    @Test func customGraphStorageScopeBehavesLikeGraph() throws {
        let perGraph = ObjectScope(storageFactory: GraphStorage.init, description: "per-graph")
        let container = carContainer(engineScope: perGraph)
        let first = try #require(container.resolve(Car.self))
        let second = try #require(container.resolve(Car.self))
        #expect(first.engine === first.wheel.engine)
        #expect(first.engine !== second.engine)
    }

    @Test(arguments: [ObjectScope.transient, .graph, .container, .weak, .singleton])
    func everyScopeResolvesValueTypes(scope: ObjectScope) {
        let container = Container()
        container.register(Int.self) { _ in 42 }.inObjectScope(scope)
        #expect(container.resolve(Int.self) == 42)
        #expect(container.resolve(Int.self) == 42)
    }

    @Test func removeAllReleasesSingletons() {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.singleton)
        weak let held = container.resolve(Engine.self)
        #expect(held != nil)
        container.removeAll()
        #expect(held == nil)
    }

    @Test func droppedContainerFreesItsInstances() {
        weak var engine: Engine?
        weak var weakContainer: Container?
        do {
            let container = Container()
            container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
            engine = container.resolve(Engine.self)
            weakContainer = container
        }
        #expect(weakContainer == nil)
        #expect(engine == nil)
    }
}

/// Resolves again from its deinit, while the graph that made it is being cleared.
final class ResolvesOnDeinit {
    let container: Container
    init(container: Container) { self.container = container }
    deinit { _ = container.resolve(Car.self) }
}

@Suite struct GraphTeardownTests {
    @Test func deinitThatResolvesDuringGraphTeardownIsSafe() {
        let container = ScopeTests().carContainer(engineScope: .graph)
        container.register(ResolvesOnDeinit.self) { r in ResolvesOnDeinit(container: (r as! Container)) }
        container.register(Wheel.self, name: "holder") { r in
            _ = r.resolve(ResolvesOnDeinit.self)  // graph-scoped, nested: kept in the graph until it ends
            return Wheel(engine: r.resolve(Engine.self)!)
        }
        for _ in 0..<100 { #expect(container.resolve(Wheel.self, name: "holder") != nil) }
    }
}

@Suite struct BuiltInScopeStorageTests {
    @Test func builtInScopesMakeTheStorageWithTheirRule() {
        for scope in [ObjectScope.container, .singleton, .multiton] {
            let storage = scope.makeStorage()
            let held = NSObjectLike()
            storage.instance = held
            #expect(storage.instance as AnyObject? === held, "\(scope) keeps its instance")
        }
        for scope in [ObjectScope.transient, .scoped] {
            let storage = scope.makeStorage()
            storage.instance = NSObjectLike()
            #expect(storage.instance == nil, "\(scope) keeps nothing")
        }
        let weak = ObjectScope.weak.makeStorage()
        weak.instance = NSObjectLike()
        #expect(weak.instance == nil, "weak keeps nothing that no one else holds")
        let graph = ObjectScope.graph.makeStorage()
        let held = NSObjectLike()
        graph.instance = held
        #expect(graph.instance as AnyObject? === held)
        graph.graphResolutionCompleted()
        #expect(graph.instance == nil, "graph forgets its instance when the graph ends")
    }

    @Test func aCustomScopeOverABuiltInOneComposesWithItsStorage() {
        let session = ObjectScope(
            storageFactory: PermanentStorage.init, description: "session", parent: ObjectScope.weak)
        let storage = session.makeStorage()
        let held = NSObjectLike()
        storage.instance = held
        #expect(storage.instance as AnyObject? === held)
    }

    @Test func replacingABuiltInScopeManyTimesKeepsTheLastOne() {
        let container = Container()
        let entry = container.register(Engine.self) { _ in Engine() }
        for _ in 0..<1_000 { entry.inObjectScope(.transient).inObjectScope(.container) }
        #expect(entry.objectScope === ObjectScope.container)
        #expect(container.resolve(Engine.self) === container.resolve(Engine.self))
    }
}

private final class NSObjectLike {}
