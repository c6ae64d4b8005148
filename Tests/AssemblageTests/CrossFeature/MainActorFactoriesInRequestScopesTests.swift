import Assemblage
import Testing

// Request scopes with main-actor factories: `.scoped` registrations made with `register(_:mainActorFactory:)`,
// resolved synchronously on the main actor or with `resolveAsync` from any task, and disposed by their scope.

/// A view model of one request's screen: its initialiser is isolated to the main actor.
@MainActor
private final class RequestScreenModel: Disposable {
    let unit: Tracked
    let request: RequestValue
    nonisolated let log: DisposalLog
    var title = ""
    init(unit: Tracked, request: RequestValue, log: DisposalLog) {
        self.unit = unit
        self.request = request
        self.log = log
    }
    nonisolated func dispose() throws { log.record("screen") }
}

extension CrossFeature {
    @Suite struct MainActorFactoriesInRequestScopesTests {
        private func container(_ log: DisposalLog) -> Container {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.register(Tracked.self) { _ in Tracked("unit", log: log) }.inObjectScope(.scoped)
            container.register(
                RequestScreenModel.self,
                mainActorFactory: { r in
                    RequestScreenModel(
                        unit: try r.require(Tracked.self), request: try r.require(RequestValue.self),
                        log: log)
                }
            ).inObjectScope(.scoped)
            return container
        }

        @MainActor
        @Test func onTheMainActorAScopedMainActorServiceIsSharedWithinAScopeAndDistinctAcrossScopes() throws {
            let log = DisposalLog()
            let container = container(log)
            let first = container.makeScope()
            let second = container.makeScope()
            try first.provide(RequestValue(id: 1))
            try second.provide(RequestValue(id: 2))

            let model = try first.require(RequestScreenModel.self)
            model.title = "first"
            #expect(model === (try first.require(RequestScreenModel.self)))
            #expect(model.unit === (try first.require(Tracked.self)))  // its nonisolated dependency, same scope
            #expect(model.request == RequestValue(id: 1))

            let other = try second.require(RequestScreenModel.self)
            #expect(other !== model && other.unit !== model.unit && other.title == "")
            #expect(other.request == RequestValue(id: 2))
            try first.endSynchronously()
            try second.endSynchronously()
            #expect(log.entries == ["screen", "unit", "screen", "unit"])
        }

        @Test func fromAnyTaskResolveAsyncHopsToTheMainActorAndSharesTheScopesInstance() async throws {
            let log = DisposalLog()
            let container = container(log)
            try await container.withScope { scope in
                try scope.provide(RequestValue(id: 3))
                let fromTasks = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                    for _ in 0..<8 {
                        group.addTask { ObjectIdentifier(try await scope.resolveAsync(RequestScreenModel.self)) }
                    }
                    return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
                }
                #expect(fromTasks.count == 1)
                let onMain = try await MainActor.run { ObjectIdentifier(try scope.require(RequestScreenModel.self)) }
                #expect(fromTasks == [onMain])
            }
            #expect(log.entries == ["screen", "unit"])
        }

        @Test func aSynchronousResolveOffTheMainActorThroughAScopeThrowsRequiresMainActor() async throws {
            let log = DisposalLog()
            let container = container(log)
            let scope = container.makeScope()
            try scope.provide(RequestValue(id: 4))
            let attempt = Task.detached { () -> ResolutionError.Code? in
                do {
                    _ = try scope.require(RequestScreenModel.self)
                    return nil
                } catch {
                    return (error as? ResolutionError)?.code
                }
            }
            #expect(await attempt.value == .requiresMainActor)
            // Nothing was kept by the failed attempt: the async resolve makes the model, once.
            let model = try await scope.resolveAsync(RequestScreenModel.self)
            #expect(await MainActor.run { model.request } == RequestValue(id: 4))
            try await scope.end()
            #expect(log.count(of: "screen") == 1)
        }

        @MainActor
        @Test func aMainActorScopedServiceNeedingAnUnprovidedValueFailsWithScopedValueNotProvided() throws {
            let log = DisposalLog()
            let container = container(log)
            try container.withSynchronousScope { scope in
                let error = #expect(throws: ResolutionError.self) { try scope.require(RequestScreenModel.self) }
                #expect(error?.code == .scopedValueNotProvided)
                #expect(error?.key == ServiceKey(RequestValue.self))
            }
            #expect(!log.entries.contains("screen"))
        }

        @MainActor
        @Test func outsideAnyScopeAScopedMainActorServiceThrowsNoActiveScope() {
            let container = container(DisposalLog())
            #expect {
                try container.require(RequestScreenModel.self)
            } throws: { ($0 as? ResolutionError)?.code == .noActiveScope }
        }
    }
}
