import Foundation
import Testing
import Assemblage

// MARK: - PropertyValue

@Suite("PropertyValue reading rules")
struct PropertyValueTests {
    @Test func integerReadsAsIntAndExactDouble() {
        let value = PropertyValue.integer(3)
        #expect(value.intValue == 3)
        #expect(value.doubleValue == 3.0)
        #expect(Int(propertyValue: value) == 3)
        #expect(Double(propertyValue: value) == 3.0)
    }

    @Test func fractionalDoubleDoesNotReadAsInt() {
        let value = PropertyValue.double(3.5)
        #expect(value.doubleValue == 3.5)
        #expect(value.intValue == nil)
    }

    @Test func integralDoubleReadsAsInt() {
        #expect(PropertyValue.double(3.0).intValue == 3)
        #expect(PropertyValue.double(-0.0).intValue == 0)
        #expect(PropertyValue.double(1e20).intValue == nil, "beyond Int's range")
    }

    @Test func integerBeyondDoublePrecisionDoesNotReadAsDouble() {
        #expect(PropertyValue.integer(1 << 53).doubleValue == 9_007_199_254_740_992)
        #expect(PropertyValue.integer((1 << 53) + 1).doubleValue == nil)
        #expect(PropertyValue.integer(Int.max).doubleValue == nil)
    }

    @Test func boolNeverReadsAsNumberAndNumberNeverReadsAsBool() {
        #expect(PropertyValue.bool(true).intValue == nil)
        #expect(PropertyValue.bool(true).doubleValue == nil)
        #expect(PropertyValue.integer(1).boolValue == nil)
        #expect(PropertyValue.integer(0).boolValue == nil)
        #expect(PropertyValue.string("1").boolValue == nil)
    }

    @Test func numbersNeverReadAsString() {
        #expect(PropertyValue.integer(1).stringValue == nil)
        #expect(PropertyValue.double(1.5).stringValue == nil)
        #expect(PropertyValue.bool(false).stringValue == nil)
        #expect(String(propertyValue: .integer(1)) == nil)
    }

    struct StringConversion: Sendable, CustomTestStringConvertible {
        var text: String
        var int: Int?
        var double: Double?
        var bool: Bool?
        var testDescription: String { "\"\(text)\"" }
    }

    @Test(arguments: [
        StringConversion(text: "42", int: 42, double: 42),
        StringConversion(text: "-7", int: -7, double: -7),
        StringConversion(text: "+5", int: 5, double: 5),
        StringConversion(text: "0", int: 0, double: 0),
        StringConversion(text: "4.0", int: nil, double: 4),
        StringConversion(text: "2.5", int: nil, double: 2.5),
        StringConversion(text: "-1e3", int: nil, double: -1000),
        StringConversion(text: " 42", int: nil, double: nil),
        StringConversion(text: "42 ", int: nil, double: nil),
        StringConversion(text: "0x2A", int: nil, double: nil),
        StringConversion(text: "1_000", int: nil, double: nil),
        StringConversion(text: "inf", int: nil, double: nil),
        StringConversion(text: "nan", int: nil, double: nil),
        StringConversion(text: "1e400", int: nil, double: nil),
        StringConversion(text: "", int: nil, double: nil),
        StringConversion(text: "-", int: nil, double: nil),
        StringConversion(text: "99999999999999999999", int: nil, double: 1e20),
        StringConversion(text: "true", bool: true),
        StringConversion(text: "TRUE", bool: true),
        StringConversion(text: "False", bool: false),
        StringConversion(text: "yes", bool: nil),
        StringConversion(text: "1", int: 1, double: 1, bool: nil),
    ])
    func stringsConvertByDocumentedRules(_ conversion: StringConversion) {
        let value = PropertyValue.string(conversion.text)
        #expect(value.intValue == conversion.int)
        #expect(value.doubleValue == conversion.double)
        #expect(value.boolValue == conversion.bool)
        #expect(value.stringValue == conversion.text)
    }

    @Test func iso8601StringReadsAsDate() throws {
        let plain = try #require(PropertyValue.string("2024-05-01T12:00:00Z").dateValue)
        #expect(plain == Date(timeIntervalSince1970: 1_714_564_800))
        let fractional = try #require(PropertyValue.string("2024-05-01T14:00:00.250+02:00").dateValue)
        #expect(abs(fractional.timeIntervalSince1970 - 1_714_564_800.25) < 0.001)
        #expect(PropertyValue.string("yesterday").dateValue == nil)
        #expect(PropertyValue.integer(0).dateValue == nil, "numbers are not timestamps")
    }

    @Test func base64StringReadsAsData() {
        #expect(PropertyValue.string("AAEC").dataValue == Data([0, 1, 2]))
        #expect(PropertyValue.string("not base64!").dataValue == nil)
        #expect(PropertyValue.data(Data([9])).dataValue == Data([9]))
    }

