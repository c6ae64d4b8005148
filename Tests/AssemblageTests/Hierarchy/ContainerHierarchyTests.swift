import Assemblage
import Dispatch
import Testing

/// How a container in front of another (an overlay such as a mock) shares, or keeps apart, registrations and
/// scoped instances; and why lookup through fallbacks can never loop.
@Suite struct ContainerHierarchyTests {
    // MARK: Scoped instances live with the registration's owner

    @Test(arguments: [ObjectScope.container, .singleton])
    func sameTypeRegisteredInOverlayAndBaseGivesTwoInstances(scope: ObjectScope) throws {
        let main = Container(label: "main")
        main.register(Engine.self) { _ in Engine() }.inObjectScope(scope)
        let mock = Container(parent: main, label: "mock")
        mock.register(Engine.self) { _ in Engine() }.inObjectScope(scope)

        let fromMock = try mock.require(Engine.self)
        let fromMain = try main.require(Engine.self)
        #expect(fromMock !== fromMain)
        #expect(try mock.require(Engine.self) === fromMock)
        #expect(try main.require(Engine.self) === fromMain)
    }

    @Test func overlayWithoutItsOwnRegistrationSharesTheBaseInstance() throws {
        let main = Container(label: "main")
        main.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        let first = Container(parent: main)
        let second = Container(parent: main)
        #expect(try first.require(Engine.self) === second.require(Engine.self))
        #expect(try first.require(Engine.self) === main.require(Engine.self))
    }

    @Test func resolvingTheOverlayFirstDoesNotFillTheBaseCacheForItsOwnRegistration() throws {
        let counter = Counter()
        let main = Container(label: "main")
        main.register(Engine.self) { _ in
            counter.increment()
            return Engine()
        }.inObjectScope(.container)
        let mock = Container(parent: main, label: "mock")
        mock.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        _ = try mock.require(Engine.self)
        #expect(counter.count == 0)
        _ = try main.require(Engine.self)
        #expect(counter.count == 1)
    }

    @Test func baseFactoryResolvesItsDependencyFromTheOverlay() throws {
        let main = Container(label: "main")
        main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
        let mock = Container(parent: main, label: "mock")
        mock.register(Session.self) { _ in MockSession() }

        #expect(try mock.require(NetworkService.self).session.id == "mock")
        // main alone lacks the session, and says where it was needed.
        let error = #expect(throws: ResolutionError.self) { try main.require(NetworkService.self) }
        #expect(error?.code == .notRegistered)
        #expect(error?.pathDescription == "NetworkService → Session")
    }

    @Test func baseFactoryResolvesItsDependencyFromTheOverlayThroughRoot() throws {
        let main = Container(label: "main")
        main.register(Session.self) { _ in LiveSession() }
        main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
        let mock = Container(parent: main, label: "mock")
        mock.register(Session.self) { _ in MockSession() }

        let inside = try Container.withRoot(mock) { try Container.root.require(NetworkService.self) }
        let base = try Container.withRoot(main) { try Container.root.require(NetworkService.self) }
        #expect(inside.session.id == "mock")
        #expect(base.session.id == "live")
    }

    /// The price of owner-scoped caching: a `.container` service of the base built through an overlay is built
    /// with the overlay's dependencies, and the base keeps (and shares) that instance.
    @Test func baseContainerScopedServiceFirstBuiltThroughAnOverlayKeepsTheOverlaysDependency() throws {
        let main = Container(label: "main")
        main.register(Session.self) { _ in LiveSession() }
        main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
            .inObjectScope(.container)
        let mock = Container(parent: main, label: "mock")
        mock.register(Session.self) { _ in MockSession() }

        let throughMock = try mock.require(NetworkService.self)
        #expect(try main.require(NetworkService.self) === throughMock)
        #expect(try main.require(NetworkService.self).session.id == "mock")
        main.resetObjectScope(.container)
        #expect(try main.require(NetworkService.self).session.id == "live")
    }

    // MARK: Fallback cycles and lookups that end

    @Test func threeContainerCycleIsRejectedAndChangesNothing() throws {
        let a = Container(label: "a")
        let b = Container(label: "b")
        let c = Container(label: "c")
        try a.addFallback(b)
        try b.addFallback(c)
        let error = #expect(throws: ContainerError.self) { try c.addFallback(a) }
        #expect(error?.code == .fallbackCycle)
        #expect(error?.description == "Adding a as a fallback of c would make lookup loop: a already reaches c.")
        #expect(c.fallbacks.isEmpty)
        #expect(a.fallbacks.map(\.label) == ["b"])
        #expect(b.fallbacks.map(\.label) == ["c"])
        // A cycle that does not pass through the first container is rejected too.
        #expect(throws: ContainerError.self) { try c.addFallback(b) }
        #expect(a.resolve(Engine.self) == nil)
    }

