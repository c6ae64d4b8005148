import Assemblage
import AssemblageProperties
import Foundation
import Testing

/// A malformed property file, the loader that reads it, and the code its error must have.
struct BadFile: Sendable, CustomTestStringConvertible {
    enum Format: String, Sendable { case json, plist }
    let name: String
    let format: Format
    let bytes: [UInt8]?  // nil: the file does not exist
    let code: PropertyError.Code

    var testDescription: String { "\(format.rawValue): \(name)" }

    init(_ name: String, _ format: Format, _ bytes: [UInt8]?, _ code: PropertyError.Code = .malformedFile) {
        self.name = name
        self.format = format
        self.bytes = bytes
        self.code = code
    }

    init(_ name: String, _ format: Format, _ text: String, _ code: PropertyError.Code = .malformedFile) {
        self.init(name, format, Array(text.utf8), code)
    }
}

/// Deterministic pseudo-random bytes.
func garbageBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
}

let plistHead = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
let validJSON =
    #"{"url": "https://api.example.com", "retries": 3, "ratio": 0.5, "debug": false, "#
    + #""hosts": ["a", "b"], "server": {"host": "h", "port": 8080}}"#
let validPlist =
    plistHead + "<dict><key>url</key><string>https://api.example.com</string>"
    + "<key>retries</key><integer>3</integer><key>hosts</key><array><string>a</string></array></dict></plist>"