    @Test func equalityIsStructural() {
        #expect(PropertyValue.integer(3) != PropertyValue.double(3))
        #expect(PropertyValue.string("3") != PropertyValue.integer(3))
        #expect(PropertyValue.array([1, 2]) == [1, 2])
    }

    @Test func literalsBuildTheMatchingCases() {
        let value: PropertyValue = ["s": "x", "i": 1, "d": 1.5, "b": true, "a": [1], "o": ["k": "v"]]
        #expect(value == .dictionary([
            "s": .string("x"), "i": .integer(1), "d": .double(1.5), "b": .bool(true),
            "a": .array([.integer(1)]), "o": .dictionary(["k": .string("v")]),
        ]))
    }

    @Test func dictionaryLiteralWithRepeatedKeyKeepsLastInsteadOfTrapping() {
        let value: PropertyValue = ["k": 1, "k": 2]
        #expect(value == .dictionary(["k": .integer(2)]))
    }

    @Test func descriptionIsCompactAndStable() {
        let value: PropertyValue = [
            "name": "a\"b\n", "port": 80, "ratio": 0.5, "on": false,
            "list": [1, "x"], "blob": .data(Data([1, 2, 3])),
            "when": .date(Date(timeIntervalSince1970: 0)),
        ]
        #expect(value.description == #"{"blob": <3 bytes>, "list": [1, "x"], "name": "a\"b\n", "#
            + #""on": false, "port": 80, "ratio": 0.5, "when": 1970-01-01T00:00:00Z}"#)
    }
}

// MARK: - PropertyRepresentable

@Suite("PropertyRepresentable conformances")
struct PropertyRepresentableTests {
    @Test func arraysConvertOnlyWhenEveryElementConverts() {
        #expect([Int](propertyValue: [1, "2", 3.0]) == [1, 2, 3])
        #expect([Int](propertyValue: [1, true]) == nil)
        #expect([Int](propertyValue: .string("1,2")) == nil, "strings are not split")
        #expect([[String]](propertyValue: [["a"], ["b", "c"]]) == [["a"], ["b", "c"]])
    }

    @Test func dictionariesConvertOnlyWhenEveryValueConverts() {
        #expect([String: Double](propertyValue: ["a": 1, "b": "2.5"]) == ["a": 1, "b": 2.5])
        #expect([String: Double](propertyValue: ["a": 1, "b": false]) == nil)
        #expect([String: [Int]](propertyValue: ["a": [1, 2]]) == ["a": [1, 2]])
    }

    @Test func propertyValueRoundTripsThroughConformances() {
        #expect(Int(propertyValue: 42.propertyValue) == 42)
        #expect(Double(propertyValue: 0.25.propertyValue) == 0.25)
        #expect(Bool(propertyValue: true.propertyValue) == true)
        #expect(String(propertyValue: "x".propertyValue) == "x")
        let date = Date(timeIntervalSince1970: 12)
        #expect(Date(propertyValue: date.propertyValue) == date)
        #expect(Data(propertyValue: Data([7]).propertyValue) == Data([7]))
        #expect([String: [Int]](propertyValue: ["a": [1]].propertyValue) == ["a": [1]])
        #expect(PropertyValue(propertyValue: .bool(true)) == .bool(true))
    }

    @Test func customTypesConformWithValidation() {
        struct Port: PropertyRepresentable, Equatable {
            var number: Int
            init(number: Int) { self.number = number }
            init?(propertyValue: PropertyValue) {
                guard let number = propertyValue.intValue, (1...65_535).contains(number) else { return nil }
                self.number = number
            }
            var propertyValue: PropertyValue { .integer(number) }
        }
        #expect(Port(propertyValue: "8080") == Port(number: 8080))
        #expect(Port(propertyValue: 70_000) == nil)
        #expect([Port](propertyValue: [80, 443]) == [Port(number: 80), Port(number: 443)])
    }
}

// MARK: - PropertyError

@Suite("PropertyError descriptions")
struct PropertyErrorDescriptionTests {
    @Test func descriptionCombinesCodeSourceLocationKeyAndMessage() {
        let error = PropertyError(code: .malformedFile, source: "/path/settings.json", format: "JSON",
                                  keyPath: "server.port", line: 3, column: 14, message: "expected ',' or '}'")
        #expect(error.description
            == #"Malformed JSON in /path/settings.json at line 3, column 14 (key "server.port"): expected ',' or '}'"#)
        #expect(error.localizedDescription == error.description)
    }

