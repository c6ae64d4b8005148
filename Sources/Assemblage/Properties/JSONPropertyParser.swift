import Foundation

/// A strict JSON parser with `//` and `/* */` comments, producing
/// ``PropertyValue`` and exact line/column/key-path errors.
///
/// Differences from RFC 8259: comments are allowed wherever whitespace is;
/// a leading UTF-8 byte-order mark is ignored (RFC 8259 §8.1 permits this);
/// `null` is rejected because properties have no null value; duplicate keys
/// are rejected; numbers that overflow `Double` are rejected; nesting is
/// limited to ``maximumDepth``.
///
/// The parser itself is iterative and never recurses. The depth limit
/// protects what comes after it: equality, hashing, description and decoding
/// of ``PropertyValue`` are recursive, and in debug builds each level costs
/// a few KiB of stack, so 64 levels stay well within the 512 KiB stacks of
/// secondary threads on Apple platforms. Real configuration files rarely
/// nest more than a handful of levels.
struct JSONPropertyParser {
    /// Maximum nesting of arrays and objects, the root object included.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private let source: String
    /// Index of the first byte after an optional byte-order mark; line and
    /// column counting starts here.
    private let contentStart: Int
    private var index: Int
    private var path: [PropertyPathComponent] = []

    private init(bytes: [UInt8], source: String, contentStart: Int) {
        self.bytes = bytes
        self.source = source
        self.contentStart = contentStart
        self.index = contentStart
    }

