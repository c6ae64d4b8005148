import Assemblage
import Foundation
import Testing

@Suite struct AsyncScopeTests {
    @Test(arguments: [ObjectScope.container, .singleton])
    func sharedAsyncServiceIsConstructedOnceByTwoHundredTasks(scope: ObjectScope) async throws {
        let counter = Counter()
        let container = Container()
        container.register(SessionStore.self) { _ in
            await SessionStore(delayNanoseconds: 1_000_000, counter: counter)
        }.inObjectScope(scope)
        let stores = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<200 {
                group.addTask { ObjectIdentifier(try await container.resolveAsync(SessionStore.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(counter.count == 1)
        #expect(stores.count == 1)
    }

    @Test func failedCreationIsNotKeptAndTheNextCallTriesAgain() async throws {
        let attempts = Counter()
        let container = Container()
        container.register(SessionStore.self) { _ in
            attempts.increment()
            try await Task.sleep(nanoseconds: 200_000)
            if attempts.count == 1 { throw Flaky() }
            return await SessionStore()
        }.inObjectScope(.container)
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(SessionStore.self) }
        let first = try await container.resolveAsync(SessionStore.self)
        let second = try await container.resolveAsync(SessionStore.self)
        #expect(first === second)
        #expect(attempts.count == 2)
    }

    @Test func waitersOfAFailedCreationGetTheInstanceOfTheRetry() async throws {
        let attempts = Counter()
        let container = Container()
        container.register(SessionStore.self) { _ in
            attempts.increment()
            let attempt = attempts.count
            try await Task.sleep(nanoseconds: 2_000_000)
            if attempt == 1 { throw Flaky() }
            return await SessionStore()
        }.inObjectScope(.container)
        let outcomes = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await container.resolveAsync(SessionStore.self)).map(ObjectIdentifier.init) }
            }
            return await group.reduce(into: [ObjectIdentifier?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)  // only the task whose attempt failed
        #expect(Set(outcomes.compactMap { $0 }).count == 1)
        #expect(attempts.count == 2)
    }

    @Test func graphScopeIsSharedWithinOneTopLevelResolveAsync() async throws {
        let container = Container()
        container.register(Node.self, name: "shared") { _ in
            await Task.yield()
            return Node()
        }  // .graph
        container.register(Node.self, name: "left") { r in Node([try await r.resolveAsync(Node.self, name: "shared")]) }
        container.register(Node.self, name: "right") { r in Node([try await r.resolveAsync(Node.self, name: "shared")])
        }
        container.register(Node.self) { r in
            async let left = r.resolveAsync(Node.self, name: "left")
            async let right = r.resolveAsync(Node.self, name: "right")
            return Node(try await [left, right])
        }
        let root = try await container.resolveAsync(Node.self)
        #expect(root.children[0].children[0] === root.children[1].children[0])
        let again = try await container.resolveAsync(Node.self)
        #expect(again.children[0].children[0] !== root.children[0].children[0])
    }

    @Test func synchronousDependenciesShareTheAsyncGraph() async throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }  // .graph, synchronous
        container.register(Wheel.self) { r in Wheel(engine: r.resolve(Engine.self)!) }
        container.register(Node.self) { r in
            let wheel = try await r.resolveAsync(Wheel.self)
            let engine = try await r.resolveAsync(Engine.self)
            #expect(wheel.engine === engine)
            return Node()
        }
        _ = try await container.resolveAsync(Node.self)
    }

    @Test func transientAsyncServiceIsMadeEveryTime() async throws {
        let container = Container()
        container.register(SessionStore.self) { _ in await SessionStore() }.inObjectScope(.transient)
        let first = try await container.resolveAsync(SessionStore.self)
        let second = try await container.resolveAsync(SessionStore.self)
        #expect(first !== second)
    }

    @Test func resetMakesTheAsyncServiceAgainButNotASingleton() async throws {
        let container = Container()
        container.register(SessionStore.self, name: "c") { _ in await SessionStore() }.inObjectScope(.container)
        container.register(SessionStore.self, name: "s") { _ in await SessionStore() }.inObjectScope(.singleton)
        let c1 = try await container.resolveAsync(SessionStore.self, name: "c")
        let s1 = try await container.resolveAsync(SessionStore.self, name: "s")
        container.resetObjectScope(.container)
        #expect(try await container.resolveAsync(SessionStore.self, name: "c") !== c1)
        #expect(try await container.resolveAsync(SessionStore.self, name: "s") === s1)
    }

    @Test func weakScopeKeepsTheAsyncInstanceWhileHeld() async throws {
        let container = Container()
        container.register(SessionStore.self) { _ in await SessionStore() }.inObjectScope(.weak)
        let held = try await container.resolveAsync(SessionStore.self)
        #expect(try await container.resolveAsync(SessionStore.self) === held)
    }

    @Test func customScopeKeepsTheAsyncInstanceUntilReset() async throws {
        let session = ObjectScope(storageFactory: PermanentStorage.init, description: "session")
        let container = Container()
        container.register(SessionStore.self) { _ in await SessionStore() }.inObjectScope(session)
        let first = try await container.resolveAsync(SessionStore.self)
        #expect(try await container.resolveAsync(SessionStore.self) === first)
        container.resetObjectScope(session)
        #expect(try await container.resolveAsync(SessionStore.self) !== first)
    }
}
