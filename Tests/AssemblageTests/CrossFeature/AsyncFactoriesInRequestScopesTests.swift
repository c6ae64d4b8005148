import Assemblage
import Foundation
import Testing

// Request scopes with async factories: `.scoped` registrations whose factories await, resolved with `resolveAsync`
// through a scope (also from several tasks of one request at once), disposed by `await scope.end()`.

/// A connection a request opens asynchronously and closes asynchronously.
private final class RequestConnection: AsyncDisposable, Sendable {
    let request: RequestValue
    let log: DisposalLog
    init(request: RequestValue, log: DisposalLog) {
        self.request = request
        self.log = log
    }
    func dispose() async throws {
        await Task.yield()
        log.record("connection \(request.id)")
    }
}

/// A scoped service over the connection, made by an async factory too.
private final class RequestQuery: Disposable, Sendable {
    let connection: RequestConnection
    init(connection: RequestConnection) { self.connection = connection }
    func dispose() throws { connection.log.record("query \(connection.request.id)") }
}

/// Counts calls from any thread.
private final class AsyncCallCounter: @unchecked Sendable {  // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    @discardableResult func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}

extension CrossFeature {
    @Suite struct AsyncFactoriesInRequestScopesTests {
        private func container(_ log: DisposalLog, opened: AsyncCallCounter = AsyncCallCounter()) -> Container {
            let container = Container()
            container.registerScopedValue(RequestValue.self)
            container.register(RequestConnection.self) { r async throws in
                opened.next()
                try await Task.sleep(for: .milliseconds(5))  // stands in for I/O; other tasks ask meanwhile
                return RequestConnection(request: try await r.resolveAsync(RequestValue.self), log: log)
            }.inObjectScope(.scoped)
            container.register(RequestQuery.self) { r async throws in
                RequestQuery(connection: try await r.resolveAsync(RequestConnection.self))
            }.inObjectScope(.scoped)
            return container
        }

        @Test func tasksOfOneRequestShareOneAsyncScopedInstanceMadeOnce() async throws {
            let log = DisposalLog()
            let opened = AsyncCallCounter()
            let container = container(log, opened: opened)
            try await container.withScope { scope in
                try scope.provide(RequestValue(id: 1))
                let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                    for _ in 0..<16 {
                        group.addTask { ObjectIdentifier(try await scope.resolveAsync(RequestQuery.self).connection) }
                    }
                    return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
                }
                #expect(identities.count == 1)
                #expect(opened.value == 1)
            }
            #expect(log.entries == ["query 1", "connection 1"])
        }

        @Test func eachRequestGetsItsOwnAsyncScopedInstanceWithItsOwnValue() async throws {
            let log = DisposalLog()
            let opened = AsyncCallCounter()
            let container = container(log, opened: opened)
            let queries = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for id in 1...4 {
                    group.addTask {
                        try await container.withScope(label: "request \(id)") { scope in
                            try scope.provide(RequestValue(id: id))
                            return (id, try await scope.resolveAsync(RequestQuery.self).connection.request.id)
                        }
                    }
                }
                return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
            }
            #expect(queries.allSatisfy { $0.0 == $0.1 })
            #expect(opened.value == 4)
            for id in 1...4 {
                #expect(log.count(of: "query \(id)") == 1 && log.count(of: "connection \(id)") == 1)
                let entries = log.entries
                #expect(entries.firstIndex(of: "query \(id)")! < entries.firstIndex(of: "connection \(id)")!)
            }
        }

