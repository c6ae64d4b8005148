import Assemblage
import Testing

// Request scopes (`.scoped`, `withScope`, `registerScopedValue`, disposal) in a module tree: a scope made from the
// view of the module that registers the scoped services (`resolver(for:)`), which is a `Container`. Scopes made from
// the assembler or from a dependent module's view: RequestScopesAcrossModulesTests.swift.

/// The request's session, made once per request from the declared request value.
private final class ModuleRequestSession: Disposable, @unchecked Sendable {  // @unchecked: immutable but the log.
    let request: RequestValue
    let log: DisposalLog
    init(request: RequestValue, log: DisposalLog) {
        self.request = request
        self.log = log
    }
    func dispose() throws { log.record("session \(request.id)") }
}

/// A second scoped service of the same module, over the session.
private final class ModuleRequestJournal: Disposable, @unchecked Sendable {  // @unchecked: immutable but the log.
    let session: ModuleRequestSession
    init(session: ModuleRequestSession) { self.session = session }
    func dispose() throws { session.log.record("journal \(session.request.id)") }
}

/// Declares the request value; the session and the journal are scoped.
private struct ModuleRequestModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let log: DisposalLog
    func assemble(container: Container) {
        let log = self.log
        container.registerScopedValue(RequestValue.self)
        container.register(ModuleRequestSession.self) { r in
            ModuleRequestSession(request: try r.require(RequestValue.self), log: log)
        }.inObjectScope(.scoped)
        container.register(ModuleRequestJournal.self) { r in
            ModuleRequestJournal(session: try r.require(ModuleRequestSession.self))
        }.inObjectScope(.scoped)
    }
}

/// Depends on the request module; registers nothing scoped.
private struct ModuleRequestAppModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ModuleRequestModule.self] }
    func assemble(container: Container) {
        container.register(String.self, name: "app") { _ in "app" }
    }
}

extension CrossFeature {
    @Suite struct RequestScopesInModuleTreesTests {
        /// The request module's view, from an assembled tree.
        private func requestModule(_ log: DisposalLog) throws -> (ModuleAssembler, Container) {
            let assembler = try ModuleAssembler([ModuleRequestAppModule(), ModuleRequestModule(log: log)])
            return (assembler, try #require(try assembler.resolver(for: ModuleRequestModule.self) as? Container))
        }

        @Test func aModulesScopedServicesAreSharedWithinARequestAndDistinctAcrossRequests() throws {
            let log = DisposalLog()
            let (_, module) = try requestModule(log)
            let first = module.makeScope(label: "request 1")
            let second = module.makeScope(label: "request 2")
            try first.provide(RequestValue(id: 1))
            try second.provide(RequestValue(id: 2))

            let journal = try first.require(ModuleRequestJournal.self)
            #expect(journal === (try first.require(ModuleRequestJournal.self)))
            #expect(journal.session === (try first.require(ModuleRequestSession.self)))
            #expect(journal.session.request == RequestValue(id: 1))

            let other = try second.require(ModuleRequestJournal.self)
            #expect(other !== journal && other.session !== journal.session)
            #expect(other.session.request == RequestValue(id: 2))
            try first.endSynchronously()
            try second.endSynchronously()
            #expect(log.entries == ["journal 1", "session 1", "journal 2", "session 2"])
        }

        @Test func endingTheRequestDisposesTheModulesScopedInstancesOnceNewestFirst() async throws {
            let log = DisposalLog()
            let (_, module) = try requestModule(log)
            try await module.withScope(label: "request 7") { scope in
                try scope.provide(RequestValue(id: 7))
                _ = try scope.require(ModuleRequestJournal.self)  // makes the session first, then the journal
                _ = try scope.require(ModuleRequestSession.self)
            }
            #expect(log.entries == ["journal 7", "session 7"])
        }

        @Test func aValueTheModuleDeclaresMustBeProvidedOnceByTheRequest() throws {
            let log = DisposalLog()
            let (_, module) = try requestModule(log)
            try module.withSynchronousScope { scope in
                #expect {
                    try scope.require(ModuleRequestJournal.self)
                } throws: { error in
                    let error = error as? ResolutionError
                    return error?.code == .scopedValueNotProvided && error?.key == ServiceKey(RequestValue.self)
                }
                try scope.provide(RequestValue(id: 9))
                #expect {
                    try scope.provide(RequestValue(id: 10))
                } throws: { ($0 as? ScopeError)?.code == .alreadyProvided }
                #expect(try scope.require(ModuleRequestJournal.self).session.request == RequestValue(id: 9))
            }
            #expect(log.entries == ["journal 9", "session 9"])
        }

        @Test func aValueNoModuleDeclaresCannotBeProvided() throws {
            struct Undeclared: Sendable {}
            let (_, module) = try requestModule(DisposalLog())
            let scope = module.makeScope()
            #expect { try scope.provide(Undeclared()) } throws: { ($0 as? ScopeError)?.code == .notDeclared }
            try scope.endSynchronously()
        }

        @Test func aModulesScopedServiceOutsideAnyScopeThrowsNoActiveScope() throws {
            let log = DisposalLog()
            let (assembler, module) = try requestModule(log)
            #expect {
                try module.require(ModuleRequestJournal.self)
            } throws: { ($0 as? ResolutionError)?.code == .noActiveScope }
            #expect {
                try assembler.resolver.require(ModuleRequestSession.self)
            } throws: { ($0 as? ResolutionError)?.code == .noActiveScope }
            #expect(log.entries.isEmpty)
        }
    }
}
