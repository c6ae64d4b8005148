import Assemblage
import Testing

@Suite struct IsolationQueryTests {
    @Test func unregisteredKeyHasNoIsolation() {
        let container = Container()
        #expect(container.isolation(of: Cat.self) == nil)
        #expect(container.isolation(for: ServiceKey(Cat.self, argumentTypes: String.self)) == nil)
    }

    @Test func isolationIsFoundThroughFallbacks() {
        let parent = Container()
        parent.register(SessionStore.self) { _ in await SessionStore() }
        let child = Container(parent: parent)
        #expect(child.isolation(of: SessionStore.self) == .async)
    }

    @Test func isolatedRegistrationsListsMainActorAndAsyncFactoriesWithTheirSites() {
        let parent = Container(label: "parent")
        parent.register(SessionStore.self) { _ in await SessionStore() }
        parent.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() })
        let child = Container(parent: parent, label: "child")
        child.register(Cat.self) { _ in Cat() }
        child.register(ProfileModel.self) { _ in fatalError("unused") }  // hides the parent's main-actor one
        let listed = child.isolatedRegistrations
        #expect(listed.count == 1)
        #expect(listed.first?.key == ServiceKey(SessionStore.self))
        #expect(listed.first?.isolation == .async)
        #expect(listed.first?.containerLabel == "parent")
        #expect(
            listed.first?.description.contains("SessionStore — async — AssemblageTests/IsolationQueryTests.swift")
                == true)
        #expect(
            parent.isolatedRegistrations.map(\.isolation).sorted { $0.description < $1.description }
                == [.mainActor, .async])
    }

    @Test func isolationDescriptionsReadLikeSwift() {
        #expect(ServiceIsolation.nonisolated.description == "nonisolated")
        #expect(ServiceIsolation.mainActor.description == "@MainActor")
        #expect(ServiceIsolation.async.description == "async")
        #expect(ServiceIsolation.nonisolated.isResolvableSynchronouslyAnywhere)
        #expect(!ServiceIsolation.async.isResolvableSynchronouslyAnywhere)
    }
}
