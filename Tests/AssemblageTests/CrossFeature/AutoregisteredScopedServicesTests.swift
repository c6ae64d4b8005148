import Assemblage
import Testing

// Request scopes with autoregistration: `autoregister(…).inObjectScope(.scoped)` and autoregistered services whose
// parameters are scoped services or declared scoped values, resolved through a scope.

/// A scoped unit of work, disposed when its request ends.
private final class AutoUnitOfWork: Disposable, @unchecked Sendable {  // @unchecked: immutable but for the log.
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() throws { log.record("unit") }
}

/// Autoregistered: every parameter resolved by type, in the resolving scope.
private final class AutoRepository: Disposable, @unchecked Sendable {  // @unchecked: immutable.
    let unit: AutoUnitOfWork
    let request: RequestValue
    init(unit: AutoUnitOfWork, request: RequestValue) {
        self.unit = unit
        self.request = request
    }
    func dispose() throws { unit.log.record("repository \(request.id)") }
}

/// Autoregistered over the repository.
private final class AutoHandler: Sendable {
    let repository: AutoRepository
    init(repository: AutoRepository) { self.repository = repository }
}

extension CrossFeature {
    @Suite struct AutoregisteredScopedServicesTests {
        private func container(_ log: DisposalLog, repositoryScope: ObjectScope = .scoped) -> Container {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.register(AutoUnitOfWork.self) { _ in AutoUnitOfWork(log: log) }.inObjectScope(.scoped)
            container.autoregister(AutoRepository.self, initializer: AutoRepository.init).inObjectScope(repositoryScope)
            container.autoregister(AutoHandler.self, initializer: AutoHandler.init).inObjectScope(.scoped)
            return container
        }

        @Test func anAutoregisteredScopedServiceIsSharedWithinAScopeAndItsParametersResolveThere() throws {
            let log = DisposalLog()
            let container = container(log)
            let first = container.makeScope()
            let second = container.makeScope()
            try first.provide(RequestValue(id: 1))
            try second.provide(RequestValue(id: 2))

            let handler = try first.require(AutoHandler.self)
            #expect(handler === (try first.require(AutoHandler.self)))
            #expect(handler.repository === (try first.require(AutoRepository.self)))
            #expect(handler.repository.unit === (try first.require(AutoUnitOfWork.self)))
            #expect(handler.repository.request == RequestValue(id: 1))

            let other = try second.require(AutoHandler.self)
            #expect(other !== handler && other.repository.unit !== handler.repository.unit)
            #expect(other.repository.request == RequestValue(id: 2))
            try first.endSynchronously()
            try second.endSynchronously()
        }

        @Test func endingTheScopeDisposesAutoregisteredInstancesOnceNewestFirst() throws {
            let log = DisposalLog()
            try container(log).withSynchronousScope { scope in
                try scope.provide(RequestValue(id: 3))
                _ = try scope.require(AutoHandler.self)
                _ = try scope.require(AutoRepository.self)
            }
            #expect(log.entries == ["repository 3", "unit"])
        }

        @Test func anAutoregisteredTransientResolvedThroughAScopeIsDisposedWithIt() throws {
            let log = DisposalLog()
            let container = container(log, repositoryScope: .transient)
            try container.withSynchronousScope { scope in
                try scope.provide(RequestValue(id: 4))
                let a = try scope.require(AutoRepository.self)
                let b = try scope.require(AutoRepository.self)
                #expect(a !== b && a.unit === b.unit)  // two transients over the scope's one unit
            }
            #expect(log.entries == ["repository 4", "repository 4", "unit"])
        }

        @Test func aParameterThatIsAnUnprovidedScopedValueFailsWithScopedValueNotProvided() throws {
            let log = DisposalLog()
            let container = container(log)
            let scope = container.makeScope()
            #expect {
                try scope.require(AutoHandler.self)
            } throws: { error in
                guard let error = error as? ResolutionError, error.code == .scopedValueNotProvided else { return false }
                return error.key == ServiceKey(RequestValue.self)
            }
            #expect(scope.resolve(AutoHandler.self) == nil)
            try scope.endSynchronously()
            #expect(log.entries == ["unit"])  // made before the value was found missing; the scope disposed it
        }

        @Test func anAutoregisteredScopedServiceOutsideAnyScopeThrowsNoActiveScope() {
            let log = DisposalLog()
            let container = container(log)
            #expect {
                try container.require(AutoHandler.self)
            } throws: { ($0 as? ResolutionError)?.code == .noActiveScope }
            #expect(log.entries.isEmpty)
        }
    }
}
