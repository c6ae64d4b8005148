import Assemblage
import Foundation
import Testing

@Suite struct MainActorRegistrationTests {
    @Test func mainActorFactoryRecordsItsIsolation() {
        let container = Container()
        let entry = container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() })
        let plain = container.register(Cat.self) { _ in Cat() }
        #expect(entry.isolation == .mainActor)
        #expect(plain.isolation == .nonisolated)
        #expect(container.isolation(of: ProfileModel.self) == .mainActor)
        #expect(!ServiceIsolation.mainActor.isResolvableSynchronouslyAnywhere)
    }

    @Test func trailingClosureMarkedMainActorSelectsTheMainActorForm() {
        let container = Container()
        let entry = container.register(ProfileModel.self) { @MainActor _ in ProfileModel() }
        #expect(entry.isolation == .mainActor)
    }

    @MainActor
    @Test func resolvesSynchronouslyOnTheMainActor() throws {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel(title: "Sync") })
        let model = try container.require(ProfileModel.self)
        #expect(model.title == "Sync")
        #expect(model.madeOnMainQueue)
        #expect(container.resolve(ProfileModel.self) != nil)
    }

    @MainActor
    @Test func nonisolatedDependentResolvesOnTheMainActorToo() throws {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() }).inObjectScope(.container)
        container.register(MainActorProfileScreen.self) { r in
            MainActorProfileScreen(model: try r.require(ProfileModel.self))
        }
        let screen = try container.require(MainActorProfileScreen.self)
        #expect(screen.model === (try container.require(ProfileModel.self)))
    }

    @Test func synchronousResolveOffTheMainActorThrowsRequiresMainActor() async {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() })
        let outcome = await offMainThread { () -> ResolutionError? in
            do {
                _ = try container.require(ProfileModel.self)
                return nil
            } catch {
                return error as? ResolutionError
            }
        }
        let error = outcome
        #expect(error?.code == .requiresMainActor)
        #expect(error?.key == ServiceKey(ProfileModel.self))
        #expect(error?.description.contains("main actor") == true)
        #expect(await offMainThread { container.resolve(ProfileModel.self) == nil })
    }

    @Test func errorNamesTheSynchronousPathIntoTheMainActorFactory() async {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() })
        container.register(MainActorProfileScreen.self) { r in
            MainActorProfileScreen(model: try r.require(ProfileModel.self))
        }
        let error = await offMainThread { () -> ResolutionError? in
            do {
                _ = try container.require(MainActorProfileScreen.self)
                return nil
            } catch {
                return error as? ResolutionError
            }
        }
        #expect(error?.code == .requiresMainActor)
        #expect(error?.path == [ServiceKey(MainActorProfileScreen.self), ServiceKey(ProfileModel.self)])
    }

    @Test func resolveAsyncFromAnyTaskHopsToTheMainActor() async throws {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel(title: "Hopped") })
        let model = try await Task.detached { try await container.resolveAsync(ProfileModel.self) }.value
        #expect(model.title == "Hopped")
        #expect(model.madeOnMainQueue)
    }

    @Test func resolveAsyncOfANonisolatedFactoryThatNeedsAMainActorOneFailsOffTheMainActor() async {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() })
        container.register(MainActorProfileScreen.self) { r in
            MainActorProfileScreen(model: try r.require(ProfileModel.self))
        }
        // The screen's factory is synchronous and nonisolated, and reaches a main-actor factory: that
        // synchronous path cannot run off the main actor, even under `await`, and the error says where it is.
        let error = await Task.detached { () -> ResolutionError? in
            do {
                _ = try await container.resolveAsync(MainActorProfileScreen.self)
                return nil
            } catch {
                return error as? ResolutionError
            }
        }.value
        #expect(error?.code == .requiresMainActor)
        #expect(error?.path == [ServiceKey(MainActorProfileScreen.self), ServiceKey(ProfileModel.self)])
    }

    @Test func mainActorFactoryTakesArguments() async throws {
        let container = Container()
        container.register(ProfileModel.self, mainActorFactory: { (_, title: String) in ProfileModel(title: title) })
        let model = try await container.resolveAsync(ProfileModel.self, argument: "Ada")
        #expect(model.title == "Ada")
        #expect(container.isolation(for: ServiceKey(ProfileModel.self, argumentTypes: String.self)) == .mainActor)
    }

    @Test func containerScopedMainActorServiceIsMadeOnceAcrossTasks() async throws {
        let counter = Counter()
        let container = Container()
        container.register(
            ProfileModel.self,
            mainActorFactory: { _ in
                counter.increment()
                return ProfileModel()
            }
        ).inObjectScope(.container)
        let models = try await withThrowingTaskGroup(of: ProfileModel.self) { group in
            for _ in 0..<50 { group.addTask { try await container.resolveAsync(ProfileModel.self) } }
            return try await group.reduce(into: [ProfileModel]()) { $0.append($1) }
        }
        #expect(counter.count == 1)
        #expect(Set(models.map(ObjectIdentifier.init)).count == 1)
    }

    @Test func forwardedTypeReportsTheIsolationOfItsTarget() {
        let container = Container()
        let entry = container.register(ProfileModel.self, mainActorFactory: { _ in ProfileModel() })
            .implements(AnyObject.self)
        #expect(entry.isolation == .mainActor)
        #expect(container.isolation(of: AnyObject.self) == .mainActor)
    }
}
