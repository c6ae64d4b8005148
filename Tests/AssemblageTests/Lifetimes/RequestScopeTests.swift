import Assemblage
import Testing

@Suite struct RequestScopeTests {
    @Test func scopedInstanceIsSharedWithinAScopeAndDistinctAcrossScopes() throws {
        let container = Container()
        let log = DisposalLog()
        container.register(Tracked.self) { _ in Tracked("unit", log: log) }.inObjectScope(.scoped)
        let first = container.makeScope()
        let second = container.makeScope()
        let a1 = try first.require(Tracked.self)
        let a2 = try first.require(Tracked.self)
        let b = try second.require(Tracked.self)
        #expect(a1 === a2)
        #expect(a1 !== b)
        try first.endSynchronously()
        try second.endSynchronously()
    }

    @Test func dependenciesOfAScopedServiceResolveInTheSameScope() throws {
        let container = Container()
        let log = DisposalLog()
        container.register(Tracked.self, name: "leaf") { _ in Tracked("leaf", log: log) }.inObjectScope(.scoped)
        container.register(Tracked.self) { r in
            Tracked("root", log: log, dependencies: [try r.require(Tracked.self, name: "leaf")])
        }.inObjectScope(.scoped)
        try container.withSynchronousScope { scope in
            let root = try scope.require(Tracked.self)
            let leaf = try scope.require(Tracked.self, name: "leaf")
            #expect(root.dependencies.first === leaf)
        }
    }

    @Test func requestValuesAreIsolatedBetweenScopes() throws {
        // The leak: with a child container per request, an app-level service kept request 1's value.
        let container = Container()
        container.registerScopedValue(RequestValue.self)
        container.register(Audit.self) { r in Audit(request: try r.require(RequestValue.self)) }.inObjectScope(.scoped)
        for id in 1...3 {
            try container.withSynchronousScope { scope in
                try scope.provide(RequestValue(id: id))
                #expect(try scope.require(Audit.self).request.id == id)
            }
        }
    }

