// The sharedThroughScopes scenario: requests whose scopes are the first to resolve shared instances that keep a
// resolver and a `Provider` of the request. Whichever scope asks first, no request may ever see another's value
// through what a shared instance keeps.
import Assemblage
import Foundation
import Synchronization

/// A `.container` service that keeps what its factory received: the resolver and a `Provider` of the request.
final class RequestKeeper: @unchecked Sendable {  // @unchecked: immutable.
    let resolver: any Resolver
    let request: Provider<ScopeRequest>

    init(resolver: any Resolver, request: Provider<ScopeRequest>) {
        self.resolver = resolver
        self.request = request
    }
}

/// A `.scoped` service of one request, which holds its keeper; disposed (once) when the request ends.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class RequestHandler: Disposable, Sendable {
    let request: ScopeRequest
    let keeper: RequestKeeper
    private let state: ScopeRunState
    private let disposals = Atomic<Int>(0)

    init(request: ScopeRequest, keeper: RequestKeeper, state: ScopeRunState) {
        self.request = request
        self.keeper = keeper
        self.state = state
        state.count(state.created)
    }

    func dispose() {
        if disposals.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 1 {
            state.count(state.disposed)
        } else {
            state.count(state.doubleDisposed)
        }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ScopeRun {
    /// Keepers registered under this many names; each thread resets the `.container` instances every
    /// ``keeperResetInterval`` scopes, so that scopes keep being the first to make them.
    static var keeperNames: Int { 16 }
    static var keeperResetInterval: Int { 32 }

    /// The container of the scenario: keepers and handlers over a declared request.
    static func keeperContainer(_ state: ScopeRunState) -> Container {
        let container = Container(label: "stress.shared")
        container.registerScopedValue(ScopeRequest.self)
        for index in 0..<keeperNames {
            container.register(RequestKeeper.self, name: "keeper\(index)") { r in
                RequestKeeper(resolver: r, request: try r.require(Provider<ScopeRequest>.self))
            }.inObjectScope(.container)
            container.register(RequestHandler.self, name: "handler\(index)") { r in
                RequestHandler(
                    request: try r.require(ScopeRequest.self),
                    keeper: try r.require(RequestKeeper.self, name: "keeper\(index)"), state: state)
            }.inObjectScope(.scoped)
        }
        return container
    }

    // MARK: sharedThroughScopes

    func sharedThroughScopes() -> ScopeOutcome {
        let container = Self.keeperContainer(state)
        return requestLoops { index, id, mine in
            if index % Self.keeperResetInterval == Self.keeperResetInterval - 1 {
                container.resetObjectScope(.container)
            }
            let name = id % Self.keeperNames
            try container.withSynchronousScope(label: "request") { scope in
                try scope.provide(ScopeRequest(id: id))
                let handler = try scope.require(RequestHandler.self, name: "handler\(name)")
                mine.resolves += 1
                check(handler, id: id, container: container)
            }
        }
    }

    /// Checks that the handler is this request's, and that its keeper reaches no request: its resolver is the
    /// container, and its `Provider` fails with `noActiveScope` while this request's scope is open.
    private func check(_ handler: RequestHandler, id: Int, container: Container) {
        if handler.request.id != id {
            state.count(state.crossScope)
            state.note("request \(id) got the handler of request \(handler.request.id)")
        }
        let keeper = handler.keeper
        if keeper.resolver is Scope || (keeper.resolver as? Container) !== container {
            state.count(state.crossScope)
            state.note("request \(id): a shared instance was made with a scope's resolver")
        }
        do {
            let leaked = try keeper.request.get()
            state.count(state.crossScope)
            state.note("request \(id) saw request \(leaked.id)'s value through a shared instance's Provider")
        } catch  where error.code == .noActiveScope {
            // What it must do: a long-lived service's Provider resolves from its container.
        } catch {
            state.count(state.crossScope)
            state.note("request \(id): a shared instance's Provider failed with \(error), not noActiveScope")
        }
    }
}
