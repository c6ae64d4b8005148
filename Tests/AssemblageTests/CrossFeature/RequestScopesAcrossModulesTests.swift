import Assemblage
import Testing

// Request scopes across a module tree: a scope made from the assembler (`makeScope`, `withScope`, or a scope of its
// root resolver) or from a dependent module's view resolves every module's `.scoped` registrations, each in its own
// module but in the same request, and takes the values the modules declare.
//
// The tree: AcrossRequestFeedModule depends on AcrossRequestSessionModule; AcrossRequestBillingModule stands apart.

/// The request's session, made once per request by AcrossRequestSessionModule from the declared request value.
private final class AcrossRequestSession: Disposable, @unchecked Sendable {  // @unchecked: immutable but for the log.
    let request: RequestValue
    let log: DisposalLog
    init(request: RequestValue, log: DisposalLog) {
        self.request = request
        self.log = log
    }
    func dispose() throws { log.record("session \(request.id)") }
}

/// The feed of one request, made by AcrossRequestFeedModule over the session.
private final class AcrossRequestFeed: Disposable, @unchecked Sendable {  // @unchecked: immutable but for the log.
    let session: AcrossRequestSession
    let log: DisposalLog
    init(session: AcrossRequestSession, log: DisposalLog) {
        self.session = session
        self.log = log
    }
    func dispose() throws { log.record("feed \(session.request.id)") }
}

/// Registered by AcrossRequestBillingModule, which AcrossRequestFeedModule does not depend on.
private final class AcrossRequestInvoice: Sendable {}

/// What AcrossRequestFeedModule registers when it resolves an invoice it may not see.
private final class AcrossRequestLeakyFeed: Sendable {
    init(invoice: AcrossRequestInvoice) {}
}

/// Declares the request value and makes the session from it.
private struct AcrossRequestSessionModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let log: DisposalLog
    func assemble(container: Container) {
        let log = self.log
        container.registerScopedValue(RequestValue.self)
        container.register(AcrossRequestSession.self) { r in
            AcrossRequestSession(request: try r.require(RequestValue.self), log: log)
        }
        .inObjectScope(.scoped)
    }
}

private struct AcrossRequestFeedModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [AcrossRequestSessionModule.self] }
    let log: DisposalLog
    func assemble(container: Container) {
        let log = self.log
        container.register(AcrossRequestFeed.self) { r in
            AcrossRequestFeed(session: try r.require(AcrossRequestSession.self), log: log)
        }
        .inObjectScope(.scoped)
        container.register(AcrossRequestLeakyFeed.self) { r in
            // Undeclared on purpose:
            AcrossRequestLeakyFeed(invoice: try r.require(AcrossRequestInvoice.self))  // assemblage-check: ignore
        }
        .inObjectScope(.scoped)
    }
}

private struct AcrossRequestBillingModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(AcrossRequestInvoice.self) { _ in AcrossRequestInvoice() }.inObjectScope(.scoped)
    }
}

/// A connection a request opens asynchronously, made by AcrossRequestConnectionModule.
private final class AcrossRequestConnection: Disposable, @unchecked Sendable {  // @unchecked: immutable but the log.
    let session: AcrossRequestSession
    init(session: AcrossRequestSession) { self.session = session }
    func dispose() throws { session.log.record("connection \(session.request.id)") }
}

/// A transient helper that records its disposal.
private final class AcrossRequestFormatter: Disposable, @unchecked Sendable {  // @unchecked: immutable but the log.
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() throws { log.record("formatter") }
}

/// An async scoped connection over the session, and a transient formatter.
private struct AcrossRequestConnectionModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [AcrossRequestSessionModule.self] }
    let log: DisposalLog
    func assemble(container: Container) {
        let log = self.log
        container.register(AcrossRequestConnection.self) { r async throws in
            await Task.yield()
            return AcrossRequestConnection(session: try await r.resolveAsync(AcrossRequestSession.self))
        }.inObjectScope(.scoped)
        container.register(AcrossRequestFormatter.self) { _ in AcrossRequestFormatter(log: log) }
    }
}

