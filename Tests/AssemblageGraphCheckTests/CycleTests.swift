import AssemblageGraphCheckKit
import Testing

@Suite struct CycleTests {
    @Test func reportsACycleOfRequiredEdgesOnceWithTheRuntimesWords() throws {
        let findings = Check.run(
            """
            c.register(Chicken.self) { r in Chicken(egg: try r.require(Egg.self)) }
            c.register(Egg.self) { r in Egg(chicken: try r.require(Chicken.self)) }
            """)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.code == .cycle)
        #expect(finding.location.line == 1)
        #expect(
            finding.message == "Circular dependency: Chicken → Egg → Chicken. Break it with initCompleted "
                + "(property injection) or by resolving Lazy/Provider.")
    }

    @Test(arguments: ["try r.require(Lazy<A>.self)", "try r.require(Provider<A>.self)", "r.resolve(A.self)"])
    func lazyProviderAndOptionalResolveBreakCycles(_ backEdge: String) {
        let source = """
            c.register(A.self) { r in A(b: try r.require(B.self)) }
            c.register(B.self) { r in B(a: \(backEdge)) }
            """
        #expect(Check.run(source).filter { $0.code == .cycle }.isEmpty)
    }

    @Test func initCompletedBreaksCycles() {
        let source = """
            c.register(Parent.self) { r in Parent(child: try r.require(Child.self)) }
            c.register(Child.self) { _ in Child() }.initCompleted { r, child in child.parent = try r.require(Parent.self) }
            """
        #expect(Check.run(source).isEmpty)
    }

    @Test func collectionElementsTakePartInCycles() {
        let source = """
            c.registerIntoCollection(Plugin.self) { r in HostPlugin(host: try r.require(Host.self)) }
            c.register(Host.self) { r in Host(plugins: try r.resolveAll(Plugin.self)) }
            """
        #expect(Check.run(source).map(\.code) == [.cycle])
    }

    @Test func decoratorResolvesTakePartInCycles() {
        let source = """
            c.register(Storage.self) { _ in Disk() }
            c.register(Audit.self) { r in Audit(storage: try r.require(Storage.self)) }
            c.decorate(Storage.self) { r, inner in Audited(inner, audit: try r.require(Audit.self)) }
            """
        #expect(Check.run(source).map(\.code) == [.cycle])
    }

    @Test func aCycleThroughOneOfSeveralRegistrationsIsANote() throws {
        let source = """
            c.register(Ping.self) { r in Ping(pong: try r.require(Pong.self)) }
            c.register(Pong.self) { r in Pong(ping: try r.require(Ping.self)) }
            other.register(Ping.self) { _ in Ping(pong: nil) }
            """
        let finding = try #require(Check.run(source).first)
        #expect(finding.severity == .note)
        #expect(finding.message.hasPrefix("May be a circular dependency: Ping → Pong → Ping"))
    }

    @Test func recursionOnArgumentValuesIsANote() {
        let source =
            "c.register(Count.self) { (r, n: Int) in Count(next: n == 0 ? nil : try r.require(Count.self, argument: n - 1)) }"
        #expect(Check.run(source).map(\.severity) == [.note])
    }
}
