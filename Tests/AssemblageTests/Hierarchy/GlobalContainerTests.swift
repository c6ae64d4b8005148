import Assemblage
import Dispatch
import Foundation
import Testing

/// Runs `body` with fresh globals (no bootstrap hook, a new `main`, root following it) and leaves them fresh.
private func withFreshGlobals(_ body: () throws -> Void) rethrows {
    Container.bootstrap(nil)
    Container.resetGlobals()
    defer {
        Container.bootstrap(nil)
        Container.resetGlobals()
    }
    try body()
}

/// Starts `count` threads that each run `body` as close to the same moment as they can, and waits for all.
private func onThreadsAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let arrived = Counter()
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            arrived.increment()
            while arrived.count < count { usleep(50) }
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
}

/// `Container.main`, `Container.root`, the bootstrap hook and `resetGlobals`: process-wide state, so these
/// tests run one at a time and restore it. Other suites run in parallel with them and only ever read the root
/// inside their own `withRoot`, so that nothing else reads the globals (and runs an armed hook) meanwhile.
@Suite(.serialized) struct GlobalContainerTests {
    // MARK: main and root

    @Test func rootOutsideEverySectionIsTheAssignedOne() {
        withFreshGlobals {
            #expect(Container.root === Container.main)
            let other = Container(label: "other")
            Container.root = other
            #expect(Container.root === other)
            Container.root = Container.main
            #expect(Container.root === Container.main)
        }
    }

    @Test func rootIsMainUntilAssignedAndFollowsANewMain() {
        withFreshGlobals {
            let main = Container.main
            #expect(main.label == "main")
            #expect(Container.root === main)
            #expect(Container.main === main)
            let custom = Container(defaultObjectScope: .container, label: "custom main")
            Container.main = custom
            #expect(Container.main === custom)
            #expect(Container.root === custom)
        }
    }

    @Test func assigningRootReroutesResolutionUntilItIsSetBack() throws {
        try withFreshGlobals { () throws in
            Container.main.register(Session.self) { _ in LiveSession() }
            Container.main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
            let mock = Container(parent: Container.main, label: "mock")
            mock.register(Session.self) { _ in MockSession() }

            #expect(try Container.root.require(NetworkService.self).session.id == "live")
            Container.root = mock
            #expect(Container.root === mock)
            #expect(try Container.root.require(NetworkService.self).session.id == "mock")
            #expect(Injected<Session>().wrappedValue.id == "mock")
            Container.root = Container.main
            #expect(try Container.root.require(NetworkService.self).session.id == "live")
            #expect(Injected<Session>().wrappedValue.id == "live")
        }
    }

    @Test func rootAssignedBackToMainFollowsALaterMain() {
        withFreshGlobals {
            Container.root = Container(label: "mock")
            Container.root = Container.main
            let replacement = Container(label: "replacement")
            Container.main = replacement
            #expect(Container.root === replacement)
        }
    }

    @Test func withRootWinsOverTheAssignedRootAndLeavesItAlone() {
        withFreshGlobals {
            let assigned = Container(label: "assigned")
            let scoped = Container(label: "scoped")
            Container.root = assigned
            Container.withRoot(scoped) {
                #expect(Container.root === scoped)
                Container.root = Container.main  // changes the assigned root, not this section's
                #expect(Container.root === scoped)
            }
            #expect(Container.root === Container.main)
        }
    }

