import Assemblage
import Foundation
import Testing

/// A long-lived service that keeps what its factory gave it: the resolver, a `Provider` of the request.
private final class Dispatcher: @unchecked Sendable {  // @unchecked: immutable.
    let resolver: Resolver
    let request: Provider<RequestValue>
    let connection: Tracked?

    init(resolver: Resolver, request: Provider<RequestValue>, connection: Tracked? = nil) {
        self.resolver = resolver
        self.request = request
        self.connection = connection
    }
}

/// Shared instances (`.container`, `.singleton`, `.weak`, `.multiton`) belong to the container that owns their
/// registration: whichever scope asks first, they are made with that container's resolver.
@Suite struct SharedInstanceOwnershipTests {
    func app(_ scope: ObjectScope, log: DisposalLog = DisposalLog()) -> Container {
        let container = Container(label: "app")
        container.registerScopedValue(RequestValue.self)
        container.register(Tracked.self) { _ in Tracked("connection", log: log) }.inObjectScope(.transient)
        container.register(Dispatcher.self) { r in
            Dispatcher(
                resolver: r, request: try r.require(Provider<RequestValue>.self),
                connection: try r.require(Tracked.self))
        }.inObjectScope(scope)
        return container
    }

    @Test(arguments: [ObjectScope.container, .singleton, .weak])
    func sharedInstanceFirstMadeThroughAScopeGetsItsContainersResolver(scope objectScope: ObjectScope) throws {
        let container = app(objectScope)
        let scope = container.makeScope(label: "request 1")
        let dispatcher = try scope.require(Dispatcher.self)
        #expect((dispatcher.resolver as? Container) === container)
        #expect(!(dispatcher.resolver is Scope))
        try scope.endSynchronously()
        // What it kept still works after the first request ended: it is the container's, not the scope's.
        #expect(try dispatcher.resolver.require(Tracked.self).name == "connection")
        #expect(try container.require(Dispatcher.self) === dispatcher)
    }

    @Test func aTransientASingletonDependsOnIsNotDisposedByTheScopeThatAskedFirst() throws {
        let log = DisposalLog()
        let container = app(.singleton, log: log)
        let dispatcher = try container.withSynchronousScope { scope in try scope.require(Dispatcher.self) }
        // Had the container asked first, nothing would dispose it either: it is the singleton's, not the request's.
        #expect(log.entries.isEmpty)
        #expect(dispatcher.connection?.disposals == 0)
    }

    @Test func aProviderASingletonKeepsNeverHandsOutAScopesValue() async throws {
        let container = app(.container)
        let first = container.makeScope(label: "request 1")
        try first.provide(RequestValue(id: 1))
        let dispatcher = try first.require(Dispatcher.self)
        let second = container.makeScope(label: "request 2")
        try second.provide(RequestValue(id: 2))
        #expect(try second.require(Dispatcher.self) === dispatcher)
        // Both requests are open, and the singleton's Provider resolves from the container: a typed error,
        // never request 1's value handed to request 2.
        #expect { try dispatcher.request.get() } throws: { error in
            guard let error = error as? ResolutionError, error.code == .noActiveScope else { return false }
            return error.description.contains("takes the scope as a call parameter")
        }
        try await first.end()
        try await second.end()
    }

    @Test func aLongLivedServiceWorksWithPerRequestValuesThroughTheScopeAsACallParameter() throws {
        final class Greeter: Sendable {
            func greet(in scope: Resolver) throws -> String {
                "hello, request \(try scope.require(RequestValue.self).id)"
            }
        }
        let container = Container()
        container.registerScopedValue(RequestValue.self)
        container.register(Greeter.self) { _ in Greeter() }.inObjectScope(.container)
        for id in 1...3 {
            let greeting = try container.withSynchronousScope { scope in
                try scope.provide(RequestValue(id: id))
                return try scope.require(Greeter.self).greet(in: scope)
            }
            #expect(greeting == "hello, request \(id)")
        }
    }

    @Test func aScopeOfAScopeMakesSharedInstancesWithTheOutermostContainer() throws {
        let container = app(.container)
        let outer = container.makeScope(label: "job")
        let inner = outer.makeScope(label: "step")
        let dispatcher = try inner.require(Dispatcher.self)
        #expect((dispatcher.resolver as? Container) === container)
        try inner.endSynchronously()
        try outer.endSynchronously()
    }

    @Test func aMultitonFirstMadeThroughAScopeGetsItsContainersResolver() throws {
        final class Shard: @unchecked Sendable {  // @unchecked: immutable.
            let id: Int
            let resolver: Resolver
            init(id: Int, resolver: Resolver) {
                self.id = id
                self.resolver = resolver
            }
        }
        let container = Container()
        container.register(Shard.self) { (r, id: Int) in Shard(id: id, resolver: r) }.inObjectScope(.multiton)
        let shard = try container.withSynchronousScope { scope in try scope.require(Shard.self, argument: 3) }
        #expect((shard.resolver as? Container) === container)
    }

    @Test func anAsyncSingletonFirstMadeThroughAScopeGetsItsContainersResolver() async throws {
        final class Pool: @unchecked Sendable {  // @unchecked: immutable.
            let resolver: Resolver
            init(resolver: Resolver) { self.resolver = resolver }
        }
        let container = Container()
        container.register(Pool.self) { r async in Pool(resolver: r) }.inObjectScope(.singleton)
        let pool = try await container.withScope { scope in try await scope.resolveAsync(Pool.self) }
        #expect((pool.resolver as? Container) === container)
    }

    @Test func anEndedScopeMakesNoAsyncSharedInstance() async throws {
        final class Pool: Sendable {}
        let container = Container()
        container.register(Pool.self) { _ async in Pool() }.inObjectScope(.container)
        let scope = container.makeScope()
        try await scope.end()
        await #expect { try await scope.resolveAsync(Pool.self) } throws: {
            ($0 as? ResolutionError)?.code == .scopeEnded
        }
        _ = try await container.resolveAsync(Pool.self)  // the container itself still makes it
    }

    @MainActor @Test func aMainActorSingletonFirstMadeThroughAScopeGetsItsContainersResolver() throws {
        @MainActor final class Screen {
            let resolver: Resolver
            init(resolver: Resolver) { self.resolver = resolver }
        }
        let container = Container()
        container.register(Screen.self, mainActorFactory: { r in Screen(resolver: r) }).inObjectScope(.container)
        let scope = container.makeScope()
        let screen = try scope.require(Screen.self)
        #expect((screen.resolver as? Container) === container)
        try scope.endSynchronously()
    }

    @Test func aChildContainerStillMakesItsParentsSharedInstancesWithItsOwnResolver() throws {
        // Swinject's and Resolver's rule, kept: an overlay's registrations apply to what it asks for first.
        let main = Container(label: "main")
        main.registerScopedValue(RequestValue.self)
        main.register(Tracked.self) { _ in Tracked("live", log: DisposalLog()) }
        main.register(Dispatcher.self) { r in
            Dispatcher(
                resolver: r, request: try r.require(Provider<RequestValue>.self),
                connection: try r.require(Tracked.self))
        }.inObjectScope(.container)
        let overlay = Container(parent: main, label: "overlay")
        overlay.register(Tracked.self) { _ in Tracked("mock", log: DisposalLog()) }
        #expect(try overlay.require(Dispatcher.self).connection?.name == "mock")
    }
}

