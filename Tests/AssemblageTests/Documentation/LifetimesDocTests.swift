import Assemblage
import Foundation
import Testing

// The code of the "Request Scopes and Disposal" article, compiled and run (see GettingStartedDocTests.swift).

enum LifetimesDoc {
    // snippet: lifetimes-types
    struct Request: Sendable {
        let id: String
        let user: String
    }

    /// A connection pool, shared by the whole app and closed at shutdown.
    final class ConnectionPool: AsyncDisposable, Sendable {
        func dispose() async throws {
            // close every connection
        }
    }

    /// One request's unit of work: rolled back when the request ends without committing.
    final class UnitOfWork: Disposable, @unchecked Sendable {
        let pool: ConnectionPool
        private(set) var committed = false
        private(set) var rolledBack = false
        init(pool: ConnectionPool) { self.pool = pool }
        func commit() { committed = true }
        func dispose() throws { if !committed { rolledBack = true } }
    }

    /// What the handler of one request uses.
    final class TodoRepository: Sendable {
        let work: UnitOfWork
        let request: Request
        init(work: UnitOfWork, request: Request) {
            self.work = work
            self.request = request
        }
    }
    // end-snippet

    static func makeContainer() -> Container {
        // snippet: lifetimes-register
        let container = Container(label: "app")
        container.register(ConnectionPool.self) { _ in ConnectionPool() }.inObjectScope(.container)
        container.registerScopedValue(Request.self)  // provided by each scope
        container.register(UnitOfWork.self) { r in UnitOfWork(pool: try r.require(ConnectionPool.self)) }
            .inObjectScope(.scoped)
        container.register(TodoRepository.self) { r in
            TodoRepository(work: try r.require(UnitOfWork.self), request: try r.require(Request.self))
        }.inObjectScope(.scoped)
        // end-snippet
        return container
    }
}

@Suite("Docs: Request Scopes and Disposal") struct LifetimesDocTests {
    typealias Request = LifetimesDoc.Request
    typealias TodoRepository = LifetimesDoc.TodoRepository
    typealias UnitOfWork = LifetimesDoc.UnitOfWork

    @Test func aRequestInAScope() async throws {
        let container = LifetimesDoc.makeContainer()
        let request = Request(id: "r-1", user: "ada")
        // snippet: lifetimes-with-scope
        let user = try await container.withScope(label: "request \(request.id)") { scope in
            try scope.provide(request)
            let todos = try scope.require(TodoRepository.self)
            todos.work.commit()
            return todos.request.user
        }  // the scope ends here: the UnitOfWork is disposed, the pool is not
        // end-snippet
        #expect(user == "ada")
    }

    @Test func aCaptiveDependencyIsAnError() throws {
        let container = LifetimesDoc.makeContainer()
        final class Audit: Sendable {
            let request: Request
            init(request: Request) { self.request = request }
        }
        // snippet: lifetimes-captive
        container.register(Audit.self) { r in Audit(request: try r.require(Request.self)) }
            .inObjectScope(.container)  // lives as long as the app: it must not keep one request

        try container.withSynchronousScope { scope in
            try scope.provide(Request(id: "r-2", user: "grace"))
            do {
                _ = try scope.require(Audit.self)
            } catch {
                print(error)
                // Captive dependency: Audit lives longer than any scope, but making it needs Request, which is
                // .scoped.
                //   Resolution path: Audit → Request
                //   Audit lives longer than any scope, so it would keep the Request of the first scope that made
                //   it and hand it to every later one. Make Audit .scoped too, or let Audit take what belongs to
                //   one unit of work as a call parameter: […]
            }
        }
        // end-snippet
        #expect(throws: ResolutionError.self) {
            try container.withSynchronousScope { scope in
                try scope.provide(Request(id: "r-3", user: "x"))
                _ = try scope.require(Audit.self)
            }
        }
    }

    @Test func aLongLivedServiceTakesTheScopeAsACallParameter() throws {
        let container = LifetimesDoc.makeContainer()
        // snippet: lifetimes-call-parameter
        final class AuditLog: Sendable {  // one for the app
            func record(_ event: String, in scope: Resolver) throws -> String {
                let request = try scope.require(Request.self)  // this request's, asked when needed
                return "\(request.user): \(event)"
            }
        }
        container.register(AuditLog.self) { _ in AuditLog() }.inObjectScope(.container)

        let line = try container.withSynchronousScope { scope in
            try scope.provide(Request(id: "r-4", user: "ada"))
            return try scope.require(AuditLog.self).record("signed in", in: scope)
        }
        print(line)  // ada: signed in
        // end-snippet
        #expect(line == "ada: signed in")
    }

    @Test func disposalOrderAndShutdown() async throws {
        let container = LifetimesDoc.makeContainer()
        // snippet: lifetimes-manual-scope
        let scope = container.makeScope(label: "job")
        try scope.provide(Request(id: "job-7", user: "batch"))
        let work = try scope.require(UnitOfWork.self)
        try await scope.end()  // disposes the job's instances, newest first; a second end does nothing
        // end-snippet
        #expect(work.rolledBack)
        // snippet: lifetimes-shutdown
        try await container.shutdown()  // disposes the pool (and every .container/.singleton instance)
        // end-snippet
    }

    @Test func validationKnowsScopedValues() {
        let container = LifetimesDoc.makeContainer()
        // snippet: lifetimes-validate
        let report = container.validate()
        print(report.isValid)  // true: Request is declared, so it is not reported missing
        // end-snippet
        #expect(report.isValid)
    }
}
