import Assemblage
import Foundation
import Testing

// Request scopes with decorators: a decorator wraps a `.scoped` instance when it is made, before the scope keeps
// it, so each scope decorates its instance once and every resolve in the scope gets the decorated one.

private protocol RequestStore: Sendable {
    var layers: [String] { get }
}

private final class DiskRequestStore: RequestStore, Disposable, @unchecked Sendable {  // @unchecked: log only.
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    var layers: [String] { ["disk"] }
    func dispose() throws { log.record("disk") }
}

/// Wraps a store with the id of the request it was made for.
private final class RequestTaggedStore: RequestStore, Disposable, @unchecked Sendable {  // @unchecked: log only.
    let inner: RequestStore
    let request: RequestValue
    let log: DisposalLog
    init(inner: RequestStore, request: RequestValue, log: DisposalLog) {
        self.inner = inner
        self.request = request
        self.log = log
    }
    var layers: [String] { ["request \(request.id)"] + inner.layers }
    func dispose() throws { log.record("tagged \(request.id)") }
}

/// A scoped service over the store.
private final class RequestReport: Sendable {
    let store: RequestStore
    init(store: RequestStore) { self.store = store }
}

/// Counts calls from any thread.
private final class DecorationCount: @unchecked Sendable {  // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

extension CrossFeature {
    @Suite struct DecoratedScopedServicesTests {
        private func container(_ log: DisposalLog, decorations: DecorationCount) -> Container {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.register(RequestStore.self) { _ in DiskRequestStore(log: log) }.inObjectScope(.scoped)
            container.decorate(RequestStore.self) { r, inner in
                decorations.add()
                return RequestTaggedStore(inner: inner, request: try r.require(RequestValue.self), log: log)
            }
            container.register(RequestReport.self) { r in RequestReport(store: try r.require(RequestStore.self)) }
                .inObjectScope(.scoped)
            return container
        }

        @Test func eachScopeDecoratesItsInstanceOnceAndSharesTheDecoratedOne() throws {
            let log = DisposalLog()
            let decorations = DecorationCount()
            let container = container(log, decorations: decorations)
            let first = container.makeScope()
            let second = container.makeScope()
            try first.provide(RequestValue(id: 1))
            try second.provide(RequestValue(id: 2))

            let store = try first.require(RequestStore.self)
            #expect(store.layers == ["request 1", "disk"])
            #expect(store as AnyObject === (try first.require(RequestStore.self)) as AnyObject)
            #expect(try first.require(RequestReport.self).store as AnyObject === store as AnyObject)
            #expect(decorations.value == 1)

            // The decorator resolved the request value through the scope it decorates for.
            #expect(try second.require(RequestStore.self).layers == ["request 2", "disk"])
            #expect(decorations.value == 2)
            try first.endSynchronously()
            try second.endSynchronously()
        }

        @Test func theScopeDisposesTheDecoratedInstanceOnce() throws {
            let log = DisposalLog()
            let container = container(log, decorations: DecorationCount())
            try container.withSynchronousScope { scope in
                try scope.provide(RequestValue(id: 5))
                _ = try scope.require(RequestReport.self)
                _ = try scope.require(RequestStore.self)
            }
            #expect(log.count(of: "tagged 5") == 1)
            #expect(log.entries.first == "tagged 5")
        }

        @Test func aThrowingDecoratorFailsTheScopedResolveAndNothingIsKept() throws {
            struct Refused: Error {}
            let log = DisposalLog()
            let attempts = DecorationCount()
            let container = Container()
            container.register(RequestStore.self) { _ in DiskRequestStore(log: log) }.inObjectScope(.scoped)
            container.decorate(RequestStore.self) { _, inner in
                attempts.add()
                if attempts.value == 1 { throw Refused() }
                return inner
            }
            try container.withSynchronousScope { scope in
                #expect {
                    try scope.require(RequestStore.self)
                } throws: { error in
                    guard let error = error as? ResolutionError, error.code == .factoryFailed else { return false }
                    return error.underlying is Refused
                }
                // The failed creation was not kept: the next resolve in the same scope makes and decorates again.
                let store = try scope.require(RequestStore.self)
                #expect(store.layers == ["disk"])
                #expect(attempts.value == 2)
                #expect(store as AnyObject === (try scope.require(RequestStore.self)) as AnyObject)
            }
        }

        @Test func aDecoratorNeedingAValueTheScopeDidNotProvideFailsWithScopedValueNotProvided() {
            let log = DisposalLog()
            let container = container(log, decorations: DecorationCount())
            #expect {
                try container.withSynchronousScope { try $0.require(RequestStore.self) }
            } throws: { error in
                guard let error = error as? ResolutionError, error.code == .scopedValueNotProvided else { return false }
                return error.key == ServiceKey(RequestValue.self)
            }
        }

        @Test func decoratedScopedCollectionElementsAreDecoratedOncePerScope() throws {
            let log = DisposalLog()
            let decorations = DecorationCount()
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.registerIntoCollection(RequestStore.self) { _ in DiskRequestStore(log: log) }
                .inObjectScope(.scoped)
            container.decorate(RequestStore.self) { r, inner in
                decorations.add()
                return RequestTaggedStore(inner: inner, request: try r.require(RequestValue.self), log: log)
            }
            for id in 1...2 {
                try container.withSynchronousScope { scope in
                    try scope.provide(RequestValue(id: id))
                    let stores = try scope.resolveAll(RequestStore.self)
                    #expect(stores.map(\.layers) == [["request \(id)", "disk"]])
                    #expect(try scope.resolveAll(RequestStore.self)[0] as AnyObject === stores[0] as AnyObject)
                }
            }
            #expect(decorations.value == 2)
            #expect(log.count(of: "tagged 1") == 1 && log.count(of: "tagged 2") == 1)
        }
    }
}