    /// Parses `data` as a JSON object.
    static func parse(_ data: Data, source: String) throws -> [String: PropertyValue] {
        let bytes = [UInt8](data)
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            start = 3
        } else if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            throw PropertyError(code: .malformedFile, source: source, format: "JSON", line: 1, column: 1,
                                message: "the file is UTF-32 encoded (byte-order mark found); property files must be UTF-8")
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw PropertyError(code: .malformedFile, source: source, format: "JSON", line: 1, column: 1,
                                message: "the file is UTF-16 encoded (byte-order mark found); property files must be UTF-8")
        }
        var parser = JSONPropertyParser(bytes: bytes, source: source, contentStart: start)
        try parser.validateUTF8()
        return try parser.parseDocument()
    }

    // MARK: Document

    private mutating func parseDocument() throws -> [String: PropertyValue] {
        try skipWhitespaceAndComments()
        guard index < bytes.count else {
            throw error(.malformedFile, at: index, bytes.count == contentStart
                ? "the file is empty"
                : "the file contains no JSON value, only whitespace or comments")
        }
        let rootStart = index
        guard bytes[index] == UInt8(ascii: "{") else {
            if let kind = valueKind(startingWith: bytes[index]) {
                throw error(.rootNotDictionary, at: rootStart,
                            "expected a dictionary (JSON object) at the top level, found \(kind)")
            }
            throw unexpectedCharacter(at: index, expected: "a JSON object")
        }
        guard case .dictionary(let root) = try parseValue() else {
            preconditionFailure("an object start always parses to a dictionary")
        }
        try skipWhitespaceAndComments()
        guard index >= bytes.count else {
            throw error(.malformedFile, at: index, "unexpected content after the top-level object")
        }
        return root
    }

    private func valueKind(startingWith byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a bool"
        case UInt8(ascii: "n"): return "null"
        default: return nil
        }
    }

    // MARK: Values

    /// An array or object whose members are still being parsed.
    private struct OpenContainer {
        let isObject: Bool
        var entries: [String: PropertyValue] = [:]
        var keyOffsets: [String: Int] = [:]
        var currentKey = ""
        var elements: [PropertyValue] = []
    }

    /// Parses the value at `index` without recursion: open containers live on
    /// an explicit stack, so the call stack stays flat however deeply the
    /// input nests, and the depth limit is enforced before anything large is
    /// built.
    private mutating func parseValue() throws -> PropertyValue {
        var stack: [OpenContainer] = []
        while true {
            // Parse one value, or open a container and go round again for its
            // first member.
            var value: PropertyValue
            guard index < bytes.count else {
                throw error(.malformedFile, at: index, "unexpected end of file, expected a value")
            }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                try openContainer(depth: stack.count + 1)
                if consume(UInt8(ascii: "}")) {
                    value = .dictionary([:])
                } else {
                    var container = OpenContainer(isObject: true)
                    try parseKey(into: &container)
                    stack.append(container)
                    continue
                }
            case UInt8(ascii: "["):
                try openContainer(depth: stack.count + 1)
                if consume(UInt8(ascii: "]")) {
                    value = .array([])
                } else {
                    stack.append(OpenContainer(isObject: false))
                    path.append(.index(0))
                    continue
                }
            default:
                value = try parseScalar()
            }

            // Attach the finished value to the innermost open container, and
            // close containers until one expects another member.
            attach: while true {
                guard !stack.isEmpty else { return value }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    stack[top].entries[stack[top].currentKey] = value
                } else {
                    stack[top].elements.append(value)
                }
                try skipWhitespaceAndComments()
                let expected = isObject ? "',' or '}'" : "',' or ']'"
                guard index < bytes.count else {
                    throw error(.malformedFile, at: index, "unexpected end of file, expected \(expected)")
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    path.removeLast()
                    try skipWhitespaceAndComments()
                    if isObject {
                        try parseKey(into: &stack[top])
                    } else {
                        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                            throw error(.malformedFile, at: index, "trailing comma before ']'")
                        }
                        path.append(.index(stack[top].elements.count))
                    }
                    break attach
                }
                guard bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw unexpectedCharacter(at: index, expected: expected)
                }
                index += 1
                path.removeLast()
                let finished = stack.removeLast()
                value = finished.isObject ? .dictionary(finished.entries) : .array(finished.elements)
            }
        }
    }

    /// Consumes an opening bracket at nesting level `depth` and the
    /// whitespace after it.
    private mutating func openContainer(depth: Int) throws {
        if depth > Self.maximumDepth {
            throw error(.malformedFile, at: index,
                        "nesting is deeper than the maximum of \(Self.maximumDepth) levels")
        }
        index += 1
        try skipWhitespaceAndComments()
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Parses `"key" :` and the whitespace after it, recording the key in
    /// `container` and on the path.
    private mutating func parseKey(into container: inout OpenContainer) throws {
        guard index < bytes.count else {
            throw error(.malformedFile, at: index, "unexpected end of file, expected a string key")
        }
        guard bytes[index] == UInt8(ascii: "\"") else {
            if bytes[index] == UInt8(ascii: "}"), !container.entries.isEmpty {
                throw error(.malformedFile, at: index, "trailing comma before '}'")
            }
            throw unexpectedCharacter(at: index, expected: "a string key")
        }
        let keyStart = index
        let key = try parseString()
        path.append(.key(key))
        if let firstOffset = container.keyOffsets[key] {
            let (line, column) = lineAndColumn(of: firstOffset)
            throw error(.duplicateKey, at: keyStart,
                        "the key already appears at line \(line), column \(column)")
        }
        container.keyOffsets[key] = keyStart
        container.currentKey = key
        try skipWhitespaceAndComments()
        guard index < bytes.count else {
            throw error(.malformedFile, at: index, "unexpected end of file, expected ':'")
        }
        guard bytes[index] == UInt8(ascii: ":") else {
            throw unexpectedCharacter(at: index, expected: "':' after the key")
        }
        index += 1
        try skipWhitespaceAndComments()
    }

    private mutating func parseScalar() throws -> PropertyValue {
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            let start = index
            try parseLiteral("null")
            throw error(.invalidValue, at: start,
                        "null is not supported; remove the key to leave it unset")
        default:
            throw unexpectedCharacter(at: index, expected: "a value")
        }
    }

    private mutating func parseLiteral(_ literal: StaticString) throws {
        let start = index
        let expected = literal.withUTF8Buffer { [UInt8]($0) }
        for byte in expected {
            guard index < bytes.count else {
                throw error(.malformedFile, at: start, "unexpected end of file in literal '\(literal)'")
            }
            guard bytes[index] == byte else {
                throw error(.malformedFile, at: start, "invalid literal, expected '\(literal)'")
            }
            index += 1
        }
        // "trueish" must not parse as "true" followed by garbage silently;
        // the caller reports the next byte, but a letter is clearer here.
        if index < bytes.count, Self.isIdentifierByte(bytes[index]) {
            throw error(.malformedFile, at: start, "invalid literal, expected '\(literal)'")
        }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_")
    }

    // MARK: Numbers

    private mutating func parseNumber() throws -> PropertyValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            throw error(.malformedFile, at: index, "expected a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) {
                throw error(.malformedFile, at: start, "numbers must not have leading zeros")
            }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error(.malformedFile, at: index, "expected a digit after '.'")
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error(.malformedFile, at: index, "expected a digit in the exponent")
            }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) {
            return .integer(integer)
        }
        // Integers beyond Int's range become doubles (reading them as Int
        // then fails); anything that overflows Double is rejected.
        guard let double = Double(text), double.isFinite else {
            throw error(.invalidValue, at: start,
                        "number is out of range for a 64-bit floating-point value")
        }
        return .double(double)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Strings

    private mutating func parseString() throws -> String {
        let start = index
        index += 1 // opening quote
        var buffer: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw error(.malformedFile, at: start, "unterminated string")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // The input was validated as UTF-8 and escapes append valid
                // scalars, so decoding cannot repair anything here.
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0x00..<0x20:
                throw error(.malformedFile, at: index,
                            "unescaped control character \(Self.scalarName(UInt32(byte))) in string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws {
        let escapeStart = index
        index += 1 // backslash
        guard index < bytes.count else {
            throw error(.malformedFile, at: escapeStart, "unterminated escape sequence")
        }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var value = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(value) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                      bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error(.malformedFile, at: escapeStart,
                                "unpaired UTF-16 surrogate in \\u escape")
                }
                index += 2
                let low = try parseHex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.malformedFile, at: escapeStart,
                                "unpaired UTF-16 surrogate in \\u escape")
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw error(.malformedFile, at: escapeStart, "unpaired UTF-16 surrogate in \\u escape")
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw error(.malformedFile, at: escapeStart, "invalid \\u escape")
            }
            buffer.append(contentsOf: String(scalar).utf8)
        default:
            throw error(.malformedFile, at: escapeStart, "invalid escape sequence")
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw error(.malformedFile, at: escapeStart, "unterminated \\u escape")
            }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw error(.malformedFile, at: escapeStart, "\\u must be followed by four hexadecimal digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    // MARK: Whitespace and comments

    /// Skips JSON whitespace and comments. Comments are only recognised
    /// here, between tokens, so `//` or `/*` inside a string is never
    /// touched.
    private mutating func skipWhitespaceAndComments() throws {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "/"):
                let commentStart = index
                guard index + 1 < bytes.count else {
                    throw error(.malformedFile, at: commentStart, "unexpected '/', expected '//' or '/*'")
                }
                switch bytes[index + 1] {
                case UInt8(ascii: "/"):
                    index += 2
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                case UInt8(ascii: "*"):
                    index += 2
                    var closed = false
                    while index + 1 < bytes.count {
                        if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
                            index += 2
                            closed = true
                            break
                        }
                        index += 1
                    }
                    guard closed else {
                        index = bytes.count
                        throw error(.malformedFile, at: commentStart, "unterminated block comment")
                    }
                default:
                    throw error(.malformedFile, at: commentStart, "unexpected '/', expected '//' or '/*'")
                }
            default:
                return
            }
        }
    }

    // MARK: UTF-8 validation

    /// Validates the whole input as UTF-8 (no overlongs, no surrogates,
    /// nothing above U+10FFFF) so that strings can be decoded without
    /// replacement characters and errors can point at the bad byte.
    private func validateUTF8() throws {
        var offset = contentStart
        while offset < bytes.count {
            let lead = bytes[offset]
            if lead < 0x80 {
                offset += 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lowerBound = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upperBound = 0x9F
            case 0xF0: length = 4; lowerBound = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upperBound = 0x8F
            default:
                throw invalidUTF8(at: offset)
            }
            guard offset + length <= bytes.count else { throw invalidUTF8(at: offset) }
            let second = bytes[offset + 1]
            guard second >= lowerBound, second <= upperBound else { throw invalidUTF8(at: offset) }
            for continuation in (offset + 2)..<(offset + length) where bytes[continuation] & 0xC0 != 0x80 {
                throw invalidUTF8(at: offset)
            }
            offset += length
        }
    }

    private func invalidUTF8(at offset: Int) -> PropertyError {
        let hex = String(bytes[offset], radix: 16, uppercase: true)
        return error(.malformedFile, at: offset,
                     "invalid UTF-8 byte 0x\(hex.count == 1 ? "0" + hex : hex); property files must be UTF-8")
    }

    // MARK: Errors

    private func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var position = contentStart
        let end = min(offset, bytes.count)
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "\n") {
                    // Counted at the "\n".
                } else {
                    line += 1
                    column = 1
                }
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            position += 1
        }
        return (line, column)
    }

    private func error(_ code: PropertyError.Code, at offset: Int, _ message: String) -> PropertyError {
        let (line, column) = lineAndColumn(of: offset)
        return PropertyError(code: code, source: source, format: "JSON",
                             keyPath: PropertyPathComponent.format(path),
                             line: line, column: column, message: message)
    }

    private func unexpectedCharacter(at offset: Int, expected: String) -> PropertyError {
        var scalar: UInt32 = UInt32(bytes[offset])
        // Decode the (already validated) multi-byte sequence for a readable name.
        if bytes[offset] >= 0x80 {
            let length = bytes[offset] >= 0xF0 ? 4 : bytes[offset] >= 0xE0 ? 3 : 2
            let end = min(offset + length, bytes.count)
            if let decoded = String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first {
                scalar = decoded.value
            }
        }
        return error(.malformedFile, at: offset,
                     "unexpected character \(Self.scalarName(scalar)), expected \(expected)")
    }

    private static func scalarName(_ value: UInt32) -> String {
        if value >= 0x21, value < 0x7F, let scalar = Unicode.Scalar(value) {
            return "'\(Character(scalar))'"
        }
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