    @Test func descriptionOmitsUnknownParts() {
        let missing = PropertyError(code: .missingFile, source: "/x.json", message: "no such file")
        #expect(missing.description == "Missing file /x.json: no such file")
        let mismatch = PropertyError(code: .typeMismatch, source: "defaults", keyPath: "port",
                                     message: "expected Int, found a bool")
        #expect(mismatch.description == #"Type mismatch in defaults (key "port"): expected Int, found a bool"#)
        let lineOnly = PropertyError(code: .malformedFile, source: "a.plist", format: "property list",
                                     line: 7, message: "bad")
        #expect(lineOnly.description == "Malformed property list in a.plist at line 7: bad")
    }

    @Test func codesCompareAndPrintByName() {
        #expect(PropertyError.Code.duplicateKey == .duplicateKey)
        #expect(PropertyError.Code.duplicateKey != .missingKey)
        #expect("\(PropertyError.Code.rootNotDictionary)" == "rootNotDictionary")
    }
}

// MARK: - Loaders

/// Loads JSON text through the public loader.
func loadJSON(_ text: String) throws -> [String: PropertyValue] {
    try JSONPropertyLoader(data: Data(text.utf8), description: "inline.json").load()
}

@Suite("Property loaders")
struct PropertyLoaderTests {
    @Test func jsonFixtureLoadsFromModuleBundle() throws {
        let loader = JSONPropertyLoader(bundle: .module, name: "settings", subdirectory: "Fixtures")
        let url = try #require(loader.url)
        #expect(url.lastPathComponent == "settings.json")
        #expect(loader.sourceDescription == url.path)
        let values = try loader.load()
        #expect(values["retries"] == .integer(3))
        #expect(values["timeout"] == .double(2.5))
        #expect(values["verbose"] == .bool(false))
        #expect(values["hosts"] == ["a.example.com", "b.example.com"])
        #expect(values["server"] == ["host": "localhost", "port": 8080])
        #expect(values["launch"]?.dateValue == Date(timeIntervalSince1970: 1_714_564_800))
    }

    @Test func jsonNameMayIncludeTheExtension() throws {
        let loader = JSONPropertyLoader(bundle: .module, name: "settings.json", subdirectory: "Fixtures")
        #expect(try loader.load()["retries"] == .integer(3))
    }

    @Test func commentsOutsideStringsAreIgnored() throws {
        let values = try loadJSON("""
            // leading
            /* block */ { /* before key */ "a" /* after key */ : // after colon
              1 /* after value */ , "b": [ /* in array */ 2 // end
            ] } /* trailing */ // end of file without newline
            """)
        #expect(values == ["a": .integer(1), "b": .array([.integer(2)])])
    }

    @Test func commentsInsideStringsAreKept() throws {
        let loader = JSONPropertyLoader(bundle: .module, name: "settings", subdirectory: "Fixtures")
        let values = try loader.load()
        #expect(values["baseURL"] == .string("https://api.example.com/v1"))
        #expect(values["banner"] == .string("/* not a comment */ and // not one either"))
        #expect(try loadJSON(#"{"k": "a\"//b", "l": "/*\\"}"#) == ["k": .string(#"a"//b"#), "l": .string(#"/*\"#)])
    }

