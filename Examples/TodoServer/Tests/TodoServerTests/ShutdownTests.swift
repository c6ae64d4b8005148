import Assemblage
import Foundation
import HummingbirdTesting
import SQLiteNIO
import Testing
import TodoServerCore

/// Graceful shutdown: every disposable is disposed exactly once, in reverse creation order.
@Suite struct ShutdownTests {
    @Test func shutdownDisposesEveryDisposableOnceInReverseCreationOrder() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        let ids = (0..<12).map { "req-\($0)" }
        let pool = try await server.live { client in
            for (index, id) in ids.enumerated() {
                let response =
                    index.isMultiple(of: 2)
                    ? try await client.send(.post, "/todos", user: "ada", requestID: id, json: #"{"title":"t"}"#)
                    : try await client.send(.get, "/todos", user: "ada", requestID: id)
                #expect(response.status.code < 300)
            }
            #expect(
                server.recorder.disposals == ids.map { "RequestTrace \($0)" },
                "each request's scope ends with its request")
            return try await server.container.resolveAsync(SQLiteConnectionPool.self)
        }
        // The pool was made first, then the audit log (which writes through it): disposed in reverse, after the
        // server stopped; each request's trace was disposed when its request ended.
        #expect(server.recorder.disposals == ids.map { "RequestTrace \($0)" } + ["AuditLog", "SQLiteConnectionPool"])
        // The container's own account (its ContainerObserver hook) agrees: 12 request scopes, each disposing its
        // trace, then the container's shutdown, in reverse creation order.
        typealias Disposal = ContainerDisposalRecorder.Disposal
        #expect(
            server.containerRecorder.disposals
                == Array(repeating: Disposal(type: "RequestTrace", owner: #"scope "request""#), count: 12)
                + [
                    Disposal(type: "AuditLog", owner: #"container "todo-server""#),
                    Disposal(type: "SQLiteConnectionPool", owner: #"container "todo-server""#),
                ])
        #expect(server.containerRecorder.scopesEnded == ["request: 1 disposed, 0 failed": 12])
        #expect(await pool.isClosed)
        await #expect(throws: PoolClosedError.self) { try await pool.withConnection { _ in 1 } }

        try await server.container.shutdown()
        #expect(
            server.recorder.applicationDisposals == ["AuditLog", "SQLiteConnectionPool"],
            "a second shutdown disposes nothing that was disposed")
    }

    /// The audit log writes through the pool at disposal, so it proves the order: if the pool had closed first,
    /// the last batch would be lost.
    @Test func theAuditLogIsFlushedBeforeThePoolCloses() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            var ids: [Int] = []
            for index in 0..<5 {
                let created = try await client.send(.post, "/todos", user: "ada", json: #"{"title":"n\#(index)"}"#)
                ids.append(try created.decode(Todo.self).id)
            }
            _ = try await client.send(.patch, "/todos/\(ids[0])", user: "ada", json: #"{"completed":true}"#)
            _ = try await client.send(.delete, "/todos/\(ids[1])", user: "ada")
        }
        // 7 entries, fewer than a batch: all of them were written by the disposal at shutdown.
        let connection = try await SQLiteConnection.open(storage: .file(path: server.configuration.databasePath))
        let rows = try await connection.query("SELECT action, count(*) AS n FROM audit GROUP BY action ORDER BY action")
        try await connection.close()
        let counts = rows.map { "\($0.column("action")?.string ?? "?")=\($0.column("n")?.integer ?? -1)" }
        #expect(counts == ["create=5", "delete=1", "update=1"])
    }

    /// A disposer that fails is reported, and the others still run.
    @Test func aFailingDisposerIsReportedAndTheRestAreDisposed() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        struct Flaky: AsyncDisposable, Sendable {
            struct Failure: Error {}
            func dispose() async throws { throw Failure() }
        }
        let container = server.container
        _ = try await container.resolveAsync(AuditLog.self)
        container.register(Flaky.self) { _ in Flaky() }.inObjectScope(.container)
        _ = try container.require(Flaky.self)
        await #expect(throws: DisposalError.self) { try await container.shutdown() }
        #expect(server.recorder.applicationDisposals == ["AuditLog", "SQLiteConnectionPool"])
    }
}
