/// A lexed Swift file with what the scanner asks of it: matching brackets and the `#if` branch of each token.
package struct SourceFile: Sendable {
    /// The file's path, as it is printed in findings.
    package let path: String
    /// Its tokens.
    package let tokens: [Token]
    /// Lines silenced with `// assemblage-check: ignore` or inside an `ignore-begin`…`ignore-end` region.
    package let ignoredLines: Set<Int>
    /// Whether a comment asks for typed accessors (`// assemblage-check: accessors`).
    package let requestsAccessors: Bool
    /// Whether a comment asks for validation tests (`// assemblage-check: validation-tests`).
    package let requestsValidationTests: Bool
    /// For each opening `(`, `[` or `{`, the index of its closing partner (or the last token when it has none).
    package let partner: [Int: Int]
    /// For each token, the `#if` branches it is inside, as (group, branch) pairs.
    package let branches: [[IfBranch]]

    /// One branch of one `#if` group.
    package struct IfBranch: Sendable, Hashable {
        /// The `#if` group, numbered in the file.
        package var group: Int
        /// The branch of the group: 0 for `#if`, then one per `#elseif`/`#else`.
        package var branch: Int
    }

    /// Lexes `text` and prepares it for scanning.
    ///
    /// - Parameters:
    ///   - path: The path printed in findings.
    ///   - text: The file's contents.
    package init(path: String, text: String) {
        self.path = path
        let lexed = Lexer.lex(text)
        ignoredLines = lexed.ignoredLines
        requestsAccessors = lexed.requestsAccessors
        requestsValidationTests = lexed.requestsValidationTests
        var kept: [Token] = []
        var branches: [[IfBranch]] = []
        var current: [IfBranch] = []
        var groups = 0
        var directiveLine = -1
        for token in lexed.tokens {
            if token.kind == .pound, ["#if", "#elseif", "#else", "#endif"].contains(token.text) {
                switch token.text {
                case "#if":
                    groups += 1
                    current.append(IfBranch(group: groups, branch: 0))
                case "#endif":
                    if !current.isEmpty { current.removeLast() }
                default:
                    if !current.isEmpty { current[current.count - 1].branch += 1 }
                }
                directiveLine = token.line
                continue
            }
            if token.line == directiveLine { continue }  // the directive's condition
            kept.append(token)
            branches.append(current)
        }
        tokens = kept
        self.branches = branches
        var partner: [Int: Int] = [:]
        var stack: [Int] = []
        for (index, token) in kept.enumerated() where token.kind == .punctuation {
            switch token.text {
            case "(", "[", "{":
                stack.append(index)
            case ")", "]", "}":
                // Pop to the matching opener; an unmatched closer (code split across `#if` branches) is skipped.
                let opener = token.text == ")" ? "(" : token.text == "]" ? "[" : "{"
                if let position = stack.lastIndex(where: { kept[$0].text == opener }) {
                    for unmatched in stack[(position + 1)...] { partner[unmatched] = index - 1 }
                    partner[stack[position]] = index
                    stack.removeSubrange(position...)
                }
            default:
                break
            }
        }
        for unmatched in stack { partner[unmatched] = kept.count - 1 }
        self.partner = partner
    }

    /// The closing partner of the bracket at `index`.
    package func close(_ index: Int) -> Int { partner[index] ?? index }

    /// The location of the token at `index`.
    package func location(_ index: Int) -> SourceLocation {
        let token = tokens[min(index, tokens.count - 1)]
        return SourceLocation(file: path, line: token.line, column: token.column)
    }
}

/// A place in a source file.
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path.
    package var file: String
    /// The 1-based line.
    package var line: Int
    /// The 1-based column.
    package var column: Int

    /// Creates a location.
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and IDEs read.
    package var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, for messages.
    package var short: String { "\(file.split(separator: "/").last.map(String.init) ?? file):\(line)" }

    /// Orders by file, then line, then column.
    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
