import Assemblage
import Testing

// A → B → C → D through initialisers; C's step resolves A, D's step resolves B and C (Swinject's
// `testContainerResolvesCircularDependencyOnInitializersAndProperties`, with fixtures of our own).
private final class Alpha: @unchecked Sendable {
    let beta: Beta
    init(beta: Beta) { self.beta = beta }
}
private final class Beta: @unchecked Sendable {
    let gamma: Gamma
    init(gamma: Gamma) { self.gamma = gamma }
}
private final class Gamma: @unchecked Sendable {
    let delta: Delta
    weak var alpha: Alpha?
    init(delta: Delta) { self.delta = delta }
}
private final class Delta: @unchecked Sendable {
    weak var beta: Beta?
    weak var gamma: Gamma?
}

/// A class made by a factory that counts its runs.
private final class Runs: @unchecked Sendable { var count = 0 }

@Suite struct PropertyCycleTests {
    private func chain(_ scope: ObjectScope, runs: Runs = Runs()) -> Container {
        let container = Container()
        container.register(Alpha.self) { r in
            runs.count += 1
            return Alpha(beta: try r.require(Beta.self))
        }
        .inObjectScope(scope)
        container.register(Beta.self) { r in Beta(gamma: try r.require(Gamma.self)) }.inObjectScope(scope)
        container.register(Gamma.self) { r in Gamma(delta: try r.require(Delta.self)) }
            .inObjectScope(scope)
            .initCompleted { r, gamma in gamma.alpha = try r.require(Alpha.self) }
        container.register(Delta.self) { _ in Delta() }
            .inObjectScope(scope)
            .initCompleted { r, delta in
                delta.beta = try r.require(Beta.self)
                delta.gamma = try r.require(Gamma.self)
            }
        return container
    }

    @Test(arguments: [ObjectScope.graph, .container])
    func cycleThroughInitializersClosedByPropertiesResolvesToOneGraph(scope: ObjectScope) throws {
        let container = chain(scope)
        let alpha = try container.require(Alpha.self)
        let beta = alpha.beta
        let gamma = beta.gamma
        let delta = gamma.delta
        #expect(gamma.alpha === alpha)
        #expect(delta.beta === beta)
        #expect(delta.gamma === gamma)
    }

    @Test func graphClosedByPropertiesIsNewOnTheNextResolve() throws {
        let runs = Runs()
        let container = chain(.graph, runs: runs)
        let first = try container.require(Alpha.self)
        let runsForOne = runs.count
        let second = try container.require(Alpha.self)
        #expect(first !== second)
        #expect(second.beta.gamma.alpha === second)
        #expect(runs.count == 2 * runsForOne)  // the same work again: nothing of the first graph is reused
    }

    @Test func cycleOfInitializersIsAnErrorEvenWhenTheyHaveSteps() {
        let container = Container()
        container.register(CycleA.self) { r in CycleA(try r.require(CycleB.self)) }
            .initCompleted { _, _ in }
        container.register(CycleB.self) { r in CycleB(try r.require(CycleC.self)) }
            .initCompleted { _, _ in }
        container.register(CycleC.self) { r in CycleC(try r.require(CycleA.self)) }
        let error = #expect(throws: ResolutionError.self) { try container.require(CycleA.self) }
        #expect(error?.code == .cycle)
        #expect(error?.cycle.map(\.description) == ["CycleA", "CycleB", "CycleC", "CycleA"])
    }

    @Test func cycleOfInitializersReachedFromAStepIsStillAnError() {
        let container = Container()
        container.register(Delta.self) { _ in Delta() }
            .initCompleted { r, _ in _ = try r.require(CycleA.self) }
        container.register(CycleA.self) { r in CycleA(try r.require(CycleB.self)) }
        container.register(CycleB.self) { r in CycleB(try r.require(CycleC.self)) }
        container.register(CycleC.self) { r in CycleC(try r.require(CycleA.self)) }
        let error = #expect(throws: ResolutionError.self) { try container.require(Delta.self) }
        #expect(error?.code == .cycle)
        // The cycle is the repetition no step closed, printed from its first frame; the path starts at Delta.
        #expect(error?.cycle.map(\.description) == ["CycleA", "CycleB", "CycleC", "CycleA"])
        #expect(error?.path.map(\.description) == ["Delta", "CycleA", "CycleB", "CycleC", "CycleA"])
        #expect(error?.description.hasPrefix("Circular dependency: CycleA → CycleB → CycleC → CycleA.") == true)
    }

    @Test func cycleAboveAnAllowedReentryIsReportedFromItsInnermostFrame() {
        // Delta's step runs Alpha's factory again (allowed: Delta is in the graph); that second run needs Gamma,
        // which needs Alpha, with no step in between: a cycle of initialisers above the allowed re-entry.
        let runs = Runs()
        let container = Container()
        container.register(Alpha.self) { r in
            runs.count += 1
            if runs.count == 1 { _ = try r.require(Delta.self) } else { _ = try r.require(Gamma.self) }
            return Alpha(beta: Beta(gamma: Gamma(delta: Delta())))
        }
        container.register(Delta.self) { _ in Delta() }
            .initCompleted { r, _ in _ = try r.require(Alpha.self) }
        container.register(Gamma.self) { r in
            _ = try r.require(Alpha.self)
            return Gamma(delta: Delta())
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(Alpha.self) }
        #expect(error?.code == .cycle)
        #expect(error?.cycle.map(\.description) == ["Alpha", "Gamma", "Alpha"])
        #expect(error?.path.map(\.description) == ["Alpha", "Delta", "Alpha", "Gamma", "Alpha"])
        #expect(runs.count == 2)
    }

    @Test func stepOfATransientInstanceDoesNotCloseACycle() {
        // A transient instance is not kept in the graph: running Parent again would make a new Child, whose step
        // would run Parent again, forever. It is reported as a cycle instead.
        let container = Container()
        container.register(Parent.self) { r in Parent(child: try r.require(Child.self)) }
        container.register(Child.self) { _ in Child() }
            .inObjectScope(.transient)
            .initCompleted { r, child in child.parent = try r.require(Parent.self) }
        let error = #expect(throws: ResolutionError.self) { try container.require(Parent.self) }
        #expect(error?.code == .cycle)
        #expect(error?.cycle.map(\.description) == ["Parent", "Child", "Parent"])
        // The container stays usable, and the graph-scoped form of the same pair resolves.
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = try r.require(Parent.self) }
        let parent = container.resolve(Parent.self)
        #expect(parent != nil)
        #expect(parent?.child.parent === parent)
    }
}
