import AssemblageGraphCheckKit
import Testing

@Suite struct SuppressionTests {
    @Test func ignoreCommentSilencesTheFindingOnItsLine() {
        let source =
            "let app = try c.require(App.self)   // assemblage-check: ignore (registered by a plug-in at run time)"
        #expect(Check.run(source).isEmpty)
        #expect(Check.run("let app = try c.require(App.self)").count == 1)
    }

    @Test func ignoreCommentOnAnotherLineDoesNotSilence() {
        let source = """
            // assemblage-check: ignore
            let app = try c.require(App.self)
            """
        #expect(Check.run(source).count == 1)
    }

    @Test func ignoreCommentOnOneEdgeSilencesTheWholeCycle() {
        let source = """
            c.register(Chicken.self) { r in Chicken(egg: try r.require(Egg.self)) }
            c.register(Egg.self) { r in Egg(chicken: try r.require(Chicken.self)) }   // assemblage-check: ignore
            """
        #expect(Check.run(source).isEmpty)
    }

    @Test func ignoreCommentInsideAStringDoesNotSilence() {
        let source = #"let app = try c.require(App.self, name: "// assemblage-check: ignore")"#
        #expect(Check.run(source).count == 1)
    }

    @Test func ignoreCommentSilencesNotesToo() {
        #expect(Check.run("let s = c.resolve(Session.self)   // assemblage-check: ignore").isEmpty)
    }

    @Test func ignoreRegionSilencesEveryLineUpToItsEndOnly() {
        let source = """
            let before = try c.require(Before.self)
            // assemblage-check: ignore-begin (a graph broken on purpose)
            c.register(Chicken.self) { r in Chicken(egg: try r.require(Egg.self)) }
            c.register(Egg.self) { r in
                Egg(chicken: try r.require(Chicken.self), missing: try r.require(Missing.self))
            }
            // assemblage-check: ignore-end
            let after = try c.require(After.self)
            """
        #expect(Check.run(source).map(\.location.line) == [1, 8])
    }

    @Test func ignoreRegionWithoutEndRunsToTheEndOfTheFile() {
        let source = """
            let before = try c.require(Before.self)
            // assemblage-check: ignore-begin
            let after = try c.require(After.self)

            let last = try c.require(Last.self)
            """
        #expect(Check.run(source).map(\.location.line) == [1])
    }

    @Test func registrationsInAnIgnoredRegionStillCount() {
        let source = """
            // assemblage-check: ignore-begin
            c.register(Clock.self) { _ in SystemClock() }
            // assemblage-check: ignore-end
            let clock = try c.require(Clock.self)
            let missing = try c.require(Calendar.self)
            """
        #expect(Check.run(source).map(\.location.line) == [5])
    }
}
