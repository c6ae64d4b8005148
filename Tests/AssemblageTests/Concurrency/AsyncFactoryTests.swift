import Assemblage
import Foundation
import Testing

@Suite struct AsyncFactoryTests {
    @Test func asyncFactoryResolvesWithTryAwait() async throws {
        let container = Container()
        let entry = container.register(SessionStore.self) { _ in await SessionStore(user: "grace") }
        let store = try await container.resolveAsync(SessionStore.self)
        #expect(await store.greeting() == "Hello, grace")
        #expect(entry.isolation == .async)
        #expect(container.isolation(of: SessionStore.self) == .async)
    }

    @Test func synchronousResolveOfAnAsyncRegistrationThrowsRequiresAsync() {
        let container = Container()
        container.register(SessionStore.self, name: "primary") { _ in await SessionStore() }
        #expect(container.resolve(SessionStore.self, name: "primary") == nil)
        do {
            _ = try container.require(SessionStore.self, name: "primary")
            Issue.record("a synchronous resolve of an async registration must fail")
        } catch {
            #expect(error.code == .requiresAsync)
            #expect(error.key == ServiceKey(SessionStore.self, name: "primary"))
            #expect(error.description.contains("SessionStore (name: \"primary\") has an async factory"))
        }
    }

    @Test func synchronousFactoryDependingOnAnAsyncOneFailsWithThePath() {
        let container = Container()
        container.register(SessionStore.self) { _ in await SessionStore() }.inObjectScope(.container)
        container.register(SessionReporter.self) { r in SessionReporter(store: try r.require(SessionStore.self)) }
        #expect {
            _ = try container.require(SessionReporter.self)
        } throws: { error in
            let error = error as? ResolutionError
            return error?.code == .requiresAsync
                && error?.path == [ServiceKey(SessionReporter.self), ServiceKey(SessionStore.self)]
        }
    }

    @Test func sharedAsyncInstanceIsNeverHandedOutSynchronously() async throws {
        let container = Container()
        container.register(SessionStore.self) { _ in await SessionStore() }.inObjectScope(.container)
        _ = try await container.resolveAsync(SessionStore.self)
        #expect(throws: ResolutionError.self) { try container.require(SessionStore.self) }
    }

    @Test func resolveAsyncResolvesSynchronousRegistrationsToo() async throws {
        let container = Container()
        container.register(Cat.self) { _ in Cat() }
        container.register(Cat.self, name: "named") { _ in Cat(name: "Named") }
        container.register(Cat.self) { (_, name: String) in Cat(name: name) }
        container.register(Cat.self) { (_, name: String, age: Int) in Cat(name: name, age: age) }
        container.register(Cat.self) { (_, name: String, age: Int, suffix: String) in Cat(name: name + suffix, age: age)
        }
        #expect(try await container.resolveAsync(Cat.self).name == "Mimi")
        #expect(try await container.resolveAsync(Cat.self, name: "named").name == "Named")
        #expect(try await container.resolveAsync(Cat.self, argument: "Tom").name == "Tom")
        #expect(try await container.resolveAsync(Cat.self, arguments: "Tom", 4).age == 4)
        #expect(try await container.resolveAsync(Cat.self, arguments: "Tom", 4, "!").name == "Tom!")
    }

    @Test func asyncFactoriesTakeArgumentsAndNames() async throws {
        let container = Container()
        container.register(SessionStore.self, name: "guest") { (_, user: String) in await SessionStore(user: user) }
        container.register(SessionStore.self) { (_, user: String, suffix: String) in
            await SessionStore(user: user + suffix)
        }
        let guest = try await container.resolveAsync(SessionStore.self, name: "guest", argument: "bob")
        #expect(guest.user == "bob")
        let other = try await container.resolveAsync(SessionStore.self, arguments: "al", "an")
        #expect(other.user == "alan")
    }

    @Test func asyncFactoryResolvesItsDependenciesThroughItsResolver() async throws {
        let container = Container()
        container.register(String.self, name: "user") { _ in "linus" }
        container.register(SessionStore.self) { r in
            await SessionStore(user: try await r.resolveAsync(String.self, name: "user"))
        }
        container.register(SessionReporter.self) { r in
            SessionReporter(store: try await r.resolveAsync(SessionStore.self))
        }
        let reporter = try await container.resolveAsync(SessionReporter.self)
        #expect(reporter.store.user == "linus")
    }

    @Test func missingRegistrationNamesTheAsyncPathAndNearMisses() async {
        let container = Container()
        container.register(String.self, name: "other") { _ in "x" }
        container.register(SessionStore.self) { r in await SessionStore(user: try await r.resolveAsync(String.self)) }
        do {
            _ = try await container.resolveAsync(SessionStore.self)
            Issue.record("expected notRegistered")
        } catch {
            #expect(error.code == .notRegistered)
            #expect(error.path == [ServiceKey(SessionStore.self), ServiceKey(String.self)])
            #expect(error.nearMisses == [ServiceKey(String.self, name: "other")])
        }
    }

    @Test func factoryErrorIsWrappedWithKeyAndPath() async {
        let container = Container()
        container.register(Node.self, name: "leaf") { _ in
            try await Task.sleep(nanoseconds: 1_000)
            throw Flaky()
        }
        container.register(Node.self) { r in Node([try await r.resolveAsync(Node.self, name: "leaf")]) }
        do {
            _ = try await container.resolveAsync(Node.self)
            Issue.record("expected factoryFailed")
        } catch {
            #expect(error.code == .factoryFailed)
            #expect(error.key == ServiceKey(Node.self, name: "leaf"))
            #expect(error.path == [ServiceKey(Node.self), ServiceKey(Node.self, name: "leaf")])
            #expect(error.underlying is Flaky)
        }
    }

    @Test func synchronousRequireInsideAnAsyncFactoryKeepsTheOuterPath() async {
        let container = Container()
        container.register(Node.self) { r in
            await Task.yield()
            _ = try r.require(Dog.self)
            return Node()
        }
        do {
            _ = try await container.resolveAsync(Node.self)
            Issue.record("expected notRegistered")
        } catch {
            #expect(error.code == .notRegistered)
            #expect(error.path == [ServiceKey(Node.self), ServiceKey(Dog.self)])
        }
    }

    @Test func initCompletedRunsAfterTheAsyncFactory() async throws {
        let container = Container()
        let steps = Counter()
        container.register(Cat.self) { _ in Cat(name: "Step") }
        container.register(Node.self) { _ in
            await Task.yield()
            return Node()
        }
        .initCompleted { r, _ in
            #expect(r.resolve(Cat.self)?.name == "Step")
            steps.increment()
        }
        _ = try await container.resolveAsync(Node.self)
        #expect(steps.count == 1)
    }

    @Test func forwardedTypeResolvesAsynchronously() async throws {
        let container = Container()
        container.register(SessionStore.self) { _ in await SessionStore(user: "fwd") }
            .inObjectScope(.container)
            .implements(AnyObject.self)
        let viaForward = try await container.resolveAsync(AnyObject.self)
        let direct = try await container.resolveAsync(SessionStore.self)
        #expect(ObjectIdentifier(viaForward) == ObjectIdentifier(direct))
        #expect(container.isolation(of: AnyObject.self) == .async)
    }

    @Test func optionalOfASynchronousRegistrationResolvesAsynchronously() async throws {
        let container = Container()
        container.register(Cat.self) { _ in Cat() }
        let cat = try await container.resolveAsync(Cat?.self)
        let dog = try await container.resolveAsync(Dog?.self)
        #expect(cat?.name == "Mimi")
        #expect(dog == nil)
    }

    @Test func resolvesFromAFallbackContainer() async throws {
        let parent = Container()
        parent.register(SessionStore.self) { _ in await SessionStore(user: "parent") }.inObjectScope(.container)
        let child = Container(parent: parent)
        let fromChild = try await child.resolveAsync(SessionStore.self)
        let fromParent = try await parent.resolveAsync(SessionStore.self)
        #expect(fromChild === fromParent)
    }
}
