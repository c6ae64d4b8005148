import Assemblage
import Testing

final class Parent {
    let child: Child
    init(child: Child) { self.child = child }
}
final class Child { weak var parent: Parent? }

@Suite struct ServiceEntryTests {
    @Test func initCompletedBreaksACycleWithinOneGraph() throws {
        let container = Container()
        container.register(Parent.self) { r in Parent(child: r.resolve(Child.self)!) }
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = r.resolve(Parent.self) }
        let parent = try #require(container.resolve(Parent.self))
        #expect(parent.child.parent === parent)
    }

    @Test func initCompletedStepsRunInOrder() {
        final class Log: @unchecked Sendable { var steps: [String] = [] }
        let log = Log()
        let container = Container()
        container.register(Cat.self) { _ in Cat() }
            .initCompleted { _, _ in log.steps.append("first") }
            .initCompleted { _, _ in log.steps.append("second") }
        _ = container.resolve(Cat.self)
        #expect(log.steps == ["first", "second"])
    }

    @Test func initCompletedThatThrowsFailsTheResolution() {
        let container = Container()
        container.register(Cat.self) { _ in Cat() }.initCompleted { _, _ in throw Boom() }
        #expect(container.resolve(Cat.self) == nil)
        #expect(throws: ResolutionError.self) { try container.require(Cat.self) }
    }

    @Test func initCompletedOnContainerScopeCycle() throws {
        let container = Container()
        container.register(Parent.self) { r in Parent(child: r.resolve(Child.self)!) }.inObjectScope(.container)
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = r.resolve(Parent.self) }
            .inObjectScope(.container)
        let parent = try #require(container.resolve(Parent.self))
        #expect(parent.child.parent === parent)
        #expect(container.resolve(Child.self) === parent.child)
    }

    @Test func implementsForwardsToTheSameInstance() {
        let container = Container()
        container.register(Cat.self) { _ in Cat() }.inObjectScope(.container).implements(Animal.self)
        #expect(container.resolve(Animal.self) === container.resolve(Cat.self))
    }

    @Test func implementsWithNameAndSeveralTypes() {
        let container = Container()
        container.register(Cat.self) { _ in Cat() }
            .implements(Animal.self, name: "pet")
            .implements(AnyObject.self, Animal.self)
        #expect(container.resolve(Animal.self, name: "pet")?.name == "Mimi")
        #expect(container.resolve(Animal.self)?.name == "Mimi")
        #expect(container.resolve(AnyObject.self) is Cat)
    }

    @Test func forwardKeepsArgumentsAndScopeChangesThroughForwarder() {
        let container = Container()
        let entry = container.register(Cat.self) { _, name in Cat(name: name) }
        container.forward(Animal.self, to: entry)
        #expect(container.resolve(Animal.self, argument: "Tom")?.name == "Tom")
        #expect(container.resolve(Animal.self) == nil)
    }

    @Test func inObjectScopeAcceptsAnyScopeProtocolValue() {
        final class PerContainer: ObjectScopeProtocol {
            func makeStorage() -> InstanceStorage { PermanentStorage() }
        }
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(PerContainer() as ObjectScopeProtocol)
        #expect(container.resolve(Engine.self) === container.resolve(Engine.self))
    }

    @Test func changingScopeAfterFirstResolveTakesEffect() {
        let container = Container()
        let entry = container.register(Engine.self) { _ in Engine() }
        #expect(container.resolve(Engine.self) !== container.resolve(Engine.self))
        entry.inObjectScope(.container)
        #expect(container.resolve(Engine.self) === container.resolve(Engine.self))
    }
}
