/// What a token is. The checker needs far less than the compiler: identifiers (keywords included), literals,
/// punctuation and compiler directives; whitespace and comments are dropped.
package enum TokenKind: Sendable, Equatable {
    /// An identifier or a keyword (`register`, `struct`, `self`); a backticked name without its backticks.
    case identifier
    /// A number literal.
    case number
    /// A string literal (also multi-line and raw strings, with any interpolations inside it).
    case string
    /// A regular-expression literal (`#/…/#`, or `/…/` where an expression starts).
    case regex
    /// One punctuation or operator character, or `->`.
    case punctuation
    /// A compiler directive or a `#` keyword: `#if`, `#else`, `#elseif`, `#endif`, `#selector`.
    case pound
}

/// One token of a Swift source file.
package struct Token: Sendable, Equatable {
    /// What the token is.
    package var kind: TokenKind
    /// The token's text; for a string, the literal value when it has no interpolation (see ``literal``).
    package var text: String
    /// The 1-based line of its first character.
    package var line: Int
    /// The 1-based column (in UTF-8 bytes) of its first character.
    package var column: Int
    /// Whether whitespace or a comment comes right before it (tells `x!` from `x !`).
    package var spaceBefore: Bool
    /// For a string without interpolation, its value; `nil` otherwise.
    package var literal: String?

    /// Whether this is the punctuation or identifier `text`.
    package func `is`(_ text: String) -> Bool {
        (kind == .punctuation || kind == .identifier || kind == .pound) && self.text == text
    }
}

