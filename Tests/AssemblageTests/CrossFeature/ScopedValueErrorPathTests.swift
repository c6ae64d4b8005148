import Assemblage
import Testing

// The path of a scopedValueNotProvided error: the whole resolution path to the value, as a notRegistered error at the
// same place has, on the synchronous, main-actor and async paths.

@MainActor
private final class PathScreenModel {
    init(request: RequestValue) {}
}

private final class PathRepository: Sendable {
    init(request: RequestValue) {}
}

private final class PathHandler: Sendable {
    init(repository: PathRepository) {}
}

/// Made by an async factory that resolves the repository (synchronous, over the value) with resolveAsync.
private final class PathAsyncHandler: Sendable {
    init(repository: PathRepository) {}
}

extension CrossFeature {
    @Suite struct ScopedValueErrorPathTests {
        @Test func anUnprovidedValueAutoregisteredParametersNeedNamesTheWholePath() throws {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.autoregister(PathRepository.self, initializer: PathRepository.init).inObjectScope(.scoped)
            container.autoregister(PathHandler.self, initializer: PathHandler.init).inObjectScope(.scoped)
            try container.withSynchronousScope { scope in
                let error = #expect(throws: ResolutionError.self) { try scope.require(PathHandler.self) }
                #expect(error?.code == .scopedValueNotProvided)
                #expect(error?.path.map(\.description) == ["PathHandler", "PathRepository", "RequestValue"])
            }
        }

        @Test func anUnprovidedValueAnAsyncFactoryNeedsNamesTheWholePath() async throws {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.autoregister(PathRepository.self, initializer: PathRepository.init).inObjectScope(.scoped)
            container.register(PathAsyncHandler.self) { r async throws in
                await Task.yield()
                return PathAsyncHandler(repository: try await r.resolveAsync(PathRepository.self))
            }.inObjectScope(.scoped)
            try await container.withScope { scope in
                let error = await #expect(throws: ResolutionError.self) {
                    try await scope.resolveAsync(PathAsyncHandler.self)
                }
                #expect(error?.code == .scopedValueNotProvided)
                #expect(error?.path.map(\.description) == ["PathAsyncHandler", "PathRepository", "RequestValue"])
            }
        }

        @Test func anUnprovidedValueResolvedAtTopLevelIsTheWholePath() throws {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            try container.withSynchronousScope { scope in
                let error = #expect(throws: ResolutionError.self) { try scope.require(RequestValue.self) }
                #expect(error?.code == .scopedValueNotProvided)
                #expect(error?.path.map(\.description) == ["RequestValue"])
            }
        }

        @MainActor
        @Test func anUnprovidedValueAMainActorFactoryNeedsNamesTheWholePath() throws {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.register(
                PathScreenModel.self,
                mainActorFactory: { r in
                    PathScreenModel(request: try r.require(RequestValue.self))
                }
            ).inObjectScope(.scoped)
            try container.withSynchronousScope { scope in
                let error = #expect(throws: ResolutionError.self) { try scope.require(PathScreenModel.self) }
                #expect(error?.code == .scopedValueNotProvided)
                #expect(error?.path.map(\.description) == ["PathScreenModel", "RequestValue"])
            }
        }
    }
}
