import Assemblage
import Testing

// Request scopes with collections: `.scoped` and transient elements of `registerIntoCollection`, gathered with
// `resolveAll`, `resolveAllNamed` and `[T]` through a scope, and disposed when it ends.

/// A request handler step, contributed to a collection.
private final class RequestStep: Disposable, @unchecked Sendable {  // @unchecked: immutable but for the log.
    let name: String
    let request: RequestValue?
    let log: DisposalLog
    init(_ name: String, request: RequestValue? = nil, log: DisposalLog) {
        self.name = name
        self.request = request
        self.log = log
    }
    func dispose() throws { log.record(name) }
}

/// A scoped service that receives the whole collection.
private final class RequestPipeline: Sendable {
    let steps: [RequestStep]
    init(steps: [RequestStep]) { self.steps = steps }
}

extension CrossFeature {
    @Suite struct ScopedCollectionElementsTests {
        /// Three scoped elements, the second named and first by priority, the third reading the request value.
        private func container(_ log: DisposalLog) -> Container {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.registerIntoCollection(RequestStep.self) { _ in RequestStep("auth", log: log) }
                .inObjectScope(.scoped)
            container.registerIntoCollection(RequestStep.self, name: "trace", priority: 10) { _ in
                RequestStep("trace", log: log)
            }
            .inObjectScope(.scoped)
            container.registerIntoCollection(RequestStep.self) { r in
                RequestStep("audit", request: try r.require(RequestValue.self), log: log)
            }.inObjectScope(.scoped)
            container.register(RequestPipeline.self) { r in RequestPipeline(steps: try r.resolveAll(RequestStep.self)) }
                .inObjectScope(.scoped)
            return container
        }

        @Test func scopedElementsAreSharedWithinAScopeAndDistinctAcrossScopes() throws {
            let log = DisposalLog()
            let container = container(log)
            let first = container.makeScope()
            let second = container.makeScope()
            try first.provide(RequestValue(id: 1))
            try second.provide(RequestValue(id: 2))

            let steps = try first.resolveAll(RequestStep.self)
            #expect(steps.map(\.name) == ["trace", "auth", "audit"])  // priority first, then registration order
            let again = try first.resolveAll(RequestStep.self)
            #expect(zip(steps, again).allSatisfy { $0 === $1 })
            #expect(try first.require([RequestStep].self).elementsEqual(steps, by: ===))
            #expect(try first.resolveAllNamed(RequestStep.self)["trace"] === steps[0])
            // A scoped service given the collection gets the scope's elements.
            #expect(try first.require(RequestPipeline.self).steps.elementsEqual(steps, by: ===))

            let others = try second.resolveAll(RequestStep.self)
            #expect(zip(steps, others).allSatisfy { $0 !== $1 })
            #expect(steps[2].request == RequestValue(id: 1))
            #expect(others[2].request == RequestValue(id: 2))
            try first.endSynchronously()
            try second.endSynchronously()
        }

        @Test func endingTheScopeDisposesEachElementOnceInReverseCreationOrder() throws {
            let log = DisposalLog()
            let container = container(log)
            try container.withSynchronousScope { scope in
                try scope.provide(RequestValue(id: 1))
                _ = try scope.require(RequestPipeline.self)  // makes the elements in the collection's order
                _ = try scope.resolveAll(RequestStep.self)
            }
            // Made trace (priority 10), auth, audit: disposed newest first.
            #expect(log.entries == ["audit", "auth", "trace"])
        }

        @Test func transientElementsMadeThroughAScopeAreDisposedWithItAndOnlyThose() throws {
            let log = DisposalLog()
            let container = Container()
            container.registerIntoCollection(RequestStep.self) { _ in RequestStep("transient", log: log) }
                .inObjectScope(.transient)
            let outside = try container.resolveAll(RequestStep.self)  // the caller owns it
            try container.withSynchronousScope { scope in
                let a = try scope.resolveAll(RequestStep.self)
                let b = try scope.resolveAll(RequestStep.self)
                #expect(a[0] !== b[0] && a[0] !== outside[0])
            }
            #expect(log.entries == ["transient", "transient"])
        }

        @Test func aScopedElementOutsideAnyScopeFailsTheWholeCollectionWithNoActiveScope() {
            let log = DisposalLog()
            let container = container(log)
            #expect {
                try container.resolveAll(RequestStep.self)
            } throws: { error in
                (error as? ResolutionError)?.code == .noActiveScope
            }
            #expect(log.entries.isEmpty)
        }

        @Test func anElementNeedingAValueTheScopeDidNotProvideFailsTheCollectionAndTheOthersAreStillDisposed() throws {
            let log = DisposalLog()
            let container = container(log)
            let scope = container.makeScope()
            #expect {
                try scope.resolveAll(RequestStep.self)
            } throws: { error in
                guard let error = error as? ResolutionError, error.code == .scopedValueNotProvided else { return false }
                return error.key == ServiceKey(RequestValue.self)
            }
            // The elements made before the failing one (trace, then auth) belong to the scope, which disposes them
            // once, newest first.
            try scope.endSynchronously()
            #expect(log.entries == ["auth", "trace"])
        }
    }
}
