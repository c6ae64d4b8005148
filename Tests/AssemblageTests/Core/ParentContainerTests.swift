import Assemblage
import Testing

protocol Session: Sendable { var id: String { get } }
struct LiveSession: Session { let id = "live" }
struct MockSession: Session { let id = "mock" }
final class NetworkService {
    let session: Session
    init(session: Session) { self.session = session }
}

@Suite struct ParentContainerTests {
    @Test func childResolvesParentRegistration() {
        let parent = Container()
        parent.register(Animal.self) { _ in Cat() }
        #expect(Container(parent: parent).resolve(Animal.self)?.name == "Mimi")
    }

    @Test func parentNeverSeesChildRegistrations() {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(Animal.self) { _ in Cat() }
        #expect(parent.resolve(Animal.self) == nil)
    }

    @Test func childRegistrationOverridesParent() {
        let parent = Container()
        parent.register(Animal.self) { _ in Cat() }
        let child = Container(parent: parent)
        child.register(Animal.self) { _ in Dog() }
        #expect(child.resolve(Animal.self)?.name == "Rex")
        #expect(parent.resolve(Animal.self)?.name == "Mimi")
    }

    @Test func fallbackFactoryRunsWithTheResolverWhereResolutionStarted() {
        let main = Container()
        main.register(Session.self) { _ in LiveSession() }
        main.register(NetworkService.self) { r in NetworkService(session: r.resolve(Session.self)!) }
        let mock = Container(parent: main)
        mock.register(Session.self) { _ in MockSession() }
        #expect(mock.resolve(NetworkService.self)?.session.id == "mock")
        #expect(main.resolve(NetworkService.self)?.session.id == "live")
    }

    @Test func fallbacksAreSearchedInOrderDepthFirst() throws {
        let a = Container(label: "a")
        let b = Container(label: "b")
        let deep = Container(label: "deep")
        deep.register(String.self) { _ in "deep" }
        try a.addFallback(deep)
        b.register(String.self) { _ in "b" }
        let root = Container(label: "root")
        try root.addFallback(a)
        try root.addFallback(b)
        #expect(root.resolve(String.self) == "deep")
        #expect(root.fallbacks.map(\.label) == ["a", "b"])
    }

    @Test func addingAFallbackCycleThrowsAndChangesNothing() throws {
        let a = Container(label: "a")
        let b = Container(parent: a, label: "b")
        #expect(throws: ContainerError.self) { try a.addFallback(b) }
        #expect(throws: ContainerError.self) { try a.addFallback(a) }
        #expect(a.fallbacks.isEmpty)
        do {
            try a.addFallback(b)
        } catch {
            #expect(error.code == .fallbackCycle)
            #expect(error.description.contains("b already reaches a"))
        }
    }

    @Test func resetInChildAlsoResetsParentScope() {
        let parent = Container()
        parent.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        let child = Container(parent: parent)
        let first = child.resolve(Engine.self)
        child.resetObjectScope(.container)
        #expect(parent.resolve(Engine.self) !== first)
    }
}
