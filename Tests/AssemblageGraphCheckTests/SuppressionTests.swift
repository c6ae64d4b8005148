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
}