    @Test func resolvingAScopedServiceOutsideAScopeThrowsNoActiveScope() {
        let container = Container()
        container.register(Audit.self) { _ in Audit(request: RequestValue(id: 0)) }.inObjectScope(.scoped)
        #expect(container.resolve(Audit.self) == nil)
        #expect {
            try container.require(Audit.self)
        } throws: { error in
            let error = error as? ResolutionError
            return error?.code == .noActiveScope && error?.description.contains("withScope") == true
        }
    }

    @Test func containerServiceCapturingAScopedOneIsACaptiveDependencyError() {
        let container = Container()
        container.registerScopedValue(RequestValue.self)
        container.register(Audit.self) { r in Audit(request: try r.require(RequestValue.self)) }.inObjectScope(
            .container)
        let scope = container.makeScope()
        #expect(throws: Never.self) { try scope.provide(RequestValue(id: 1)) }
        #expect {
            try scope.require(Audit.self)
        } throws: { error in
            guard let error = error as? ResolutionError, error.code == .captiveDependency else { return false }
            return error.path.map(\.description) == ["Audit", "RequestValue"]
                && error.description.contains("Audit lives longer than any scope")
        }
        // Nothing was kept: the same resolve fails again the same way instead of leaking request 1.
        #expect((try? scope.require(Audit.self)) == nil)
    }

    @Test func singletonReachingAScopedServiceThroughATransientIsCaptive() {
        let container = Container()
        container.register(RequestValue.self) { _ in RequestValue(id: 7) }.inObjectScope(.scoped)
        container.register(Audit.self) { r in Audit(request: try r.require(RequestValue.self)) }
        container.register(String.self) { r in "\(try r.require(Audit.self).request.id)" }.inObjectScope(.singleton)
        #expect(throws: ResolutionError.self) { try container.withSynchronousScope { try $0.require(String.self) } }
    }

    @Test func providingAnUndeclaredValueThrowsNotDeclared() {
        let container = Container()
        let scope = container.makeScope()
        #expect {
            try scope.provide(RequestValue(id: 1))
        } throws: { error in
            (error as? ScopeError)?.code == .notDeclared
                && (error as? ScopeError)?.description.contains("registerScopedValue(RequestValue.self)") == true
        }
    }

    @Test func providingTwiceThrowsAlreadyProvided() throws {
        let container = Container()
        container.registerScopedValue(RequestValue.self)
        let scope = container.makeScope()
        try scope.provide(RequestValue(id: 1))
        #expect(throws: ScopeError.self) { try scope.provide(RequestValue(id: 2)) }
        #expect(try scope.require(RequestValue.self).id == 1)
    }

    @Test func aDeclaredValueThatWasNotProvidedThrowsScopedValueNotProvided() {
        let container = Container()
        container.registerScopedValue(RequestValue.self, name: "caller")
        #expect {
            try container.withSynchronousScope { try $0.require(RequestValue.self, name: "caller") }
        } throws: { error in
            let error = error as? ResolutionError
            return error?.code == .factoryFailed || error?.code == .scopedValueNotProvided
        }
    }

    @Test func resolvingThroughAnEndedScopeThrowsScopeEnded() throws {
        let container = Container()
        container.register(Audit.self) { _ in Audit(request: RequestValue(id: 0)) }.inObjectScope(.scoped)
        let scope = container.makeScope()
        try scope.endSynchronously()
        #expect(scope.isEnded)
        #expect { try scope.require(Audit.self) } throws: { ($0 as? ResolutionError)?.code == .scopeEnded }
        #expect(throws: ScopeError.self) {
            container.registerScopedValue(RequestValue.self)
            try scope.provide(RequestValue(id: 1))
        }
    }

    @Test func nonScopedRegistrationsResolveThroughAScopeAsThroughItsContainer() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        try container.withSynchronousScope { scope in
            let throughScope = try scope.require(Engine.self)
            let throughContainer = try container.require(Engine.self)
            #expect(throughScope === throughContainer)
            #expect(scope.container === container)
        }
    }

    @Test func aFactoryCanResolveTheScopeItRunsIn() throws {
        let container = Container()
        container.register(Scope.self, name: "unused") { _ in container.makeScope() }
        final class Holder: Sendable {
            let scope: Scope
            init(scope: Scope) { self.scope = scope }
        }
        container.register(Holder.self) { r in Holder(scope: try r.require(Scope.self)) }.inObjectScope(.scoped)
        try container.withSynchronousScope { scope in
            let holder = try scope.require(Holder.self)
            #expect(holder.scope === scope)
        }
    }

    @Test func asyncFactoriesResolveInTheirScope() async throws {
        let container = Container()
        container.registerScopedValue(RequestValue.self)
        container.register(Audit.self) { r async throws in
            await Task.yield()
            return Audit(request: try r.require(RequestValue.self))
        }.inObjectScope(.scoped)
        try await container.withScope { scope in
            try scope.provide(RequestValue(id: 42))
            let first = try await scope.resolveAsync(Audit.self)
            let second = try await scope.resolveAsync(Audit.self)
            #expect(first === second)
            #expect(first.request.id == 42)
        }
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Audit.self) }
    }

    @Test func asyncSingletonCapturingAScopedServiceIsCaptive() async {
        let container = Container()
        container.register(RequestValue.self) { _ in RequestValue(id: 1) }.inObjectScope(.scoped)
        container.register(Audit.self) { r async throws in
            Audit(request: try await r.resolveAsync(RequestValue.self))
        }.inObjectScope(.singleton)
        await #expect {
            try await container.withScope { try await $0.resolveAsync(Audit.self) }
        } throws: { error in
            (error as? ResolutionError)?.code == .captiveDependency
        }
    }

    @Test func concurrentResolvesInOneScopeMakeOneInstance() async throws {
        let container = Container()
        let made = DisposalLog()
        container.register(Tracked.self) { _ in
            made.record("made")
            return Tracked("unit", log: DisposalLog())
        }.inObjectScope(.scoped)
        let scope = container.makeScope()
        let identities = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<64 { group.addTask { (try? scope.require(Tracked.self)).map(ObjectIdentifier.init) } }
            return await group.reduce(into: Set<ObjectIdentifier?>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(made.count(of: "made") == 1)
        try await scope.end()
    }

    @Test func aFailedScopedCreationIsNotKept() throws {
        let container = Container()
        let attempts = DisposalLog()
        struct Flaky: Error {}
        container.register(Audit.self) { _ in
            attempts.record("try")
            if attempts.count(of: "try") == 1 { throw Flaky() }
            return Audit(request: RequestValue(id: 2))
        }.inObjectScope(.scoped)
        try container.withSynchronousScope { scope in
            #expect(throws: ResolutionError.self) { try scope.require(Audit.self) }
            let audit = try scope.require(Audit.self)
            #expect(audit.request.id == 2)
        }
    }

    @Test func aScopedCycleIsACycleError() {
        let container = Container()
        container.register(Engine.self) { r in
            _ = try r.require(Wheel.self)
            return Engine()
        }.inObjectScope(.scoped)
        container.register(Wheel.self) { r in Wheel(engine: try r.require(Engine.self)) }.inObjectScope(.scoped)
        #expect {
            try container.withSynchronousScope { try $0.require(Engine.self) }
        } throws: { ($0 as? ResolutionError)?.code == .cycle }
    }

    /// A scope holds a class instance as a reference and anything else boxed: instances registered under a class,
    /// a protocol and a value type are each shared within the scope, handed back as themselves, and disposed once,
    /// newest first (by conformance or by the registration's closure).
    @Test func scopeHoldsClassesProtocolExistentialsAndValuesAlike() throws {
        let log = DisposalLog()
        let container = Container()
        container.register(Tracked.self) { _ in Tracked("class", log: log) }.inObjectScope(.scoped)
        container.register((any Disposable).self) { _ in Tracked("protocol", log: log) }.inObjectScope(.scoped)
        container.register(RequestValue.self) { _ in RequestValue(id: 7) }.inObjectScope(.scoped)
            .onDispose { value in log.record("value \(value.id)") }
        container.register(AnyObject.self) { _ in Tracked("object", log: log) }.inObjectScope(.scoped)
            .onDispose { object in log.record("closure \((object as! Tracked).name)") }
        try container.withSynchronousScope { scope in
            let tracked = try scope.require(Tracked.self)
            #expect(try scope.require(Tracked.self) === tracked)
            let existential = try scope.require((any Disposable).self)
            #expect((try scope.require((any Disposable).self) as! Tracked) === (existential as! Tracked))
            #expect(try scope.require(RequestValue.self) == RequestValue(id: 7))
            #expect(try scope.require(RequestValue.self) == RequestValue(id: 7))
            let object = try scope.require(AnyObject.self)
            #expect(try scope.require(AnyObject.self) === object)
        }
        #expect(log.entries == ["closure object", "value 7", "protocol", "class"])
    }

    @Test func aProtocolRegistrationWhoseInstancesDifferInTypeDisposesEachByItsOwnType() throws {
        let log = DisposalLog()
        let container = Container()
        let next = Locked(0)
        // A registration of an existential whose instances alternate between a disposable class and a plain value:
        // each instance's disposer is its own type's, not the first instance's kept for the registration.
        container.register((any Sendable).self) { _ -> any Sendable in
            let index = next.withLock { count in
                defer { count += 1 }
                return count
            }
            return index.isMultiple(of: 2) ? Tracked("made \(index)", log: log) : RequestValue(id: index)
        }
        try container.withSynchronousScope { scope in
            for _ in 0..<4 { _ = try scope.require((any Sendable).self) }
        }
        #expect(log.entries == ["made 2", "made 0"])
    }
}