    @Test func longCycleIsRejected() throws {
        let chain = (0..<10).map { Container(label: "c\($0)") }
        for (from, to) in zip(chain, chain.dropFirst()) { try from.addFallback(to) }
        chain[9].register(Engine.self) { _ in Engine() }
        #expect(throws: ContainerError.self) { try chain[9].addFallback(chain[0]) }
        #expect(throws: ContainerError.self) { try chain[5].addFallback(chain[2]) }
        #expect(chain[0].resolve(Engine.self) != nil)
        #expect(chain[0].resolve(Cat.self) == nil)
    }

    @Test func sharedFallbackIsAllowedAndSearchedWithoutLooping() throws {
        // a → b → d and a → c → d: a diamond, not a cycle.
        let (a, b, c, d) = (Container(label: "a"), Container(label: "b"), Container(label: "c"), Container(label: "d"))
        try a.addFallback(b)
        try a.addFallback(c)
        try b.addFallback(d)
        try c.addFallback(d)
        d.register(Animal.self, name: "shared") { _ in Cat() }.inObjectScope(.container)

        #expect(a.resolve(Animal.self, name: "shared") === c.resolve(Animal.self, name: "shared"))
        #expect(a.hasAnyRegistration(of: Animal.self, name: "shared"))
        #expect(!a.hasAnyRegistration(of: Engine.self))
        let error = #expect(throws: ResolutionError.self) { try a.require(Animal.self) }
        #expect(error?.nearMisses.map(\.description) == [#"Animal (name: "shared")"#])
        a.resetObjectScope(.container)
        #expect(a.resolve(Engine.self) == nil)
    }

    @Test func containersAddedToEachOtherAtOnceNeverFormACycle() throws {
        // Long chains behind each container make the cycle check slow enough for the two to overlap.
        func chain(_ label: String) throws -> Container {
            let head = Container(label: label)
            var last = head
            for index in 0..<100 {
                let next = Container(label: "\(label)\(index)")
                try last.addFallback(next)
                last = next
            }
            return head
        }
        for _ in 0..<100 {
            let a = try chain("a")
            let b = try chain("b")
            let added = Counter()
            let ready = Counter()
            let done = DispatchGroup()
            for (from, to) in [(a, b), (b, a)] {
                let pair = UncheckedBox(value: (from, to))
                DispatchQueue.global().async(group: done) {
                    ready.increment()
                    while ready.count < 2 {}  // both threads start the check together
                    if (try? pair.value.0.addFallback(pair.value.1)) != nil { added.increment() }
                }
            }
            done.wait()
            #expect(added.count == 1)
            #expect(a.resolve(Engine.self) == nil)  // would never return with a cycle
        }
    }

    // MARK: Fallback graphs with shared containers

    /// Stacks `levels` diamonds: each level's top falls back to two containers that share the level below.
    private static func stackedDiamonds(_ levels: Int, bottom: Container) -> Container {
        var top = bottom
        for level in 0..<levels {
            let left = Container(parent: top, label: "left\(level)")
            let right = Container(parent: top, label: "right\(level)")
            let next = Container(label: "top\(level)")
            try? next.addFallback(left)
            try? next.addFallback(right)
            top = next
        }
        return top
    }

    @Test func lookupThroughManyStackedDiamondsFindsTheBottomAndMissesFast() {
        let bottom = Container(label: "bottom")
        bottom.register(Int.self) { _ in 42 }
        // 40 levels: a walk that revisited shared containers would probe 2^40 of them.
        let top = Self.stackedDiamonds(40, bottom: bottom)
        #expect(top.resolve(Int.self) == 42)
        #expect(top.resolve(String.self) == nil)
        #expect(top.explain(Int.self).lookupPath.last == "bottom")
    }

    @Test func branchingLookupKeepsDepthFirstOrderPastTheUnbookkeptBudget() {
        // More than 64 containers before the match, so the search switches to the walk with a visited set.
        let shared = Container(label: "shared")
        shared.register(String.self) { _ in "shared" }
        let root = Container(label: "root")
        for index in 0..<100 {
            let branch = Container(parent: shared, label: "branch\(index)")
            if index == 99 { branch.register(String.self) { _ in "branch99" } }
            try? root.addFallback(branch)
        }
        // Depth-first: branch0, then its parent `shared`, which registers String: it wins over branch99.
        #expect(root.resolve(String.self) == "shared")
        let late = Container(label: "late")
        for index in 0..<100 { try? late.addFallback(Container(label: "empty\(index)")) }
        let last = Container(label: "last")
        last.register(Double.self) { _ in 1.5 }
        try? late.addFallback(last)
        #expect(late.resolve(Double.self) == 1.5)
    }
}
