import Assemblage
import Foundation
import HummingbirdTesting
import Testing
import TodoLoadTest
import TodoServerCore

/// Request-scoped values: each request's services see that request's values, and nothing else sees them.
@Suite struct RequestScopeIsolationTests {
    /// 200 requests at once, each from its own user with its own request id: every response echoes its own id
    /// and user, its TodoService was made for its user (`X-Served-For`), and its body holds only its user's todos.
    @Test func twoHundredConcurrentRequestsSeeOnlyTheirOwnValues() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        let report = try await server.live { client in
            let port = try #require(client.port)
            return try await LoadTest.run(
                LoadTestOptions(
                    host: "127.0.0.1", port: port, requests: 200,
                    concurrency: 200, users: 200, requestIDPrefix: "iso",
                    timeLimit: .seconds(60)))
        }
        #expect(report.errors == 0, "\(report)")
        #expect(report.isolationViolations == 0, "\(report)")
        let traces = server.recorder.disposals.filter { $0.hasPrefix("RequestTrace ") }
        #expect(traces.count == 200, "one scope per request, each ended once")
        #expect(Set(traces) == Set((0..<200).map { "RequestTrace iso-\($0)" }))
        #expect(server.containerRecorder.scopesEnded == ["request: 1 disposed, 0 failed": 200])
    }

    /// The request values and the request's services resolve only through a request's scope: the application
    /// container cannot see them.
    @Test func theContainerOutsideARequestSeesNoRequestValues() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        let container = server.container
        #expect(throws: ResolutionError.self) { try container.require(UserID.self) }
        #expect(throws: ResolutionError.self) { try container.require(RequestID.self) }
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(TodoService.self) }

        // Within a scope: the scope's own values, and a second scope does not see the first one's.
        try await container.withScope(label: "first") { first in
            try first.provide(RequestID("r-1"))
            try first.provide(UserID("ada"))
            try await container.withScope(label: "second") { second in
                #expect(throws: ResolutionError.self) { try second.require(UserID.self) }
                try second.provide(UserID("bob"))
                #expect(try second.require(UserID.self) == UserID("bob"))
            }
            #expect(try first.require(UserID.self) == UserID("ada"))
        }
        try await container.shutdown()
    }

    /// A mistake the container catches: an application-lifetime service that would keep one request's user.
    @Test func anApplicationServiceCapturingTheUserIsAnError() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        struct LastUser: Sendable { let user: UserID }
        let container = server.container
        container.register(LastUser.self) { r in LastUser(user: try r.require(UserID.self)) }
            .inObjectScope(.container)
        try await container.withScope(label: "request") { scope in
            try scope.provide(UserID("ada"))
            #expect {
                try scope.require(LastUser.self)
            } throws: { error in
                (error as? ResolutionError)?.code == .captiveDependency
            }
        }
        let report = container.validate()
        #expect(report.errors.contains { $0.message.contains("LastUser") }, "\(report)")
    }
}