    @Test func jsonNumberReadsAsIntAndDouble() throws {
        let values = try loadJSON(#"{"three": 3, "half": 3.5, "threePointZero": 3.0, "exp": 1e2, "negZero": -0}"#)
        #expect(values["three"]?.intValue == 3)
        #expect(values["three"]?.doubleValue == 3.0)
        #expect(values["half"]?.doubleValue == 3.5)
        #expect(values["half"]?.intValue == nil)
        #expect(values["threePointZero"]?.intValue == 3)
        #expect(values["exp"]?.intValue == 100)
        #expect(values["negZero"] == .integer(0))
    }

    @Test func jsonTrueIsNotOne() throws {
        let values = try loadJSON(#"{"flag": true, "one": 1}"#)
        #expect(values["flag"] == .bool(true))
        #expect(values["flag"]?.intValue == nil)
        #expect(values["one"]?.boolValue == nil)
    }

    @Test func jsonIntegerBeyondIntLoadsAsDoubleThatDoesNotReadAsInt() throws {
        let values = try loadJSON(#"{"big": 99999999999999999999, "max": 9223372036854775807}"#)
        #expect(values["big"] == .double(1e20))
        #expect(values["big"]?.intValue == nil)
        #expect(values["max"] == .integer(Int.max))
    }

    @Test func jsonTinyNumberUnderflowsToZeroRatherThanFailing() throws {
        #expect(try loadJSON(#"{"tiny": 1e-400}"#)["tiny"] == .double(0))
    }

    @Test func jsonEscapesDecodeToUnicode() throws {
        let values = try loadJSON(#"{"s": "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\u0000", "é": "raw ü 😀"}"#)
        #expect(values["s"] == .string("\"\\/\u{8}\u{C}\n\r\té😀\u{0}"))
        #expect(values["é"] == .string("raw ü 😀"))
    }

    @Test func utf8ByteOrderMarkIsIgnored() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        let values = try JSONPropertyLoader(data: data, description: "bom.json").load()
        #expect(values == ["a": .integer(1)])
    }

    @Test func emptyObjectLoadsAsNoProperties() throws {
        #expect(try loadJSON(" { } ").isEmpty)
    }

    @Test func plistFixtureLoadsDatesAndData() throws {
        let loader = PlistPropertyLoader(bundle: .module, name: "settings", subdirectory: "Fixtures")
        #expect(loader.url?.lastPathComponent == "settings.plist")
        let values = try loader.load()
        #expect(values["name"] == .string("Assemblage"))
        #expect(values["retries"] == .integer(3))
        #expect(values["ratio"] == .double(0.75))
        #expect(values["enabled"] == .bool(true))
        #expect(values["launch"] == .date(Date(timeIntervalSince1970: 1_714_564_800)))
        #expect(values["token"] == .data(Data([0, 1, 2, 3])))
        #expect(values["hosts"] == ["a.example.com", "b.example.com"])
        #expect(values["server"] == ["host": "localhost", "port": 8080])
    }

    @Test func binaryPlistKeepsBoolsDistinctFromIntegers() throws {
        let plist: [String: Any] = [
            "one": 1, "yes": true, "no": false, "zero": 0, "half": 0.5, "negative": -12,
            "when": Date(timeIntervalSince1970: 86_400), "bytes": Data([5, 6]),
            "nested": ["list": [1, "two", true]] as [String: Any],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let values = try PlistPropertyLoader(data: data, description: "generated.plist").load()
        #expect(values["one"] == .integer(1))
        #expect(values["zero"] == .integer(0))
        #expect(values["yes"] == .bool(true))
        #expect(values["no"] == .bool(false))
        #expect(values["half"] == .double(0.5))
        #expect(values["negative"] == .integer(-12))
        #expect(values["when"] == .date(Date(timeIntervalSince1970: 86_400)))
        #expect(values["bytes"] == .data(Data([5, 6])))
        #expect(values["nested"] == ["list": [1, "two", true]])
    }

    @Test func dictionaryLoaderReturnsItsValues() throws {
        let loader = DictionaryPropertyLoader(["port": 8080], description: "defaults")
        #expect(loader.sourceDescription == "defaults")
        #expect(try loader.load() == ["port": .integer(8080)])
        let literal: DictionaryPropertyLoader = ["debug": true, "debug": false]
        #expect(literal.sourceDescription == "dictionary literal")
        #expect(try literal.load() == ["debug": .bool(false)])
    }

    @Test func environmentLoaderSelectsPrefixedVariablesAndStripsPrefix() throws {
        let environment = ["APP_PORT": "8080", "APP_DEBUG": "true", "PATH": "/bin", "app_lower": "x", "APP_": "empty"]
        let loader = EnvironmentPropertyLoader(prefix: "APP_", environment: environment)
        #expect(try loader.load() == ["PORT": .string("8080"), "DEBUG": .string("true")])
        #expect(loader.sourceDescription == #"environment variables with prefix "APP_""#)
    }

    @Test func environmentLoaderKeepsPrefixWhenAsked() throws {
        let loader = EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_PORT": "1", "OTHER": "2"],
                                               stripPrefix: false)
        #expect(try loader.load() == ["APP_PORT": .string("1")])
    }

    @Test func environmentLoaderWithEmptyPrefixLoadsEverything() throws {
        let loader = EnvironmentPropertyLoader(prefix: "", environment: ["A": "1", "B": "2"])
        #expect(try loader.load() == ["A": .string("1"), "B": .string("2")])
    }

    @Test func environmentLoaderDefaultsToProcessEnvironment() throws {
        let loader = EnvironmentPropertyLoader(prefix: "")
        #expect(loader.environment == ProcessInfo.processInfo.environment)
    }

    @Test func environmentStringsReadThroughTypedAccessors() throws {
        let values = try EnvironmentPropertyLoader(
            prefix: "APP_", environment: ["APP_PORT": "8080", "APP_RATIO": "0.5", "APP_ON": "TRUE"]).load()
        #expect(values["PORT"].flatMap(Int.init(propertyValue:)) == 8080)
        #expect(values["RATIO"].flatMap(Double.init(propertyValue:)) == 0.5)
        #expect(values["ON"].flatMap(Bool.init(propertyValue:)) == true)
    }

    @Test func loadersCanLoadRepeatedly() throws {
        let loader = JSONPropertyLoader(bundle: .module, name: "overrides", subdirectory: "Fixtures")
        #expect(try loader.load() == loader.load())
    }
}