    @Test func mainAndRootCanBeReadAndAssignedFromManyThreads() {
        withFreshGlobals {
            let main = Container.main
            let containers = (0..<4).map { Container(label: "c\($0)") }
            let unexpected = Counter()
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                for round in 0..<500 {
                    if index % 2 == 0 {
                        Container.root = containers[(index + round) % containers.count]
                    } else {
                        let root = Container.root
                        if root !== main && !containers.contains(where: { $0 === root }) { unexpected.increment() }
                    }
                }
            }
            #expect(unexpected.count == 0)
            #expect(Container.main === main)
            #expect(containers.contains { $0 === Container.root })
        }
    }

    @Test func detachedTasksDoNotInheritWithRoot() async {
        Container.bootstrap(nil)
        Container.resetGlobals()
        let mock = Container(label: "mock")
        let fromDetached = await Container.withRoot(mock) {
            await Task.detached { Container.root }.value
        }
        #expect(fromDetached !== mock)
        #expect(fromDetached === Container.main)
    }

    // MARK: Bootstrap

    @Test func bootstrapRunsOnceOnTheFirstReadNotWhenSet() throws {
        try withFreshGlobals { () throws in
            let runs = Counter()
            Container.bootstrap { main in
                runs.increment()
                main.register(Animal.self) { _ in Cat() }
            }
            #expect(runs.count == 0)
            #expect(try Container.root.require(Animal.self).name == "Mimi")
            #expect(runs.count == 1)
            _ = Container.main
            _ = Container.root.resolve(Animal.self)
            #expect(runs.count == 1)
        }
    }

    @Test func bootstrapRunsExactlyOnceWhen16ThreadsResolveFirstAtOnce() {
        withFreshGlobals {
            let runs = Counter()
            Container.bootstrap { main in
                runs.increment()
                usleep(20_000)  // anyone not waiting for the hook would resolve before this registration
                main.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
            }
            let resolved = Collector<ObjectIdentifier>()
            onThreadsAtOnce(16) { _ in
                if let engine = Container.root.resolve(Engine.self) { resolved.append(ObjectIdentifier(engine)) }
            }
            #expect(runs.count == 1)
            #expect(resolved.all.count == 16)
            #expect(Set(resolved.all).count == 1)
        }
    }

    @Test func bootstrapRunsExactlyOnceWhen16TasksResolveFirstAtOnce() async {
        Container.bootstrap(nil)
        Container.resetGlobals()
        let runs = Counter()
        Container.bootstrap { main in
            runs.increment()
            usleep(5_000)
            main.register(String.self) { _ in "bootstrapped" }
        }
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<16 { group.addTask { Injected<String>().wrappedValue } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(runs.count == 1)
        #expect(results == Array(repeating: "bootstrapped", count: 16))
        Container.bootstrap(nil)
        Container.resetGlobals()
    }

    @Test func bootstrapMayReadAndAssignTheGlobalsItself() throws {
        try withFreshGlobals { () throws in
            Container.bootstrap { main in
                main.register(Session.self) { _ in LiveSession() }
                main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
                let mock = Container(parent: Container.main, label: "mock")  // re-entrant read: no deadlock
                mock.register(Session.self) { _ in MockSession() }
                Container.root = mock
            }
            #expect(Container.root.label == "mock")
            #expect(try Container.root.require(NetworkService.self).session.id == "mock")
            #expect(try Container.main.require(NetworkService.self).session.id == "live")
        }
    }

    @Test func registrationsThroughMainComeAfterTheHooksAndWin() throws {
        try withFreshGlobals { () throws in
            Container.bootstrap { main in main.register(Animal.self) { _ in Cat() } }
            Container.main.register(Animal.self) { _ in Dog() }
            #expect(try Container.root.require(Animal.self).name == "Rex")
        }
    }

    @Test func settingAHookBeforeItRanReplacesItAndNilRemovesIt() {
        withFreshGlobals {
            let first = Counter()
            let second = Counter()
            Container.bootstrap { _ in first.increment() }
            Container.bootstrap { _ in second.increment() }
            _ = Container.main
            #expect(first.count == 0)
            #expect(second.count == 1)
            Container.bootstrap(nil)
            Container.resetGlobals()
            _ = Container.main
            #expect(second.count == 1)
        }
    }

    @Test func resetGlobalsGivesAFreshMainWithRootFollowingAndRunsTheHookAgain() throws {
        try withFreshGlobals { () throws in
            let runs = Counter()
            Container.bootstrap { main in
                runs.increment()
                main.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
            }
            let oldMain = Container.main
            let oldEngine = try Container.root.require(Engine.self)
            Container.root = Container(parent: oldMain, label: "mock")
            Container.main.register(Animal.self) { _ in Cat() }

            Container.resetGlobals()
            #expect(runs.count == 1)  // re-armed, not yet run
            let newMain = Container.main
            #expect(runs.count == 2)
            #expect(newMain !== oldMain)
            #expect(Container.root === newMain)
            #expect(newMain.resolve(Animal.self) == nil)  // registrations made outside the hook are gone
            #expect(try Container.root.require(Engine.self) !== oldEngine)
        }
    }

    @Test func hookRearmedWhileRunningRunsAgainBeforeAnyoneReadsTheGlobals() {
        withFreshGlobals {
            let runs = Counter()
            Container.bootstrap { main in
                runs.increment()
                main.register(String.self) { _ in "first" }
                Container.bootstrap { main in
                    runs.increment()
                    main.register(String.self) { _ in "second" }
                }
            }
            #expect(Container.root.resolve(String.self) == "second")
            #expect(runs.count == 2)
        }
    }
}
