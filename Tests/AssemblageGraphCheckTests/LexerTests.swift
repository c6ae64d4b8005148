import AssemblageGraphCheckKit
import Testing

@Suite struct LexerTests {
    private func texts(_ source: String) -> [String] { Lexer.lex(source).tokens.map(\.text) }

    @Test func commentsProduceNoTokens() {
        let source = """
            a // r.require(X.self)
            /* one /* nested r.require(Y.self) */ still comment */ b
            /// doc `r.require(Z.self)`
            """
        #expect(texts(source) == ["a", "b"])
    }

    @Test func interpolationWithNestedStringsIsOneStringToken() {
        let tokens = Lexer.lex(#"let s = "a \(r.resolve(X.self)!) \("b \("c)")") d" + x"#).tokens
        #expect(tokens.map(\.text).suffix(3) == [#""a \(r.resolve(X.self)!) \("b \("c)")") d""#, "+", "x"])
        #expect(tokens[3].kind == .string)
        #expect(tokens[3].literal == nil)
    }

    @Test func plainStringCarriesItsValue() {
        let tokens = Lexer.lex(#"register(T.self, name: "pri\"mary")"#).tokens
        #expect(tokens.first { $0.kind == .string }?.literal == #"pri"mary"#)
    }

    @Test func rawStringKeepsBackslashParenthesisLiteral() {
        let tokens = Lexer.lex(##"x = #"r.require(\(A.self)) "q" \#(b)"# + y"##).tokens
        #expect(tokens.map(\.kind) == [.identifier, .punctuation, .string, .punctuation, .identifier])
    }

    @Test func multiLineStringEndsAtItsDelimiterAndKeepsLineNumbers() {
        let source = "let s = \"\"\"\n    r.require(A.self) \" \\\"\"\" \n    \"\"\"\nnext"
        let tokens = Lexer.lex(source).tokens
        #expect(tokens.last?.text == "next")
        #expect(tokens.last?.line == 4)
    }

    @Test func regexLiteralsAreSingleTokens() {
        let tokens = Lexer.lex(##"let a = #/resolve\((\w+)"/#; let b = /require\(/"##).tokens
        #expect(tokens.filter { $0.kind == .regex }.count == 2)
        #expect(!tokens.contains { $0.text == "require" })
    }

    @Test func divisionIsNotARegex() {
        #expect(texts("let r = a / b / c") == ["let", "r", "=", "a", "/", "b", "/", "c"])
    }

    @Test func ignoreMarkerRecordsItsLine() {
        let lexed = Lexer.lex("a\nb // assemblage-check: ignore (on purpose)\nc /* assemblage-check: ignore */")
        #expect(lexed.ignoredLines == [2, 3])
    }

    @Test func backtickedNamesLoseTheirBackticks() {
        #expect(texts("`Protocol`.self") == ["Protocol", ".", "self"])
    }

    @Test func tokensCarryLineAndColumn() {
        let tokens = Lexer.lex("a\n  bc(d)").tokens
        #expect(tokens[1].line == 2)
        #expect(tokens[1].column == 3)
        #expect(tokens[3].column == 6)
    }

    @Test func forceUnwrapIsToldFromASpacedOperator() {
        let tokens = Lexer.lex("f()! g() !x").tokens
        #expect(tokens[3].spaceBefore == false)
        #expect(tokens[7].spaceBefore == true)
    }

    @Test func directivesAreDroppedAndBranchesRecorded() {
        let file = SourceFile(path: "A.swift", text: "#if DEBUG\na\n#elseif os(Linux)\nb\n#else\nc\n#endif\nd")
        #expect(file.tokens.map(\.text) == ["a", "b", "c", "d"])
        #expect(file.branches.map { $0.map(\.branch) } == [[0], [1], [2], []])
    }

    @Test func bracketsAreMatched() {
        let file = SourceFile(path: "A.swift", text: "f(a[{ }], b)")
        #expect(file.close(1) == 9)
        #expect(file.close(3) == 6)
    }
}