extension CrossFeature {
    @Suite struct RequestScopesAcrossModulesTests {
        private func assemble(_ log: DisposalLog) throws -> (ModuleAssembler, Container) {
            let assembler = try ModuleAssembler([
                AcrossRequestFeedModule(log: log), AcrossRequestSessionModule(log: log),
                AcrossRequestBillingModule(),
            ])
            return (assembler, try #require(assembler.resolver as? Container))
        }

        @Test func scopedServicesOfSeveralModulesAreSharedWithinARequestAndDistinctAcrossRequests() throws {
            let log = DisposalLog()
            let (_, root) = try assemble(log)
            let first = root.makeScope(label: "request 1")
            let second = root.makeScope(label: "request 2")
            try first.provide(RequestValue(id: 1))
            try second.provide(RequestValue(id: 2))

            let feed = try first.require(AcrossRequestFeed.self)
            // AcrossRequestFeedModule's factory resolved AcrossRequestSessionModule's session in the same request scope.
            #expect(feed.session === (try first.require(AcrossRequestSession.self)))
            #expect(feed === (try first.require(AcrossRequestFeed.self)))
            #expect(feed.session.request == RequestValue(id: 1))

            let other = try second.require(AcrossRequestFeed.self)
            #expect(other !== feed && other.session !== feed.session)
            #expect(other.session.request == RequestValue(id: 2))
            try first.endSynchronously()
            try second.endSynchronously()
        }

        @Test func endingTheRequestDisposesEveryModulesScopedInstancesOnceNewestFirst() async throws {
            let log = DisposalLog()
            let (assembler, _) = try assemble(log)
            try await assembler.withScope(label: "request 7") { scope in
                try scope.provide(RequestValue(id: 7))
                _ = try scope.require(AcrossRequestFeed.self)  // makes the session first, then the feed
                _ = try scope.require(AcrossRequestSession.self)
            }
            #expect(log.entries == ["feed 7", "session 7"])
        }

        @Test func aScopedFactoryStillSeesOnlyItsModulesDependenciesInsideARequest() throws {
            // The root sees AcrossRequestBillingModule's invoice, but AcrossRequestFeedModule's factory runs in
            // AcrossRequestFeedModule's scope, which does not: the request scope does not widen what a module may resolve.
            let log = DisposalLog()
            let (assembler, _) = try assemble(log)
            try assembler.withSynchronousScope { scope in
                #expect((try? scope.require(AcrossRequestInvoice.self)) != nil)
                #expect {
                    try scope.require(AcrossRequestLeakyFeed.self)
                } throws: { error in
                    guard let error = error as? ResolutionError, error.code == .notRegistered else { return false }
                    return error.key == ServiceKey(AcrossRequestInvoice.self)
                        && error.path.map(\.description) == ["AcrossRequestLeakyFeed", "AcrossRequestInvoice"]
                }
            }
        }

        @Test func aScopeOfOneModulesViewResolvesItsOwnAndItsDependenciesScopedServicesOnly() throws {
            let log = DisposalLog()
            let (assembler, _) = try assemble(log)
            let feedView = try #require(try assembler.resolver(for: AcrossRequestFeedModule.self) as? Container)
            let sessionView = try #require(try assembler.resolver(for: AcrossRequestSessionModule.self) as? Container)
            try feedView.withSynchronousScope { scope in
                try scope.provide(RequestValue(id: 3))
                let feed = try scope.require(AcrossRequestFeed.self)
                #expect(feed.session === (try scope.require(AcrossRequestSession.self)))
            }
            #expect(log.entries == ["feed 3", "session 3"])
            try sessionView.withSynchronousScope { scope in
                try scope.provide(RequestValue(id: 4))
                #expect((try? scope.require(AcrossRequestSession.self))?.request == RequestValue(id: 4))
                #expect {
                    try scope.require(AcrossRequestFeed.self)
                } throws: { ($0 as? ResolutionError)?.code == .notRegistered }
            }
        }