/// A longer-lived service that needs a scoped one is one diagnosis, whatever it is resolved through.
@Suite struct CaptiveDependencyDiagnosisTests {
    func app() -> Container {
        let container = Container(label: "app")
        container.registerScopedValue(RequestValue.self)
        container.register(Audit.self) { r in Audit(request: try r.require(RequestValue.self)) }.inObjectScope(.scoped)
        container.register(Engine.self) { r in
            _ = try r.require(Audit.self)
            return Engine()
        }.inObjectScope(.container)
        return container
    }

    func isTheCaptiveDiagnosis(_ error: any Error) -> Bool {
        guard let error = error as? ResolutionError, error.code == .captiveDependency else { return false }
        return error.holder == ServiceKey(Engine.self) && error.key == ServiceKey(Audit.self)
            && error.path == [ServiceKey(Engine.self), ServiceKey(Audit.self)]
            && error.description.hasPrefix(
                "Captive dependency: Engine lives longer than any scope, but making it "
                    + "needs Audit, which is .scoped.")
            && error.description.contains("Resolution path: Engine → Audit")
            && error.description.contains("as a call parameter")
    }

    @Test func resolvedThroughTheContainerItIsCaptiveNotNoActiveScope() {
        #expect { try app().require(Engine.self) } throws: { isTheCaptiveDiagnosis($0) }
    }

    @Test func resolvedThroughAScopeItIsTheSameDiagnosis() throws {
        let container = app()
        let scope = container.makeScope()
        try scope.provide(RequestValue(id: 1))
        #expect { try scope.require(Engine.self) } throws: { isTheCaptiveDiagnosis($0) }
        // Nothing was kept: the same resolve fails again the same way.
        #expect { try scope.require(Engine.self) } throws: { isTheCaptiveDiagnosis($0) }
        try scope.endSynchronously()
    }

    @Test func resolvedAsynchronouslyItIsTheSameDiagnosis() async {
        let container = app()
        await #expect {
            try await container.resolveAsync(Engine.self)
        } throws: { error in
            (error as? ResolutionError)?.code == .captiveDependency
                && (error as? ResolutionError)?.holder == ServiceKey(Engine.self)
        }
    }

    @Test func validateReportsTheSameDiagnosis() throws {
        let report = app().validate()
        let issue = try #require(report.errors.first { $0.kind == .captiveDependency })
        #expect(issue.key == ServiceKey(Audit.self))
        #expect(issue.message.contains("Engine lives longer than any scope"))
        #expect(
            !report.errors.contains {
                $0.message.contains("noActiveScope") || $0.message.contains("resolved through a container")
            })
    }
}
