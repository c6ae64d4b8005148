import Assemblage
import Testing

@Suite struct ConcurrentScopeTests {
    /// The request scopes' target: 10,000 concurrent scopes from tasks, every instance disposed exactly once, no instance
    /// seen from another scope (run under the thread sanitizer in CI).
    @Test func tenThousandConcurrentScopesDisposeEveryInstanceOnceAndNeverLeak() async throws {
        let container = Container()
        let log = DisposalLog()
        container.registerScopedValue(RequestValue.self)
        container.register(Audit.self) { r in Audit(request: try r.require(RequestValue.self)) }.inObjectScope(.scoped)
        container.register(Tracked.self) { r in
            Tracked("\(try r.require(Audit.self).request.id)", log: log)
        }.inObjectScope(.scoped)
        let scopes = 10_000
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in 0..<scopes {
                group.addTask {
                    try await container.withScope(label: "request \(id)") { scope in
                        try scope.provide(RequestValue(id: id))
                        let tracked = try scope.require(Tracked.self)
                        await Task.yield()
                        let audit = try await scope.resolveAsync(Audit.self)
                        return tracked.name == "\(id)" && audit.request.id == id ? 0 : 1
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        let disposed = log.entries
        #expect(disposed.count == scopes)
        #expect(Set(disposed).count == scopes)  // each scope's instance exactly once
    }
}