        @Test func aSynchronousResolveOfAnAsyncScopedServiceThroughAScopeThrowsRequiresAsync() async throws {
            let log = DisposalLog()
            let container = container(log)
            try await container.withScope { scope in
                try scope.provide(RequestValue(id: 2))
                #expect {
                    try scope.require(RequestQuery.self)
                } throws: { ($0 as? ResolutionError)?.code == .requiresAsync }
                #expect(scope.resolve(RequestConnection.self) == nil)
                // The failed synchronous attempt kept nothing: the async one still works, once.
                let query = try await scope.resolveAsync(RequestQuery.self)
                #expect(query === (try await scope.resolveAsync(RequestQuery.self)))
            }
            #expect(log.entries == ["query 2", "connection 2"])
        }

        @Test func aSynchronousEndReportsTheAsyncOnlyDisposalInsteadOfSkippingIt() async throws {
            let log = DisposalLog()
            let container = container(log)
            let scope = container.makeScope()
            try scope.provide(RequestValue(id: 3))
            _ = try await scope.resolveAsync(RequestConnection.self)
            let end: () throws(DisposalError) -> Void = { () throws(DisposalError) in try scope.endSynchronously() }
            #expect {
                try end()
            } throws: { error in
                guard let error = error as? DisposalError else { return false }
                return error.failures.count == 1 && error.failures[0].requiresAsyncDisposal
                    && error.failures[0].key == ServiceKey(RequestConnection.self)
            }
            #expect(log.entries.isEmpty)
        }

        @Test func aFailedAsyncScopedCreationIsNotKeptAndTheNextResolveRetries() async throws {
            struct Unreachable: Error {}
            let attempts = AsyncCallCounter()
            let container = Container()
            container.register(RequestValue.self) { _ async throws in
                if attempts.next() == 1 { throw Unreachable() }
                await Task.yield()
                return RequestValue(id: attempts.value)
            }.inObjectScope(.scoped)
            try await container.withScope { scope in
                await #expect {
                    try await scope.resolveAsync(RequestValue.self)
                } throws: { error in
                    guard let error = error as? ResolutionError, error.code == .factoryFailed else { return false }
                    return error.underlying is Unreachable
                }
                let retried = try await scope.resolveAsync(RequestValue.self)
                let kept = try await scope.resolveAsync(RequestValue.self)
                #expect(retried == RequestValue(id: 2) && kept == retried)
            }
            #expect(attempts.value == 2)
        }

        @Test func aThrowingBodyStillDisposesWhatAsyncFactoriesMadeAndRethrows() async {
            struct HandlerFailed: Error {}
            let log = DisposalLog()
            let container = container(log)
            await #expect(throws: HandlerFailed.self) {
                try await container.withScope { scope in
                    try scope.provide(RequestValue(id: 5))
                    _ = try await scope.resolveAsync(RequestQuery.self)
                    throw HandlerFailed()
                }
            }
            #expect(log.entries == ["query 5", "connection 5"])
        }

        @Test func aCancelledRequestStillDisposesWhatAsyncFactoriesMade() async {
            let log = DisposalLog()
            let container = container(log)
            let resolved = AsyncCallCounter()
            let task = Task {
                try await container.withScope { scope in
                    try scope.provide(RequestValue(id: 6))
                    _ = try await scope.resolveAsync(RequestQuery.self)
                    resolved.next()
                    try await Task.sleep(for: .seconds(30))
                }
            }
            while resolved.value == 0 { try? await Task.sleep(for: .milliseconds(2)) }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(log.entries == ["query 6", "connection 6"])
        }

        @Test func asyncTransientsResolvedThroughAScopeAreDisposedWithIt() async throws {
            let log = DisposalLog()
            let container = Container()
            container.register(RequestConnection.self) { _ async in
                await Task.yield()
                return RequestConnection(request: RequestValue(id: 0), log: log)
            }.inObjectScope(.transient)
            let outside = try await container.resolveAsync(RequestConnection.self)  // the caller owns it
            try await container.withScope { scope in
                let a = try await scope.resolveAsync(RequestConnection.self)
                let b = try await scope.resolveAsync(RequestConnection.self)
                #expect(a !== b && a !== outside)
            }
            #expect(log.entries == ["connection 0", "connection 0"])
        }
    }
}
