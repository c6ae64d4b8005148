import Assemblage
import Testing

// The resolve path keeps two 64-bit filters per thread (entries being constructed, entries in the graph)
// and scans only when an entry's bit is set. With more than 64 registrations in play bits must collide;
// these tests make them collide and check that collisions never change an answer.

private final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
    var length: Int { 1 + (next?.length ?? 0) }
}

private final class Shared: Sendable {}

private final class Holder: Sendable {
    let shared: Shared
    init(shared: Shared) { self.shared = shared }
}

private final class Fan: Sendable {
    let holders: [Holder]
    init(holders: [Holder]) { self.holders = holders }
}

@Suite struct ResolutionFilterTests {
    /// `n0 → n1 → … → n(count-1)`, each a distinct registration.
    private func chain(_ count: Int, scope: ObjectScope = .transient, closingAt: Int? = nil) -> Container {
        let container = Container()
        for index in 0..<count {
            container.register(Link.self, name: "n\(index)") { r in
                if index == count - 1 {
                    guard let target = closingAt else { return Link(next: nil) }
                    return Link(next: try r.require(Link.self, name: "n\(target)"))
                }
                return Link(next: try r.require(Link.self, name: "n\(index + 1)"))
            }.inObjectScope(scope)
        }
        return container
    }

    @Test func longChainOfDistinctRegistrationsIsNotMistakenForACycle() throws {
        // 300 entries on the stack at once: every one of the 64 filter bits is set several times over.
        let container = chain(300)
        #expect(try container.require(Link.self, name: "n0").length == 300)
        #expect(try chain(300, scope: .graph).require(Link.self, name: "n0").length == 300)
    }

    @Test func cycleDeepInAChainIsStillReportedWhenFilterBitsCollide() {
        let container = chain(200, closingAt: 120)
        do {
            _ = try container.require(Link.self, name: "n0")
            Issue.record("expected a cycle")
        } catch {
            #expect(error.code == .cycle)
            #expect(error.cycle.first?.name == "n120")
            #expect(error.cycle.last?.name == "n120")
            #expect(error.cycle.count == 81)  // n120 … n199, then n120 again
        }
    }

    @Test func containerAfterAFailedCycleResolvesNormally() throws {
        let container = chain(200, closingAt: 120)
        #expect(throws: ResolutionError.self) { try container.require(Link.self, name: "n0") }
        // The failed resolution left no frame or filter bit behind on this thread.
        container.register(Link.self, name: "n199") { _ in Link(next: nil) }
        #expect(try container.require(Link.self, name: "n0").length == 200)
    }

    @Test func graphScopeSharesOneInstanceAmongManyRegistrations() throws {
        let container = Container()
        container.register(Shared.self) { _ in Shared() }  // default scope: .graph
        for index in 0..<150 {
            container.register(Holder.self, name: "h\(index)") { r in Holder(shared: try r.require(Shared.self)) }
        }
        container.register(Fan.self) { r in
            Fan(holders: try (0..<150).map { try r.require(Holder.self, name: "h\($0)") })
        }
        let first = try container.require(Fan.self)
        let shared = first.holders[0].shared
        #expect(first.holders.allSatisfy { $0.shared === shared })
        let second = try container.require(Fan.self)
        #expect(second.holders[0].shared !== shared)
        #expect(second.holders.allSatisfy { $0.shared === second.holders[0].shared })
    }
}
