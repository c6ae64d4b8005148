import Assemblage
import Foundation

/// The strict JSON parser with comments of ``JSONPropertyFormat`` (which lists how it differs from RFC 8259),
/// producing ``PropertyValue`` and errors with the exact line, column and key path.
///
/// The parser is iterative and never recurses. The depth limit protects what comes after it: equality, hashing,
/// description and decoding of ``PropertyValue`` are recursive, and in debug builds each level costs a few KiB
/// of stack, so 64 levels stay well within the 512 KiB stacks of secondary threads on Apple platforms.
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
        // UTF-32 first: its little-endian mark begins with UTF-16's.
        let otherEncodings: [(mark: [UInt8], name: String)] = [
            ([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"),
            ([0xFE, 0xFF], "UTF-16"), ([0xFF, 0xFE], "UTF-16"),
        ]
        for encoding in otherEncodings where bytes.starts(with: encoding.mark) {
            throw PropertyError(
                code: .malformedFile, source: source, format: JSONPropertyFormat.name, line: 1,
                column: 1,
                message: "the file is \(encoding.name) encoded (byte-order mark found); "
                    + "property files must be UTF-8")
        }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var parser = JSONPropertyParser(bytes: bytes, source: source, contentStart: start)
        try parser.validateUTF8()
        return try parser.parseDocument()
    }

    // MARK: Document

    private mutating func parseDocument() throws -> [String: PropertyValue] {
        try skipWhitespaceAndComments()
        guard index < bytes.count else {
            throw error(
                .malformedFile, at: index,
                bytes.count == contentStart
                    ? "the file is empty"
                    : "the file contains no JSON value, only whitespace or comments")
        }
        let rootStart = index
        guard bytes[index] == UInt8(ascii: "{") else {
            if let kind = valueKind(startingWith: bytes[index]) {
                throw error(
                    .rootNotDictionary, at: rootStart,
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
            throw error(
                .malformedFile, at: index,
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
            throw error(
                .duplicateKey, at: keyStart,
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
            throw error(
                .invalidValue, at: start,
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
        _ = consume(UInt8(ascii: "-"))
        let integerStart = index
        try skipDigits(orThrow: "expected a digit after '-'")
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error(.malformedFile, at: start, "numbers must not have leading zeros")
        }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            try skipDigits(orThrow: "expected a digit after '.'")
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            isInteger = false
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            try skipDigits(orThrow: "expected a digit in the exponent")
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) {
            return .integer(integer)
        }
        // Integers beyond Int's range become doubles (reading them as Int then fails); anything that overflows
        // Double is rejected.
        guard let double = Double(text), double.isFinite else {
            throw error(.invalidValue, at: start, "number is out of range for a 64-bit floating-point value")
        }
        return .double(double)
    }

    /// Consumes one or more decimal digits, or throws `message` where the first one was expected.
    private mutating func skipDigits(orThrow message: String) throws {
        let first = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > first else { throw error(.malformedFile, at: index, message) }
    }

    // MARK: Strings

    private mutating func parseString() throws -> String {
        let start = index
        index += 1  // opening quote
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
                throw error(
                    .malformedFile, at: index,
                    "unescaped control character \(Self.scalarName(UInt32(byte))) in string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
    }

    /// The escapes other than `\u`, by the byte after the backslash.
    private static let escapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"),
        UInt8(ascii: "/"): UInt8(ascii: "/"), UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
        UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    private mutating func parseEscape(into buffer: inout [UInt8]) throws {
        let escapeStart = index
        index += 1  // backslash
        guard index < bytes.count else {
            throw error(.malformedFile, at: escapeStart, "unterminated escape sequence")
        }
        let byte = bytes[index]
        index += 1
        if let escaped = Self.escapes[byte] {
            buffer.append(escaped)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw error(.malformedFile, at: escapeStart, "invalid escape sequence")
        }
        let unpaired = "unpaired UTF-16 surrogate in \\u escape"
        var value = try parseHex4(escapeStart: escapeStart)
        if (0xD800...0xDBFF).contains(value) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error(.malformedFile, at: escapeStart, unpaired) }
            index += 2
            let low = try parseHex4(escapeStart: escapeStart)
            guard (0xDC00...0xDFFF).contains(low) else { throw error(.malformedFile, at: escapeStart, unpaired) }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
            throw error(.malformedFile, at: escapeStart, unpaired)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error(.malformedFile, at: escapeStart, "invalid \\u escape")
        }
        buffer.append(contentsOf: String(scalar).utf8)
    }

    private mutating func parseHex4(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error(.malformedFile, at: escapeStart, "unterminated \\u escape") }
            // Bytes from 0x80 up are Latin-1 letters here, none of them a hexadecimal digit.
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
                throw error(.malformedFile, at: escapeStart, "\\u must be followed by four hexadecimal digits")
            }
            value = value * 16 + UInt32(digit)
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
                    index = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                case UInt8(ascii: "*"):
                    guard let end = bytes[(index + 2)...].firstRange(of: [UInt8(ascii: "*"), UInt8(ascii: "/")]) else {
                        throw error(.malformedFile, at: commentStart, "unterminated block comment")
                    }
                    index = end.upperBound
                default:
                    throw error(.malformedFile, at: commentStart, "unexpected '/', expected '//' or '/*'")
                }
            default:
                return
            }
        }
    }

    // MARK: UTF-8 validation

    /// Validates the whole input as UTF-8 (the standard library's decoder rejects overlong forms, surrogates and
    /// anything above U+10FFFF) so that strings decode without replacement characters and an error can point at
    /// the first byte of the bad sequence.
    private func validateUTF8() throws {
        var bytesLeft = bytes[contentStart...].makeIterator()
        var decoder = Unicode.UTF8.ForwardParser()
        var offset = contentStart
        while true {
            switch decoder.parseScalar(from: &bytesLeft) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return
            case .error: throw invalidUTF8(at: offset)
            }
        }
    }

    private func invalidUTF8(at offset: Int) -> PropertyError {
        let hex = String(bytes[offset], radix: 16, uppercase: true)
        return error(
            .malformedFile, at: offset,
            "invalid UTF-8 byte 0x\(hex.count == 1 ? "0" + hex : hex); property files must be UTF-8")
    }

    // MARK: Errors

    private func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var (line, column) = (1, 1)
        for position in contentStart..<min(offset, bytes.count) {
            let byte = bytes[position]
            let nextIsLineFeed = position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "\n")
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && !nextIsLineFeed) {
                (line, column) = (line + 1, 1)  // "\n", "\r\n" (counted at its "\n") or a lone "\r"
            } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte: a new scalar
                column += 1
            }
        }
        return (line, column)
    }

    private func error(_ code: PropertyError.Code, at offset: Int, _ message: String) -> PropertyError {
        let (line, column) = lineAndColumn(of: offset)
        return PropertyError(
            code: code, source: source, format: JSONPropertyFormat.name,
            keyPath: PropertyPathComponent.format(path),
            line: line, column: column, message: message)
    }

    private func unexpectedCharacter(at offset: Int, expected: String) -> PropertyError {
        // The input is valid UTF-8, so the first scalar decoded from here is the whole character.
        let text = String(decoding: bytes[offset..<min(offset + 4, bytes.count)], as: UTF8.self)
        let scalar = text.unicodeScalars.first?.value ?? UInt32(bytes[offset])
        return error(
            .malformedFile, at: offset,
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