        @Test func theAssemblersScopeIsAScopeOfItsResolver() throws {
            let (assembler, root) = try assemble(DisposalLog())
            let scope = assembler.makeScope(label: "request 5")
            #expect(scope.container === root)
            #expect(scope.label == "request 5")
            try scope.provide(RequestValue(id: 5))
            #expect(try scope.require(AcrossRequestSession.self).request == RequestValue(id: 5))
            try scope.endSynchronously()
            #expect(scope.isEnded)
        }

        @Test func anEndedRequestRefusesAModulesScopedService() throws {
            let (assembler, _) = try assemble(DisposalLog())
            let scope = assembler.makeScope()
            try scope.provide(RequestValue(id: 6))
            try scope.endSynchronously()
            #expect {
                try scope.require(AcrossRequestFeed.self)
            } throws: { ($0 as? ResolutionError)?.code == .scopeEnded }
        }

        @Test func aModulesAsyncScopedFactoryResolvesInTheRequestAndIsDisposedWithIt() async throws {
            let log = DisposalLog()
            let assembler = try ModuleAssembler([
                AcrossRequestConnectionModule(log: log), AcrossRequestSessionModule(log: log),
            ])
            try await assembler.withScope(label: "request 8") { scope in
                try scope.provide(RequestValue(id: 8))
                let connection = try await scope.resolveAsync(AcrossRequestConnection.self)
                #expect(connection === (try await scope.resolveAsync(AcrossRequestConnection.self)))
                #expect(connection.session === (try scope.require(AcrossRequestSession.self)))
            }
            #expect(log.entries == ["connection 8", "session 8"])
        }

        @Test func theAssemblersResolverResolvesAModulesAsyncFactory() async throws {
            // Outside any scope: resolveAsync through the root forwards into the module (it trapped before).
            let log = DisposalLog()
            let assembler = try ModuleAssembler([
                AcrossRequestConnectionModule(log: log), AcrossRequestSessionModule(log: log),
            ])
            await #expect {
                _ = try await assembler.resolver.resolveAsync(AcrossRequestConnection.self)
            } throws: { ($0 as? ResolutionError)?.code == .noActiveScope }
            let formatter = try await assembler.resolver.resolveAsync(AcrossRequestFormatter.self)
            #expect(formatter.log === log)
        }

        @Test func aModulesTransientMadeInARequestIsDisposedWhenItEnds() throws {
            let log = DisposalLog()
            let assembler = try ModuleAssembler([
                AcrossRequestConnectionModule(log: log), AcrossRequestSessionModule(log: log),
            ])
            try assembler.withSynchronousScope { scope in
                _ = try scope.require(AcrossRequestFormatter.self)
                #expect(log.entries.isEmpty)
            }
            #expect(log.entries == ["formatter"])
        }

        @Test func aValueDeclaredInAModuleMustBeProvidedByTheRequest() throws {
            let log = DisposalLog()
            let (_, root) = try assemble(log)
            try root.withSynchronousScope { scope in
                #expect {
                    try scope.require(AcrossRequestFeed.self)
                } throws: { error in
                    guard let error = error as? ResolutionError, error.code == .scopedValueNotProvided else {
                        return false
                    }
                    return error.key == ServiceKey(RequestValue.self)
                }
                // Provided once, it is the request's; a second provide is refused.
                try scope.provide(RequestValue(id: 9))
                #expect(throws: ScopeError.self) { try scope.provide(RequestValue(id: 10)) }
                #expect(try scope.require(AcrossRequestFeed.self).session.request == RequestValue(id: 9))
            }
            #expect(log.entries == ["feed 9", "session 9"])
        }
    }
}
