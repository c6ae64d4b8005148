import Assemblage
import AssemblageProperties
import Foundation
import Testing

/// A fresh directory under the system temporary directory, removed by
/// ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("assemblage-props-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// One malformed input and what loading it must report.
struct MalformedInput: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var code: PropertyError.Code
    var line: Int?
    var column: Int?
    var keyPath: String?
    var messageContains: String?

    init(
        _ name: String, _ text: String, _ code: PropertyError.Code = .malformedFile,
        line: Int? = nil, column: Int? = nil, keyPath: String? = nil, message: String? = nil
    ) {
        self.init(name, Array(text.utf8), code, line: line, column: column, keyPath: keyPath, message: message)
    }

    init(
        _ name: String, _ bytes: [UInt8], _ code: PropertyError.Code = .malformedFile,
        line: Int? = nil, column: Int? = nil, keyPath: String? = nil, message: String? = nil
    ) {
        self.name = name
        self.bytes = bytes
        self.code = code
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.messageContains = message
    }

    var testDescription: String { name }
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
func garbage(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}

let deepArrays = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
let deepObjects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)

let malformedJSON: [MalformedInput] = [
    .init("empty file", "", line: 1, column: 1, message: "empty"),
    .init("whitespace only", " \n\t\n", line: 3, column: 1, message: "no JSON value"),
    .init("comments only", "// nothing\n/* here */", message: "no JSON value"),
    .init("truncated object", #"{"a": 1"#, line: 1, column: 8, keyPath: "a", message: "end of file"),
    .init("truncated after key", #"{"a""#, line: 1, column: 5, keyPath: "a"),
    .init("truncated after colon", #"{"a":"#, line: 1, column: 6, keyPath: "a", message: "expected a value"),
    .init("truncated inside string", #"{"a": "abc"#, line: 1, column: 7, keyPath: "a", message: "unterminated string"),
    .init("truncated inside array", #"{"a": [1, 2"#, keyPath: "a[1]", message: "end of file"),
    .init("truncated literal", #"{"a": tr"#, keyPath: "a", message: "'true'"),
    .init("truncated escape", #"{"a": "\"#, keyPath: "a"),
    .init("truncated unicode escape", #"{"a": "\u12"#, keyPath: "a", message: "\\u"),
    .init("UTF-16LE byte-order mark", [0xFF, 0xFE] + Array(#"{}"#.utf8), line: 1, column: 1, message: "UTF-16"),
    .init("UTF-16BE byte-order mark", [0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D], line: 1, column: 1, message: "UTF-16"),
    .init("UTF-32LE byte-order mark", [0xFF, 0xFE, 0x00, 0x00, 0x7B, 0, 0, 0], message: "UTF-32"),
    .init("UTF-16 without byte-order mark", [0x7B, 0x00, 0x7D, 0x00], line: 1, column: 2, message: "U+0000"),
    .init(
        "byte-order mark twice", [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8),
        line: 1, column: 1, message: "U+FEFF"),
    .init("byte-order mark after whitespace", [0x20, 0xEF, 0xBB, 0xBF] + Array("{}".utf8), line: 1, column: 2),
    .init(
        "invalid UTF-8 byte in string", Array(#"{"a": "x"#.utf8) + [0xFF] + Array(#""}"#.utf8),
        line: 1, column: 9, message: "0xFF"),
    .init(
        "overlong UTF-8 encoding", Array("{\n\"a\": \"".utf8) + [0xC0, 0x80] + Array("\"}".utf8),
        line: 2, column: 7, message: "0xC0"),
    .init(
        "UTF-8 encoded surrogate", Array(#"{"a": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
        message: "0xED"),
    .init("UTF-8 sequence cut at end of file", Array(#"{"a": ""#.utf8) + [0xE2, 0x82], message: "UTF-8"),
    .init("Latin-1 encoded file", Array(#"{"caf"#.utf8) + [0xE9] + Array(#"": 1}"#.utf8), line: 1, column: 6),
    .init("root is an array", "[1, 2, 3]", .rootNotDictionary, line: 1, column: 1, message: "found an array"),
    .init("root is a string", #"  "settings""#, .rootNotDictionary, line: 1, column: 3, message: "found a string"),
    .init("root is a number", "42", .rootNotDictionary, message: "found a number"),
    .init("root is null", "null", .rootNotDictionary, message: "found null"),
    .init("root is true", "true", .rootNotDictionary, message: "found a bool"),
    .init(
        "null value", "{\n  \"proxy\": null\n}", .invalidValue, line: 2, column: 12, keyPath: "proxy",
        message: "null is not supported"),
    .init("null inside nested array", #"{"a": {"b": [1, null]}}"#, .invalidValue, keyPath: "a.b[1]"),
    .init(
        "duplicate top-level key", "{\"port\": 1,\n \"port\": 2}", .duplicateKey, line: 2, column: 2,
        keyPath: "port", message: "line 1, column 2"),
    .init(
        "duplicate nested key", #"{"server": {"port": 1, "host": "h", "port": 2}}"#, .duplicateKey,
        keyPath: "server.port"),
    .init("10,000 nested arrays", #"{"deep": "# + deepArrays + "}", message: "maximum of 64"),
    .init("10,000 nested objects", deepObjects, message: "maximum of 64"),
    .init(
        "number overflowing Double", #"{"limit": 1e400}"#, .invalidValue, line: 1, column: 11,
        keyPath: "limit", message: "out of range"),
    .init("negative number overflowing Double", #"{"limit": -1e400}"#, .invalidValue, keyPath: "limit"),
    .init(
        "huge integer literal overflowing Double", #"{"n": 1"# + String(repeating: "0", count: 400) + "}",
        .invalidValue, keyPath: "n"),
    .init("binary garbage", garbage(count: 512, seed: 0x5EED)),
    .init("NUL bytes", [UInt8](repeating: 0, count: 16), line: 1, column: 1, message: "U+0000"),
    .init(
        "unterminated block comment", "{\"a\": 1 /* never closed\n\n", line: 1, column: 9, keyPath: "a",
        message: "unterminated block comment"),
    .init("unterminated comment before root", "/* open", line: 1, column: 1, message: "unterminated block comment"),
    .init("single slash", #"{"a": 1 / 2}"#, line: 1, column: 9, message: "'//' or '/*'"),
    .init("slash at end of file", "{}/", line: 1, column: 3),
    .init("trailing comma in object", #"{"a": 1,}"#, line: 1, column: 9, message: "trailing comma before '}'"),
    .init(
        "trailing comma in array", #"{"a": [1,]}"#, line: 1, column: 10, keyPath: "a",
        message: "trailing comma before ']'"),
    .init("leading comma in object", #"{,"a": 1}"#, line: 1, column: 2, message: "expected a string key"),
    .init(
        "missing comma between members", "{\n    \"a\": 1\n    \"b\": 2\n}", line: 3, column: 5, keyPath: "a",
        message: "expected ',' or '}'"),
    .init(
        "missing comma with CRLF line endings", "{\r\n  \"a\": 1\r\n  \"b\": 2\r\n}", line: 3, column: 3,
        keyPath: "a", message: "expected ',' or '}'"),
    .init("missing comma between elements", #"{"a": [1 2]}"#, keyPath: "a[0]", message: "expected ',' or ']'"),
    .init("missing colon", #"{"a" 1}"#, keyPath: "a", message: "':'"),
    .init("single-quoted key", "{'a': 1}", line: 1, column: 2, message: "unexpected character '''"),
    .init("unquoted key", "{a: 1}", line: 1, column: 2, message: "unexpected character 'a'"),
    .init("number with leading zero", #"{"a": 01}"#, keyPath: "a", message: "leading zeros"),
    .init("number with bare decimal point", #"{"a": 1.}"#, keyPath: "a", message: "after '.'"),
    .init("number starting with decimal point", #"{"a": .5}"#, keyPath: "a"),
    .init("number with empty exponent", #"{"a": 1e}"#, keyPath: "a", message: "exponent"),
    .init("lone minus sign", #"{"a": -}"#, keyPath: "a", message: "after '-'"),
    .init("plus sign", #"{"a": +1}"#, keyPath: "a"),
    .init("hexadecimal number", #"{"a": 0x10}"#, keyPath: "a"),
    .init("NaN literal", #"{"a": NaN}"#, keyPath: "a"),
    .init("Infinity literal", #"{"a": Infinity}"#, keyPath: "a"),
    .init("misspelled literal", #"{"a": ture}"#, keyPath: "a", message: "'true'"),
    .init("literal with trailing letters", #"{"a": trueish}"#, keyPath: "a", message: "'true'"),
    .init(
        "raw newline in string", "{\"a\": \"line\nbreak\"}", line: 1, column: 12, keyPath: "a",
        message: "U+000A"),
    .init("raw tab in string", "{\"a\": \"x\ty\"}", keyPath: "a", message: "U+0009"),
    .init("invalid escape", #"{"a": "\x41"}"#, keyPath: "a", message: "invalid escape"),
    .init("lone high surrogate escape", #"{"a": "\ud800"}"#, keyPath: "a", message: "surrogate"),
    .init("lone low surrogate escape", #"{"a": "\udc00"}"#, keyPath: "a", message: "surrogate"),
    .init("high surrogate followed by non-surrogate", #"{"a": "\ud800\u0041"}"#, keyPath: "a", message: "surrogate"),
    .init("content after root object", #"{"a": 1} {"b": 2}"#, line: 1, column: 10, message: "after the top-level"),
    .init("garbage after root object", "{} x", message: "after the top-level"),
    .init("plain text", "port = 8080\n", line: 1, column: 1, message: "unexpected character 'p'"),
    .init("XML instead of JSON", "<?xml version=\"1.0\"?><plist/>", line: 1, column: 1),
    .init("unclosed nested object", #"{"a": {"b": 1}"#, message: "end of file"),
    .init("closing bracket mismatch", #"{"a": [1}"#, keyPath: "a[0]", message: "expected ',' or ']'"),
]

@Suite("Malformed property files")
struct PropertyLoaderErrorTests {
    @Test(arguments: malformedJSON)
    func malformedJSONThrowsTypedErrorNamingTheFile(_ input: MalformedInput) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write(input.bytes, to: "settings.json")
        let error = try #require(throws: PropertyError.self) {
            try JSONPropertyLoader(url: url).load()
        }
        #expect(error.code == input.code, "\(error)")
        #expect(error.source == url.path)
        #expect(error.description.contains(url.path))
        if input.code == .malformedFile { #expect(error.description.hasPrefix("Malformed JSON in ")) }
        #expect(error.line != nil, "the JSON parser always knows the line")
        #expect(error.column != nil)
        if let line = input.line { #expect(error.line == line, "\(error)") }
        if let column = input.column { #expect(error.column == column, "\(error)") }
        if let keyPath = input.keyPath { #expect(error.keyPath == keyPath, "\(error)") }
        if let fragment = input.messageContains { #expect(error.message.contains(fragment), "\(error)") }
    }

    @Test func brokenFixtureReportsLineColumnAndKeyPath() throws {
        let loader = JSONPropertyLoader(bundle: .module, name: "broken", subdirectory: "Fixtures")
        let path = try #require(loader.url).path
        let error = try #require(throws: PropertyError.self) { try loader.load() }
        #expect(
            error.description == #"Malformed JSON in \#(path) at line 4, column 9 (key "server.port"): "#
                + #"unexpected character '"', expected ',' or '}'"#)
    }

    @Test func missingFileThrowsMissingFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("absent.json")
        let error = try #require(throws: PropertyError.self) { try JSONPropertyLoader(url: url).load() }
        #expect(error.code == .missingFile)
        #expect(error.description == "Missing file \(url.path): no such file")
        let plistError = try #require(throws: PropertyError.self) {
            try PlistPropertyLoader(url: directory.url.appendingPathComponent("absent.plist")).load()
        }
        #expect(plistError.code == .missingFile)
    }

    @Test func missingBundleResourceNamesResourceAndBundle() throws {
        let loader = JSONPropertyLoader(bundle: .module, name: "nope", subdirectory: "Fixtures")
        #expect(loader.url == nil)
        let error = try #require(throws: PropertyError.self) { try loader.load() }
        #expect(error.code == .missingFile)
        #expect(error.source == "Fixtures/nope.json in bundle \(Bundle.module.bundlePath)")
        let plist = PlistPropertyLoader(bundle: .module, name: "nope")
        #expect(try #require(throws: PropertyError.self) { try plist.load() }.code == .missingFile)
    }

    @Test func directoryThrowsUnreadableFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let error = try #require(throws: PropertyError.self) { try JSONPropertyLoader(url: directory.url).load() }
        #expect(error.code == .unreadableFile)
        #expect(error.description.hasPrefix("Cannot read \(directory.url.path)"))
    }

    @Test func nonFileURLThrowsUnreadableFile() throws {
        let url = try #require(URL(string: "https://example.com/settings.json"))
        let error = try #require(throws: PropertyError.self) { try JSONPropertyLoader(url: url).load() }
        #expect(error.code == .unreadableFile)
        #expect(error.source == "https://example.com/settings.json")
    }

    @Test func nestingAtTheLimitStillLoads() throws {
        // The root object is level 1, so 63 nested arrays reach exactly 64.
        let text = #"{"a": "# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        #expect(try loadJSON(text)["a"] != nil)
        let tooDeep = #"{"a": "# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        let error = try #require(throws: PropertyError.self) { try loadJSON(tooDeep) }
        #expect(error.message == "nesting is deeper than the maximum of 64 levels")
        #expect(error.column == 70, "points at the 64th '['")
    }

    @Test func deepInputIsSafeOnASmallThreadStack() throws {
        // Secondary threads on Apple platforms get 512 KiB; debug builds use
        // large frames. Parsing must not recurse, and values at the nesting
        // limit must compare, hash, print and decode within a small stack.
        indirect enum Tree: Decodable, Equatable {
            case node([Tree])
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                var children: [Tree] = []
                while !container.isAtEnd { children.append(try container.decode(Tree.self)) }
                self = .node(children)
            }
        }
        final class Outcome: @unchecked Sendable {
            var lines: [String] = []
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let hostile = (try? loadJSON(deepObjects)) == nil
            let atLimit = #"{"a": "# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
            guard let values = try? loadJSON(atLimit), let value = values["a"] else {
                outcome.lines.append("limit failed to load")
                return
            }
            let decoded = try? Properties(values).decodeProperties(Tree.self, forKey: "a")
            outcome.lines = [
                "hostile rejected: \(hostile)",
                "equal: \(value == value)",
                "hash: \(Set([value]).count)",
                "description: \(value.description.count)",
                "decoded: \(decoded != nil)",
            ]
        }
        // 512 KiB, a secondary thread's stack on Apple platforms: the thread sanitizer's debug frames need more
        // than the 256 KiB this test once used, and that is not a stack users run on.
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        #expect(
            outcome.lines == [
                "hostile rejected: true", "equal: true", "hash: 1", "description: 126", "decoded: true",
            ])
    }

    @Test func deepNestingErrorShortensTheKeyPath() throws {
        let error = try #require(throws: PropertyError.self) { try loadJSON(deepObjects) }
        #expect(error.keyPath == "a.a.a.a.a.a.a.a.a.a…(50 more)….a.a.a.a")
        let arrays = try #require(throws: PropertyError.self) { try loadJSON(#"{"deep": "# + deepArrays + "}") }
        #expect(arrays.keyPath == "deep[0][0][0][0][0][0][0][0][0]…(50 more)…[0][0][0][0]")
    }

    @Test func inMemoryDataErrorsNameTheDescription() throws {
        let error = try #require(throws: PropertyError.self) {
            try JSONPropertyLoader(data: Data("[]".utf8), description: "embedded defaults").load()
        }
        #expect(error.source == "embedded defaults")
        #expect(error.description.hasPrefix("Wrong root type in embedded defaults at line 1, column 1"))
    }
}

// MARK: - Property lists

let plistHeader = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#

/// A binary property list whose root dictionary maps "a" to `depth` nested
/// arrays, written by hand so that building it needs no recursion.
func deepBinaryPlist(depth: Int) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    // Object 0: {"a": object 2}; object 1: "a"; objects 2...: arrays.
    offsets.append(bytes.count)
    bytes += [0xD1, 0x00, 0x01, 0x00, 0x02]
    offsets.append(bytes.count)
    bytes += [0x51, UInt8(ascii: "a")]
    for level in 0..<depth {
        offsets.append(bytes.count)
        if level == depth - 1 {
            bytes += [0xA0]
        } else {
            let next = UInt16(3 + level)
            bytes += [0xA1, UInt8(next >> 8), UInt8(next & 0xFF)]
        }
    }
    let offsetTableStart = bytes.count
    for offset in offsets {
        bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init)
    }
    bytes += [0, 0, 0, 0, 0, 0, 4, 2]
    bytes += withUnsafeBytes(of: UInt64(offsets.count).bigEndian, Array.init)
    bytes += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
    bytes += withUnsafeBytes(of: UInt64(offsetTableStart).bigEndian, Array.init)
    return bytes
}

func validBinaryPlist() -> [UInt8] {
    // Force-try: the input is a constant, valid property list.
    let data = try! PropertyListSerialization.data(
        fromPropertyList: ["name": "x", "list": [1, 2, 3]] as [String: Any], format: .binary, options: 0)
    return [UInt8](data)
}

let malformedPlists: [MalformedInput] = [
    .init("empty plist", "", message: "empty"),
    .init("truncated XML", plistHeader + "<dict><key>a</key><string>x"),
    .init("key without value", plistHeader + "<dict><key>a</key></dict></plist>", message: "value missing"),
    .init("mismatched tags", plistHeader + "<dict><key>a</key><string>x</integer></dict></plist>"),
    .init(
        "integer overflow", plistHeader + "<dict><key>a</key><integer>99999999999999999999999</integer></dict></plist>"),
    .init("invalid date", plistHeader + "<dict><key>a</key><date>yesterday</date></dict></plist>"),
    .init(
        "10,000 nested XML arrays",
        plistHeader + "<dict><key>a</key>"
            + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
            + "</dict></plist>"),
    .init("10,000 nested binary arrays", deepBinaryPlist(depth: 10_000), message: "binary property list"),
    .init("truncated binary plist", Array(validBinaryPlist().prefix(20)), message: "binary property list"),
    .init(
        "root is an array", plistHeader + "<array><integer>1</integer></array></plist>", .rootNotDictionary,
        message: "found an array"),
    .init(
        "root is a string", plistHeader + "<string>x</string></plist>", .rootNotDictionary, message: "found a string"),
    .init("bare word parses as OpenStep string root", "hello", .rootNotDictionary, message: "found a string"),
    .init(
        "infinite real", plistHeader + "<dict><key>limit</key><real>inf</real></dict></plist>", .invalidValue,
        keyPath: "limit", message: "infinity and NaN"),
    .init(
        "NaN real in nested array",
        plistHeader + "<dict><key>a</key><array><real>1</real><real>nan</real></array></dict></plist>",
        .invalidValue, keyPath: "a[1]"),
    .init("JSON given to the plist loader", #"{"a": 1}"#),
    .init("binary garbage", [0x00] + garbage(count: 512, seed: 0xBAD)),
]

@Suite("Malformed property lists")
struct PlistLoaderErrorTests {
    @Test(arguments: malformedPlists)
    func malformedPlistThrowsTypedErrorNamingTheFile(_ input: MalformedInput) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write(input.bytes, to: "Settings.plist")
        let error = try #require(throws: PropertyError.self) {
            try PlistPropertyLoader(url: url).load()
        }
        #expect(error.code == input.code, "\(error)")
        #expect(error.source == url.path)
        #expect(error.description.contains(url.path))
        if input.code == .malformedFile { #expect(error.description.hasPrefix("Malformed property list in ")) }
        if let keyPath = input.keyPath { #expect(error.keyPath == keyPath, "\(error)") }
        if let fragment = input.messageContains { #expect(error.message.contains(fragment), "\(error)") }
    }

    @Test func binaryPlistAtTheNestingLimitLoads() throws {
        // Root dictionary plus 63 arrays: 64 levels, the documented maximum.
        let values = try PlistPropertyLoader(data: Data(deepBinaryPlist(depth: 63)), description: "deep.plist").load()
        var level = try #require(values["a"])
        var depth = 1
        while case .array(let elements) = level, let first = elements.first {
            level = first
            depth += 1
        }
        #expect(depth == 63)
    }

    @Test func plistNestedBeyondTheLimitIsRejectedWithItsPath() throws {
        // The system parser accepts this depth; the loader's own limit rejects it.
        let error = try #require(throws: PropertyError.self) {
            try PlistPropertyLoader(data: Data(deepBinaryPlist(depth: 64)), description: "deep.plist").load()
        }
        #expect(error.code == .malformedFile)
        #expect(error.message == "nesting is deeper than the maximum of 64 levels")
        #expect(error.keyPath?.hasPrefix("a[0][0]") == true)
    }

    @Test func systemParserLineNumberIsReported() throws {
        let text = plistHeader + "\n<dict>\n<key>a</key>\n<integer>1</integer>\n<key>b</key>\n</dict></plist>"
        let error = try #require(throws: PropertyError.self) {
            try PlistPropertyLoader(data: Data(text.utf8), description: "lines.plist").load()
        }
        #expect(error.code == .malformedFile)
        #expect(error.line != nil, "\(error)")
        #expect(!error.message.contains(" at line "), "the location is not repeated in the message")
    }
}
