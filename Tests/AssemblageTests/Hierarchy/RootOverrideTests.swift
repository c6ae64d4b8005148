import Assemblage
import Dispatch
import Testing

/// `Container.withRoot`: a root for one section of code and one task, also across `await` and in parallel.
///
/// These tests run in parallel with everything else, so they never touch the globals: every read of
/// `Container.root` happens inside a `withRoot` (an outer one stands for "the root before"). Reading the global
/// root here could run the bootstrap hook that a `GlobalContainerTests` test has just armed.
@Suite struct RootOverrideTests {
    private func container(saying word: String) -> Container {
        let container = Container(label: word)
        container.register(String.self) { _ in word }
        return container
    }

    @Test func withRootSwitchesRootOnlyInsideTheOperation() {
        let before = container(saying: "before")
        let mock = container(saying: "mock")
        Container.withRoot(before) {
            let seen = Container.withRoot(mock) { Container.root }
            #expect(seen === mock)
            #expect(Container.root === before)
        }
    }

    @Test func innermostWithRootWinsAndTheOuterOneComesBack() {
        let outer = container(saying: "outer")
        let inner = container(saying: "inner")
        Container.withRoot(outer) {
            #expect(Container.root.resolve(String.self) == "outer")
            Container.withRoot(inner) {
                #expect(Container.root.resolve(String.self) == "inner")
            }
            #expect(Container.root.resolve(String.self) == "outer")
        }
    }

    @Test func withRootReturnsTheResultAndRethrows() throws {
        let mock = container(saying: "mock")
        #expect(Container.withRoot(mock) { 42 } == 42)
        #expect(throws: Boom.self) { try Container.withRoot(mock) { throw Boom() } }
        let error = #expect(throws: ResolutionError.self) {
            try Container.withRoot(mock) { try Container.root.require(Engine.self) }
        }
        #expect(error?.code == .notRegistered)
    }

    @Test func asyncWithRootHoldsAcrossSuspensionsAndInChildTasks() async throws {
        let before = container(saying: "before")
        let mock = container(saying: "mock")
        try await Container.withRoot(before) {
            try await Container.withRoot(mock) {
                await Task.yield()
                try await Task.sleep(nanoseconds: 1_000_000)
                #expect(Container.root === mock)
                async let fromChild = Container.root.resolve(String.self)
                #expect(await fromChild == "mock")
                let fromUnstructured = await Task { Container.root.resolve(String.self) }.value
                #expect(fromUnstructured == "mock")
            }
            await Task.yield()
            #expect(Container.root === before)
            // In async code, a synchronous operation picks the synchronous overload: no `await` needed.
            #expect(Container.withRoot(mock) { Container.root } === mock)
        }
    }

    @Test func asyncWithRootRethrowsAndLeavesNoSwitchBehind() async {
        let before = container(saying: "before")
        let mock = container(saying: "mock")
        await Container.withRoot(before) {
            await #expect(throws: Boom.self) {
                try await Container.withRoot(mock) {
                    await Task.yield()
                    throw Boom()
                }
            }
            #expect(Container.root === before)
        }
    }

    @Test func manyTasksEachSeeTheirOwnRoot() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let own = Container(label: "task \(index)")
                    own.register(String.self) { _ in "task \(index)" }
                    own.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
                    return await Container.withRoot(own) {
                        var mismatches = 0
                        for _ in 0..<20 {
                            await Task.yield()
                            if Container.root.resolve(String.self) != "task \(index)" { mismatches += 1 }
                            if Container.root.resolve(Engine.self) !== own.resolve(Engine.self) { mismatches += 1 }
                            if Injected<String>().wrappedValue != "task \(index)" { mismatches += 1 }
                        }
                        return mismatches
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func manyThreadsEachSeeTheirOwnRootWithoutTasks() {
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let own = container(saying: "thread \(index)")
            Container.withRoot(own) {
                for _ in 0..<200 where Container.root.resolve(String.self) != "thread \(index)" {
                    mismatches.increment()
                }
            }
        }
        #expect(mismatches.count == 0)
    }

    @Test func actorIsolatedCodeKeepsItsIsolationInsideWithRoot() async {
        actor Tally {
            var words: [String] = []
            func record(from mock: Container) async {
                await Container.withRoot(mock) {
                    await Task.yield()
                    words.append(Container.root.resolve(String.self) ?? "none")  // no hop: still on the actor
                }
            }
        }
        let tally = Tally()
        await tally.record(from: container(saying: "mock"))
        #expect(await tally.words == ["mock"])
    }
}