/// A hand-written lexer for the part of Swift the graph check reads.
///
/// It knows what makes a naive scan go wrong on real code — nested block comments, string interpolation
/// (with strings and parentheses nested inside it), multi-line and raw strings, regex literals, backticked
/// names — so that text inside a comment or a string never looks like a call. It does not build a syntax
/// tree: the ``DSLScanner`` reads the token stream with bracket matching.
///
/// ```swift
/// let lexed = Lexer.lex("container.register(Clock.self) { _ in SystemClock() } // note")
/// lexed.tokens.map(\.text)   // ["container", ".", "register", "(", "Clock", ".", "self", ")", "{", …]
/// ```
///
/// - Complexity: O(n) in the length of the source.
package struct Lexer {
    /// The tokens and the comment facts of one file.
    package struct Output: Sendable {
        /// The tokens, in order.
        package var tokens: [Token]
        /// Lines that carry the comment `assemblage-check: ignore`, and the lines from a comment
        /// `assemblage-check: ignore-begin` to the next `assemblage-check: ignore-end` (or the end of the file).
        package var ignoredLines: Set<Int>
        /// Whether a comment says `assemblage-check: accessors`.
        package var requestsAccessors: Bool
        /// Whether a comment says `assemblage-check: validation-tests`.
        package var requestsValidationTests: Bool
    }

    /// The comment that asks the plugin to generate a validation test per root module (in a test target).
    package static let validationTestsMarker = "assemblage-check: validation-tests"

    /// The comment that asks the plugin to generate typed accessors for the target's registrations.
    package static let accessorsMarker = "assemblage-check: accessors"

    /// The comment that silences every finding on its line.
    package static let ignoreMarker = "assemblage-check: ignore"

    /// The comment that silences every finding from its line to the next ``ignoreEndMarker``: for code that is
    /// broken on purpose (a test of the runtime's errors, an article's example of a mistake) and that cannot
    /// carry a comment on each line.
    package static let ignoreBeginMarker = "assemblage-check: ignore-begin"

    /// The comment that ends the region a ``ignoreBeginMarker`` started (on its own line, which is silenced).
    package static let ignoreEndMarker = "assemblage-check: ignore-end"

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var tokens: [Token] = []
    private var ignoredLines = Set<Int>()
    /// The line of an `ignore-begin` comment whose region is still open.
    private var ignoredSince: Int?
    private var requestsAccessors = false
    private var requestsValidationTests = false
    private var sawSpace = true

    private init(_ source: String) { bytes = Array(source.utf8) }

    /// Splits `source` into tokens.
    ///
    /// - Parameter source: The text of a Swift file.
    /// - Returns: Its tokens and the lines silenced by ``ignoreMarker`` and by ``ignoreBeginMarker`` regions.
    package static func lex(_ source: String) -> Output {
        var lexer = Lexer(source)
        lexer.run()
        if let start = lexer.ignoredSince { lexer.ignoredLines.formUnion(start...lexer.line) }
        return Output(
            tokens: lexer.tokens, ignoredLines: lexer.ignoredLines, requestsAccessors: lexer.requestsAccessors,
            requestsValidationTests: lexer.requestsValidationTests)
    }

    private func peek(_ offset: Int = 0) -> UInt8 {
        index + offset < bytes.count ? bytes[index + offset] : 0
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func emit(
        _ kind: TokenKind, from start: Int, line startLine: Int, column: Int,
        text: String? = nil, literal: String? = nil
    ) {
        let value = text ?? String(decoding: bytes[start..<index], as: UTF8.self)
        tokens.append(
            Token(
                kind: kind, text: value, line: startLine, column: column, spaceBefore: sawSpace,
                literal: literal))
        sawSpace = false
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || byte == 95 || byte >= 0x80
    }

    private static func isIdentifierBody(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= 48 && byte <= 57)
    }

    private mutating func run() {
        while index < bytes.count {
            let byte = bytes[index]
            let column = index - lineStart + 1
            let startLine = line
            let start = index
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                advance()
                sawSpace = true
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                lineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                blockComment()
            case UInt8(ascii: "\""):
                let literal = string(hashes: 0)
                emit(.string, from: start, line: startLine, column: column, literal: literal)
            case UInt8(ascii: "#"):
                pound(start: start, line: startLine, column: column)
            case UInt8(ascii: "`"):
                advance()
                let nameStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "`"), bytes[index] != UInt8(ascii: "\n") {
                    advance()
                }
                let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
                if index < bytes.count, bytes[index] == UInt8(ascii: "`") { advance() }
                emit(.identifier, from: start, line: startLine, column: column, text: name)
            case UInt8(ascii: "$"):
                advance()
                while index < bytes.count, Lexer.isIdentifierBody(bytes[index]) { advance() }
                emit(.identifier, from: start, line: startLine, column: column)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                while index < bytes.count,
                    Lexer.isIdentifierBody(bytes[index])
                        || (bytes[index] == UInt8(ascii: ".") && (48...57).contains(peek(1)))
                {
                    advance()
                }
                emit(.number, from: start, line: startLine, column: column)
            case UInt8(ascii: "/") where regexCanStart():
                if !bareRegex() {
                    punctuation(start: start, line: startLine, column: column)
                } else {
                    emit(.regex, from: start, line: startLine, column: column)
                }
            default:
                if Lexer.isIdentifierStart(byte) {
                    while index < bytes.count, Lexer.isIdentifierBody(bytes[index]) { advance() }
                    emit(.identifier, from: start, line: startLine, column: column)
                } else {
                    punctuation(start: start, line: startLine, column: column)
                }
            }
        }
    }

    private mutating func punctuation(start: Int, line startLine: Int, column: Int) {
        if bytes[index] == UInt8(ascii: "-"), peek(1) == UInt8(ascii: ">") {
            advance()
            advance()
        } else {
            advance()
        }
        emit(.punctuation, from: start, line: startLine, column: column)
    }

    private mutating func lineComment() {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if text.contains(Lexer.ignoreMarker) { ignoredLines.insert(line) }
        if text.contains(Lexer.ignoreBeginMarker), ignoredSince == nil { ignoredSince = line }
        if text.contains(Lexer.ignoreEndMarker), let since = ignoredSince {
            ignoredLines.formUnion(since...line)
            ignoredSince = nil
        }
        if text.contains(Lexer.accessorsMarker) { requestsAccessors = true }
        if text.contains(Lexer.validationTestsMarker) { requestsValidationTests = true }
        sawSpace = true
    }

    private mutating func blockComment() {
        var depth = 0
        let firstLine = line
        let start = index
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                advance()
                advance()
            } else if bytes[index] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                advance()
                advance()
                if depth == 0 { break }
            } else {
                advance()
            }
        }
        if firstLine == line, String(decoding: bytes[start..<index], as: UTF8.self).contains(Lexer.ignoreMarker) {
            ignoredLines.insert(line)
        }
        sawSpace = true
    }

    /// `#if`, `#selector`, a raw string `#"…"#` or an extended regex `#/…/#`.
    private mutating func pound(start: Int, line startLine: Int, column: Int) {
        var hashes = 0
        while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
        if peek(hashes) == UInt8(ascii: "\"") {
            for _ in 0..<hashes { advance() }
            let literal = string(hashes: hashes)
            emit(.string, from: start, line: startLine, column: column, literal: literal)
        } else if peek(hashes) == UInt8(ascii: "/") {
            for _ in 0...hashes { advance() }
            // Up to `/` followed by the same number of `#`.
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\") {
                    advance()
                } else if bytes[index] == UInt8(ascii: "/"),
                    (0..<hashes).allSatisfy({ peek(1 + $0) == UInt8(ascii: "#") })
                {
                    for _ in 0...hashes { advance() }
                    break
                }
                if index < bytes.count { advance() }
            }
            emit(.regex, from: start, line: startLine, column: column)
        } else {
            advance()
            while index < bytes.count, Lexer.isIdentifierBody(bytes[index]) { advance() }
            emit(.pound, from: start, line: startLine, column: column)
        }
    }

    /// Reads a string literal starting at its opening quote (after any `#`), including interpolations with
    /// nested strings, and returns its value when it has no interpolation.
    private mutating func string(hashes: Int) -> String? {
        let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        let quotes = multiline ? 3 : 1
        for _ in 0..<quotes { advance() }
        var value: [UInt8] = []
        var interpolated = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\""), (0..<quotes).allSatisfy({ peek($0) == UInt8(ascii: "\"") }),
                (0..<hashes).allSatisfy({ peek(quotes + $0) == UInt8(ascii: "#") })
            {
                for _ in 0..<(quotes + hashes) { advance() }
                break
            }
            if !multiline, byte == UInt8(ascii: "\n") { break }  // unterminated: stop at the line's end
            if byte == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ peek(1 + $0) == UInt8(ascii: "#") }) {
                let after = peek(1 + hashes)
                for _ in 0...hashes { advance() }
                if after == UInt8(ascii: "(") {
                    interpolated = true
                    interpolation()
                } else if index < bytes.count {
                    switch after {
                    case UInt8(ascii: "n"): value.append(10)
                    case UInt8(ascii: "t"): value.append(9)
                    default: value.append(after)
                    }
                    advance()
                }
                continue
            }
            value.append(byte)
            advance()
        }
        return interpolated ? nil : String(decoding: value, as: UTF8.self)
    }

    /// Skips `( … )` of an interpolation, with nested parentheses, strings and comments.
    private mutating func interpolation() {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "(") {
                depth += 1
                advance()
            } else if byte == UInt8(ascii: ")") {
                depth -= 1
                advance()
                if depth == 0 { return }
            } else if byte == UInt8(ascii: "\"") {
                _ = string(hashes: 0)
            } else if byte == UInt8(ascii: "#"), peek(1) == UInt8(ascii: "\"") || peek(1) == UInt8(ascii: "#") {
                var hashes = 0
                while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
                if peek(hashes) == UInt8(ascii: "\"") {
                    for _ in 0..<hashes { advance() }
                    _ = string(hashes: hashes)
                } else {
                    advance()
                }
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                blockComment()
            } else {
                advance()
            }
        }
    }

    /// Whether a `/` here can start a bare regex literal: where an expression starts, not after an operand.
    private func regexCanStart() -> Bool {
        let next = peek(1)
        if next == UInt8(ascii: " ") || next == UInt8(ascii: "\n") || next == UInt8(ascii: "=")
            || next == UInt8(ascii: "/") || next == UInt8(ascii: "*") || next == 0
        {
            return false
        }
        guard let previous = tokens.last else { return true }
        switch previous.kind {
        case .identifier:
            return ["return", "in", "case", "where", "try", "await"].contains(previous.text)
        case .punctuation:
            return ["(", ",", "=", ":", "[", "{", ";", "->"].contains(previous.text)
        default:
            return false
        }
    }

    /// Reads `/…/` when a closing `/` follows on the same line; otherwise reads nothing and returns false.
    private mutating func bareRegex() -> Bool {
        var probe = index + 1
        while probe < bytes.count, bytes[probe] != UInt8(ascii: "\n") {
            if bytes[probe] == UInt8(ascii: "\\") {
                probe += 2
                continue
            }
            if bytes[probe] == UInt8(ascii: "/") {
                while index <= probe { advance() }
                return true
            }
            probe += 1
        }
        return false
    }
}