/// Malformed files, in JSON and property-list form: truncation, bad encodings, wrong roots, unrepresentable values,
/// duplicate keys, deep nesting, garbage and missing files. Cases the JSON suite of AssemblageTests already parses in
/// depth are here to check what a failed `applyPropertyLoader` leaves behind; the property-list cases it lacks are
/// new.
let badFiles: [BadFile] = [
    .init("truncated", .json, String(validJSON.dropLast(20))),
    .init("truncated", .plist, String(validPlist.dropLast(30))),
    .init("byte-order mark twice", .json, [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(validJSON.utf8)),
    .init("UTF-16 byte-order mark", .json, [0xFF, 0xFE] + Array(validJSON.utf8)),
    .init("byte-order mark then garbage", .plist, [0xEF, 0xBB, 0xBF] + Array("<<<plist".utf8)),
    .init("invalid UTF-8", .json, Array(#"{"url": "a"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)),
    .init(
        "invalid UTF-8", .plist,
        Array((plistHead + "<dict><key>a</key><string>x").utf8) + [0xFF, 0xFE, 0xC0]
            + Array("</string></dict></plist>".utf8)),
    .init("root is an array", .json, "[1, 2]", .rootNotDictionary),
    .init("root is an array", .plist, plistHead + "<array><string>a</string></array></plist>", .rootNotDictionary),
    .init("null value", .json, #"{"url": null}"#, .invalidValue),
    .init("NaN real", .plist, plistHead + "<dict><key>ratio</key><real>nan</real></dict></plist>", .invalidValue),
    .init("duplicate keys", .json, #"{"url": "a", "url": "b"}"#, .duplicateKey),
    .init(
        "10,000-deep nesting", .json,
        #"{"a": "# + String(repeating: "[", count: 10_000)
            + String(repeating: "]", count: 10_000) + "}"),
    .init(
        "10,000-deep nesting", .plist,
        plistHead + "<dict><key>a</key>" + String(repeating: "<array>", count: 10_000)
            + String(repeating: "</array>", count: 10_000) + "</dict></plist>"),
    .init("1e400", .json, #"{"limit": 1e400}"#, .invalidValue),
    .init("1e400", .plist, plistHead + "<dict><key>limit</key><real>1e400</real></dict></plist>", .invalidValue),
    .init("empty file", .json, ""),
    .init("empty file", .plist, ""),
    .init("binary garbage", .json, garbageBytes(4_096, seed: 1)),
    .init("binary garbage", .plist, Array("bplist00".utf8) + garbageBytes(4_096, seed: 2)),
    .init("missing file", .json, nil, .missingFile),
    .init("missing file", .plist, nil, .missingFile),
]

/// What a container looks like from outside: its registrations, its properties and what a factory reads.
struct ContainerSnapshot: Equatable {
    let registrations: String
    let values: [String: PropertyValue]
    let sources: [String]
    let resolved: String?

    init(_ container: Container) {
        registrations = container.description
        values = container.properties.values
        sources = container.properties.sources
        resolved = container.resolve(String.self, name: "url")
    }
}

/// A container with registrations and properties, to see that a failed load changes neither.
func populatedContainer() throws -> Container {
    let container = Container(label: "app")
    try container.applyPropertyLoader(DictionaryPropertyLoader(["url": "https://before", "retries": 1]))
    container.register(String.self, name: "url") { r in r.property("url") ?? "none" }
    container.register(Int.self) { r in r.property("retries") ?? 0 }.inObjectScope(.container)
    _ = container.resolve(Int.self)
    return container
}

func loader(for file: BadFile, in directory: URL) throws -> any PropertyLoader {
    let url = directory.appendingPathComponent(file.format == .json ? "settings.json" : "Settings.plist")
    if let bytes = file.bytes { try Data(bytes).write(to: url) }
    return file.format == .json ? JSONPropertyLoader(url: url) : PlistPropertyLoader(url: url)
}

extension Reliability {
    /// Every malformed property file fails with a typed error and leaves the container exactly as it was.
    @Suite("Malformed property files", .serialized)
    struct MalformedPropertyFileTests {
        func temporaryDirectory() throws -> URL {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("assemblage-reliability-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        @Test(arguments: badFiles)
        func failedLoadThrowsItsCodeAndLeavesTheContainerUnchanged(_ file: BadFile) throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let bad = try loader(for: file, in: directory)
            let container = try populatedContainer()
            let before = ContainerSnapshot(container)
            let error = try #require(throws: PropertyError.self) { try container.applyPropertyLoader(bad) }
            #expect(error.code == file.code, "\(error)")
            #expect(error.description.contains(directory.path), "the error names the file")
            #expect(ContainerSnapshot(container) == before)
            // A good loader before the bad one in the same call is not applied either.
            let good = DictionaryPropertyLoader(["url": "https://changed", "extra": true])
            #expect(throws: PropertyError.self) { try container.applyPropertyLoaders([good, bad]) }
            #expect(ContainerSnapshot(container) == before)
            // An assembler given the bad loader runs no assembly.
            let assembled = Locked(false)
            struct Marks: Assembly {
                let assembled: Locked<Bool>
                func assemble(container: Container) { assembled.withLock { $0 = true } }
            }
            let fresh = try populatedContainer()
            let freshBefore = ContainerSnapshot(fresh)
            #expect(throws: PropertyError.self) {
                _ = try Assembler([Marks(assembled: assembled)], propertyLoaders: [good, bad], container: fresh)
            }
            #expect(!assembled.current)
            #expect(ContainerSnapshot(fresh) == freshBefore)
        }

        @Test func everyTruncationOfAValidFileFailsCleanly() throws {
            let container = try populatedContainer()
            let before = ContainerSnapshot(container)
            var failed = 0
            var total = 0
            let binary = try PropertyListSerialization.data(
                fromPropertyList: ["url": "https://api", "retries": 3, "hosts": ["a", "b"]] as [String: Any],
                format: .binary, options: 0)
            let inputs: [(String, [UInt8])] = [
                ("json", Array(validJSON.utf8)), ("plist", Array(validPlist.utf8)),
                ("binary plist", [UInt8](binary)),
            ]
            for (format, bytes) in inputs {
                for length in 0..<bytes.count {
                    total += 1
                    let data = Data(bytes.prefix(length))
                    let bad: any PropertyLoader =
                        format == "json"
                        ? JSONPropertyLoader(data: data, description: "\(format) cut at \(length)")
                        : PlistPropertyLoader(data: data, description: "\(format) cut at \(length)")
                    do {
                        try container.applyPropertyLoader(bad)
                        Issue.record("\(format) cut at \(length) of \(bytes.count) bytes loaded")
                    } catch let error as PropertyError {
                        if error.source == "\(format) cut at \(length)" { failed += 1 }
                    }
                    if ContainerSnapshot(container) != before {
                        Issue.record("\(format) cut at \(length) changed the container")
                        return
                    }
                }
            }
            Figure.report(
                "truncated property files",
                "\(failed)/\(total) truncations (every prefix of a JSON, an XML and a binary property list) "
                    + "failed with a PropertyError naming the source, container unchanged")
            #expect(failed == total)
        }

        @Test func singleByteCorruptionLoadsOrFailsCleanlyNeverCrashes() throws {
            let bytes = Array(validJSON.utf8)
            let replacements: [UInt8] = [0x00, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x2C, 0x3A, 0xFF, 0xC3, 0x20, 0x31]
            var loaded = 0
            var failed = 0
            var changedByFailure = 0
            for position in bytes.indices {
                for replacement in replacements where bytes[position] != replacement {
                    var corrupted = bytes
                    corrupted[position] = replacement
                    let container = try populatedContainer()
                    let before = ContainerSnapshot(container)
                    do {
                        try container.applyPropertyLoader(
                            JSONPropertyLoader(data: Data(corrupted), description: "corrupt"))
                        loaded += 1
                    } catch let error as PropertyError {
                        failed += 1
                        #expect(error.line != nil && error.column != nil, "\(error)")
                        if ContainerSnapshot(container) != before { changedByFailure += 1 }
                    }
                }
            }
            Figure.report(
                "corrupted JSON",
                "\(loaded + failed) single-byte corruptions: \(loaded) still valid, "
                    + "\(failed) failed with a located PropertyError (\(changedByFailure) changed the container), "
                    + "0 crashes")
            #expect(failed > loaded)
            #expect(changedByFailure == 0)
        }

        @Test func plistDuplicateKeysKeepTheLastOccurrenceAsDocumented() throws {
            // The system parser cannot report duplicates (PlistPropertyLoader's documentation says so); JSON's own
            // parser rejects them (the `duplicate keys` case above). Pinned so that a change is noticed.
            let text = plistHead + "<dict><key>a</key><string>x</string><key>a</key><string>y</string></dict></plist>"
            let values = try PlistPropertyLoader(data: Data(text.utf8), description: "dup.plist").load()
            #expect(values == ["a": "y"])
        }

        @Test func wrongValueTypesAreTypedErrorsNamingTheKey() throws {
            let container = Container()
            try container.applyPropertyLoader(
                JSONPropertyLoader(
                    data: Data(#"{"port": "eighty", "hosts": "a", "server": {"port": true}, "ratio": 1.5}"#.utf8),
                    description: "types.json"))
            struct Server: Decodable { let port: Int }
            let cases: [(String, () throws -> Void)] = [
                ("port", { _ = try container.requireProperty("port", as: Int.self) }),
                ("hosts", { _ = try container.requireProperty("hosts", as: [String].self) }),
                ("ratio", { _ = try container.requireProperty("ratio", as: Int.self) }),
                ("server.port", { _ = try container.decodeProperties(Server.self, forKey: "server") }),
            ]
            for (key, read) in cases {
                let error = try #require(throws: PropertyError.self, "\(key)") { try read() }
                #expect([.typeMismatch, .decodingFailed, .invalidValue].contains(error.code), "\(key): \(error)")
                #expect(error.description.contains(key), "\(error)")
            }
        }
    }
}
