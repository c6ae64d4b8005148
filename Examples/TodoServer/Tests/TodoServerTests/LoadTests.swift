import Foundation
import HummingbirdTesting
import Testing
import TodoLoadTest
import TodoServerCore

/// The request scopes' target for the example server: 1,000 requests at 32 concurrency on loopback, 0 errors, each
/// request's values isolated, clean shutdown. Bounded: the load stops sending after 120 s.
@Suite struct LoadTests {
    @Test func thousandRequestsAt32ConcurrencyAreIsolatedAndShutDownCleanly() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        let report = try await server.live { client in
            let port = try #require(client.port)
            return try await LoadTest.run(
                LoadTestOptions(
                    host: "127.0.0.1", port: port, requests: 1_000,
                    concurrency: 32, users: 64, requestIDPrefix: "load",
                    timeLimit: .seconds(120)))
        }
        print(
            "[figure] load (debug build, in the test): "
                + report.description.split(separator: "\n").joined(separator: "; "))
        #expect(report.errors == 0, "\(report)")
        #expect(report.isolationViolations == 0, "\(report)")
        let traces = server.recorder.disposals.filter { $0.hasPrefix("RequestTrace ") }
        #expect(traces.count == 1_000 && Set(traces).count == 1_000)
        #expect(server.recorder.applicationDisposals == ["AuditLog", "SQLiteConnectionPool"])
    }
}
