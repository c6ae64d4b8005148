import Assemblage
import AssemblageProperties
import Foundation
import Testing

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
        #expect(
            value
                == .dictionary([
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
        #expect(
            value.description == #"{"blob": <3 bytes>, "list": [1, "x"], "name": "a\"b\n", "#
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
        let error = PropertyError(
            code: .malformedFile, source: "/path/settings.json", format: "JSON",
            keyPath: "server.port", line: 3, column: 14, message: "expected ',' or '}'")
        #expect(
            error.description
                == #"Malformed JSON in /path/settings.json at line 3, column 14 (key "server.port"): expected ',' or '}'"#
        )
        #expect(error.localizedDescription == error.description)
    }

    @Test func descriptionOmitsUnknownParts() {
        let missing = PropertyError(code: .missingFile, source: "/x.json", message: "no such file")
        #expect(missing.description == "Missing file /x.json: no such file")
        let mismatch = PropertyError(
            code: .typeMismatch, source: "defaults", keyPath: "port",
            message: "expected Int, found a bool")
        #expect(mismatch.description == #"Type mismatch in defaults (key "port"): expected Int, found a bool"#)
        let lineOnly = PropertyError(
            code: .malformedFile, source: "a.plist", format: "property list",
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
        let values = try loadJSON(
            """
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
        #expect(try loader.load() == ["port": .string("8080"), "debug": .string("true")])
        #expect(loader.sourceDescription == #"environment variables with prefix "APP_""#)
    }

    @Test func environmentLoaderKeepsPrefixWhenAsked() throws {
        let loader = EnvironmentPropertyLoader(
            prefix: "APP_", environment: ["APP_PORT": "1", "OTHER": "2"],
            stripPrefix: false)
        #expect(try loader.load() == ["app.port": .string("1")])
        let verbatim = EnvironmentPropertyLoader(
            prefix: "APP_", environment: ["APP_PORT": "1", "OTHER": "2"],
            stripPrefix: false, keyMapping: .verbatim)
        #expect(try verbatim.load() == ["APP_PORT": .string("1")])
    }

    @Test func environmentLoaderWithEmptyPrefixLoadsEverything() throws {
        let loader = EnvironmentPropertyLoader(prefix: "", environment: ["A": "1", "B": "2"])
        #expect(try loader.load() == ["a": .string("1"), "b": .string("2")])
    }

    @Test func environmentLoaderDefaultsToProcessEnvironment() throws {
        let loader = EnvironmentPropertyLoader(prefix: "")
        #expect(loader.environment == ProcessInfo.processInfo.environment)
    }

    @Test func environmentStringsReadThroughTypedAccessors() throws {
        let values = try EnvironmentPropertyLoader(
            prefix: "APP_", environment: ["APP_PORT": "8080", "APP_RATIO": "0.5", "APP_ON": "TRUE"]
        ).load()
        #expect(values["port"].flatMap(Int.init(propertyValue:)) == 8080)
        #expect(values["ratio"].flatMap(Double.init(propertyValue:)) == 0.5)
        #expect(values["on"].flatMap(Bool.init(propertyValue:)) == true)
    }

    @Test func loadersCanLoadRepeatedly() throws {
        let loader = JSONPropertyLoader(bundle: .module, name: "overrides", subdirectory: "Fixtures")
        #expect(try loader.load() == loader.load())
    }
}

// MARK: - Properties: merging

/// A loader that always fails, to check that nothing is applied.
struct FailingLoader: PropertyLoader {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }
    var throwsPropertyError = false
    var sourceDescription: String { "failing loader" }

    func load() throws -> [String: PropertyValue] {
        if throwsPropertyError {
            throw PropertyError(code: .malformedFile, source: sourceDescription, message: "bad input")
        }
        throw Boom()
    }
}

let settingsLoader = JSONPropertyLoader(bundle: .module, name: "settings", subdirectory: "Fixtures")
let overridesLoader = JSONPropertyLoader(bundle: .module, name: "overrides", subdirectory: "Fixtures")

@Suite("Properties merging")
struct PropertiesMergingTests {
    @Test func laterLoaderWinsTopLevelKeys() throws {
        let properties = try Properties(loaders: [settingsLoader, overridesLoader])
        #expect(properties.property("retries", as: Int.self) == 5)
        #expect(properties.property("timeout", as: Double.self) == 2.5, "keys only in the first loader survive")
        let reversed = try Properties(loaders: [overridesLoader, settingsLoader])
        #expect(reversed.property("retries", as: Int.self) == 3)
    }

    @Test func arraysAndDictionariesAreReplacedWhole() throws {
        let properties = try Properties(loaders: [settingsLoader, overridesLoader])
        #expect(properties.property("hosts", as: [String].self) == ["c.example.com"])
        #expect(properties.value(forKey: "server") == ["port": 9090], "no deep merge: server.host is gone")
    }

    @Test func failedLoaderAppliesNothing() throws {
        var properties = try Properties(loader: settingsLoader)
        let before = properties.values
        let error = try #require(throws: PropertyError.self) {
            try properties.merge(loaders: [overridesLoader, FailingLoader(throwsPropertyError: true)])
        }
        #expect(error.code == .malformedFile)
        #expect(properties.values == before, "the successful first loader must not be applied either")
        #expect(properties.sources == [settingsLoader.sourceDescription])
        #expect(properties.property("retries", as: Int.self) == 3)
    }

    @Test func failedSingleLoaderLeavesPropertiesUnchanged() throws {
        var properties: Properties = ["a": 1]
        #expect(throws: PropertyError.self) { try properties.merge(loader: FailingLoader()) }
        #expect(properties.values == ["a": .integer(1)])
        #expect(properties.sources == ["dictionary literal"])
    }

    @Test func initializerFailsWithTheFirstFailingLoader() throws {
        let error = try #require(throws: PropertyError.self) {
            try Properties(loaders: [settingsLoader, FailingLoader(throwsPropertyError: true), FailingLoader()])
        }
        #expect(error.message == "bad input")
    }

    @Test func foreignLoaderErrorIsWrappedAsLoadFailed() throws {
        let error = try #require(throws: PropertyError.self) { try Properties(loader: FailingLoader()) }
        #expect(error.code == .loadFailed)
        #expect(error.source == "failing loader")
        #expect(error.underlyingError is FailingLoader.Boom)
        #expect(error.description == "Loading failed in failing loader: boom")
    }

    @Test func mergingReturnsANewValueAndLeavesTheOriginal() throws {
        let base: Properties = ["a": 1, "b": 2]
        let merged = base.merging(Properties(["b": 3, "c": 4], source: "overrides"))
        #expect(base.values == ["a": 1, "b": 2])
        #expect(merged.values == ["a": 1, "b": 3, "c": 4])
        let viaLoader = base.merging(try Properties(loader: DictionaryPropertyLoader(["a": "x"], description: "d")))
        #expect(viaLoader.values == ["a": "x", "b": 2])
    }

    @Test func sourceForKeyNamesTheWinningLoader() throws {
        let environment = EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_retries": "7"])
        let properties = try Properties(loaders: [settingsLoader, overridesLoader, environment])
        #expect(properties.source(forKey: "retries") == environment.sourceDescription)
        #expect(properties.source(forKey: "hosts") == overridesLoader.sourceDescription)
        #expect(properties.source(forKey: "timeout") == settingsLoader.sourceDescription)
        #expect(properties.source(forKey: "absent") == nil)
        #expect(
            properties.sources
                == ([settingsLoader, overridesLoader, environment] as [any PropertyLoader]).map(\.sourceDescription))
    }

    @Test func environmentOverrideOfAFileNumberStillReadsAsNumber() throws {
        let environment = EnvironmentPropertyLoader(prefix: "APP_", environment: ["APP_retries": "7"])
        let properties = try Properties(loaders: [settingsLoader, environment])
        #expect(properties.value(forKey: "retries") == .string("7"))
        #expect(properties.property("retries", as: Int.self) == 7)
        #expect(try properties.requireProperty("retries", as: Double.self) == 7)
    }

    @Test func emptyPropertiesHaveNoKeysOrSources() {
        let properties = Properties()
        #expect(properties.isEmpty)
        #expect(properties.sources.isEmpty)
        #expect(properties.value(forKey: "a") == nil)
    }

    @Test func propertiesCanBeSharedAcrossTasks() async throws {
        let properties = try Properties(loaders: [settingsLoader, overridesLoader])
        let sum = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { properties.property("retries", as: Int.self) ?? 0 }
            }
            return await group.reduce(0, +)
        }
        #expect(sum == 500)
    }

    @Test func descriptionListsKeysAndSourcesButNotValues() {
        let properties = Properties(["password": "hunter2", "port": 1], source: "secrets.json")
        #expect(properties.description == "Properties(keys: [password, port], sources: [secrets.json])")
    }
}

// MARK: - Properties: typed reads

@Suite("Properties typed reads")
struct PropertiesReadingTests {
    let properties = Properties(
        [
            "port": 8080, "ratio": 0.5, "debug": true, "name": "api", "hosts": ["a", "b"],
            "limits": ["read": 10, "write": 2], "token": "AAEC", "mixed": [1, "x"],
        ], source: "/app/settings.json")

    @Test func propertyReadsSupportedTypes() {
        #expect(properties.property("port", as: Int.self) == 8080)
        #expect(properties.property("port", as: Double.self) == 8080)
        #expect(properties.property("ratio", as: Double.self) == 0.5)
        #expect(properties.property("debug", as: Bool.self) == true)
        #expect(properties.property("name", as: String.self) == "api")
        #expect(properties.property("hosts", as: [String].self) == ["a", "b"])
        #expect(properties.property("limits", as: [String: Int].self) == ["read": 10, "write": 2])
        #expect(properties.property("token", as: Data.self) == Data([0, 1, 2]))
        #expect(properties.property("port", as: PropertyValue.self) == .integer(8080))
    }

    @Test func propertyTypeCanBeInferred() {
        let hosts: [String]? = properties.property("hosts")
        #expect(hosts == ["a", "b"])
        #expect(properties.value(forKey: "port") == .integer(8080))
    }

    @Test func propertyReturnsNilForMissingKeyOrMismatch() {
        #expect(properties.property("absent", as: Int.self) == nil)
        #expect(properties.property("debug", as: Int.self) == nil)
        #expect(properties.property("ratio", as: Int.self) == nil)
        #expect(properties.property("mixed", as: [Int].self) == nil)
        #expect(properties.property("port", as: String.self) == nil)
    }

    @Test func requirePropertyNamesMissingKeyAndExpectedType() throws {
        let error = try #require(throws: PropertyError.self) {
            try properties.requireProperty("timeout", as: Double.self)
        }
        #expect(error.code == .missingKey)
        #expect(error.keyPath == "timeout")
        #expect(
            error.description == #"Missing key in properties from /app/settings.json (key "timeout"): "#
                + "no value was loaded for this key (expected Double)")
    }

    @Test func requirePropertyNamesExpectedAndFoundTypes() throws {
        let error = try #require(throws: PropertyError.self) {
            try properties.requireProperty("debug", as: Int.self)
        }
        #expect(error.code == .typeMismatch)
        #expect(
            error.description
                == #"Type mismatch in /app/settings.json (key "debug"): expected Int, found a bool"#)
        let arrayError = try #require(throws: PropertyError.self) {
            try properties.requireProperty("mixed", as: [Int].self)
        }
        #expect(arrayError.message == "expected Array<Int>, found an array")
        #expect(try properties.requireProperty("port", as: Int.self) == 8080)
    }

    @Test func requirePropertyErrorDoesNotLeakTheValue() throws {
        let secrets = Properties(["DB_PASSWORD": "correct-horse-battery"], source: "environment")
        let error = try #require(throws: PropertyError.self) {
            try secrets.requireProperty("DB_PASSWORD", as: Int.self)
        }
        #expect(!error.description.contains("correct-horse"))
        #expect(error.message == "expected Int, found a string that does not convert to it")
    }
}

// MARK: - Properties: decoding

struct ServerConfig: Decodable, Equatable {
    var host: String
    var port: Int
}

@Suite("Properties decoding")
struct PropertiesDecodingTests {
    @Test func decodeStructFromKey() throws {
        let properties = try Properties(loader: settingsLoader)
        #expect(
            try properties.decodeProperties(ServerConfig.self, forKey: "server")
                == ServerConfig(host: "localhost", port: 8080))
    }

    @Test func decodeStructFromRoot() throws {
        struct AppConfig: Decodable {
            var baseURL: URL
            var timeout: Double
            var retries: Int
            var verbose: Bool
            var hosts: [String]
            var server: ServerConfig
            var launch: Date
            var missing: String?
        }
        let config = try Properties(loader: settingsLoader).decodeProperties(AppConfig.self)
        #expect(config.baseURL == URL(string: "https://api.example.com/v1"))
        #expect(config.timeout == 2.5)
        #expect(config.retries == 3)
        #expect(config.verbose == false)
        #expect(config.hosts == ["a.example.com", "b.example.com"])
        #expect(config.server.port == 8080)
        #expect(config.launch == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(config.missing == nil)
    }

    @Test func decodeErrorNamesTheNestedMissingKey() throws {
        let properties = Properties(["server": ["host": "h"]], source: "/app/settings.json")
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(ServerConfig.self, forKey: "server")
        }
        #expect(error.code == .missingKey)
        #expect(error.keyPath == "server.port")
        #expect(
            error.description
                == #"Missing key in /app/settings.json (key "server.port"): required key is missing"#)
    }

    @Test func decodeErrorNamesArrayIndicesInThePath() throws {
        struct Cluster: Decodable { var servers: [ServerConfig] }
        let properties = Properties(
            [
                "cluster": ["servers": [["host": "a", "port": 1], ["host": "b", "port": "eighty"]]]
            ], source: "cluster.json")
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Cluster.self, forKey: "cluster")
        }
        #expect(error.code == .typeMismatch)
        #expect(error.keyPath == "cluster.servers[1].port")
        #expect(error.message == "expected Int, found a string that does not convert to it")
        #expect(error.source == "cluster.json")
    }

    @Test func decodeFromRootNamesTopLevelKeyAndItsSource() throws {
        struct Root: Decodable { var retries: Int }
        let properties = try Properties(loaders: [
            settingsLoader, DictionaryPropertyLoader(["retries": true], description: "bad overrides"),
        ])
        let error = try #require(throws: PropertyError.self) { try properties.decodeProperties(Root.self) }
        #expect(error.description == #"Type mismatch in bad overrides (key "retries"): expected Int, found a bool"#)
    }

    @Test func decodeMissingTopLevelKeyThrowsMissingKey() throws {
        let error = try #require(throws: PropertyError.self) {
            try Properties().decodeProperties(ServerConfig.self, forKey: "server")
        }
        #expect(error.code == .missingKey)
        #expect(error.keyPath == "server")
        #expect(error.description.contains("empty properties"))
    }

    @Test func decodeRejectsIntegerOverflowAsInvalidValue() throws {
        struct Small: Decodable { var level: Int8 }
        let properties: Properties = ["small": ["level": 300]]
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Small.self, forKey: "small")
        }
        #expect(error.code == .invalidValue)
        #expect(error.keyPath == "small.level")
        #expect(error.message == "number does not fit in Int8")
    }

    @Test func decodeNeverReadsBoolFromNumber() throws {
        struct Flags: Decodable { var enabled: Bool }
        let properties: Properties = ["flags": ["enabled": 1]]
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Flags.self, forKey: "flags")
        }
        #expect(error.code == .typeMismatch)
        #expect(error.message == "expected Bool, found an integer")
    }

    @Test func decodeConvertsEnvironmentStrings() throws {
        struct Settings: Decodable, Equatable {
            var port: UInt16
            var ratio: Float
            var debug: Bool
            var started: Date
            var key: Data
            var price: Decimal
        }
        let environment = EnvironmentPropertyLoader(
            prefix: "APP_",
            environment: [
                "APP_port": "8080", "APP_ratio": "0.5", "APP_debug": "true",
                "APP_started": "1970-01-02T00:00:00Z", "APP_key": "AAEC", "APP_price": "19.99",
            ])
        let settings = try Properties(loader: environment).decodeProperties(Settings.self)
        #expect(
            settings
                == Settings(
                    port: 8080, ratio: 0.5, debug: true,
                    started: Date(timeIntervalSince1970: 86_400), key: Data([0, 1, 2]),
                    price: Decimal(string: "19.99")!))
    }

    @Test func decodeInvalidEnumRawValueIsInvalidValue() throws {
        enum Mode: String, Decodable { case fast, safe }
        struct Config: Decodable { var mode: Mode }
        let properties: Properties = ["config": ["mode": "reckless"]]
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Config.self, forKey: "config")
        }
        #expect(error.code == .invalidValue)
        #expect(error.keyPath == "config.mode")
        #expect(
            try Properties(["config": ["mode": "safe"]]).decodeProperties(Config.self, forKey: "config").mode
                == .safe)
    }

    @Test func decodeCollectionsAndOptionals() throws {
        struct Config: Decodable {
            var weights: [String: Double]
            var matrix: [[Int]]
            var nickname: String?
            var tags: Set<String>
        }
        let properties: Properties = [
            "c": ["weights": ["a": 1, "b": 0.5], "matrix": [[1, 2], [3]], "tags": ["x", "x", "y"]]
        ]
        let config = try properties.decodeProperties(Config.self, forKey: "c")
        #expect(config.weights == ["a": 1, "b": 0.5])
        #expect(config.matrix == [[1, 2], [3]])
        #expect(config.nickname == nil)
        #expect(config.tags == ["x", "y"])
    }

    @Test func decodeScalarsDirectlyFromAKey() throws {
        let properties: Properties = ["port": "8080", "hosts": ["a"], "ratio": 2]
        #expect(try properties.decodeProperties(Int.self, forKey: "port") == 8080)
        #expect(try properties.decodeProperties([String].self, forKey: "hosts") == ["a"])
        #expect(try properties.decodeProperties(Double.self, forKey: "ratio") == 2)
    }

    @Test func decodeRejectsAnInvalidURL() throws {
        struct Endpoint: Decodable { var url: URL }
        let properties: Properties = ["endpoint": ["url": ""]]
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Endpoint.self, forKey: "endpoint")
        }
        #expect(error.code == .invalidValue)
        #expect(error.keyPath == "endpoint.url")
    }

    @Test func handWrittenDecodableUsesNestedAndUnkeyedContainers() throws {
        struct Pair: Decodable, Equatable {
            var first: Int
            var second: String
            var extra: Int?
            init(first: Int, second: String, extra: Int?) {
                (self.first, self.second, self.extra) = (first, second, extra)
            }
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                #expect(list.count == 2)
                first = try list.decode(Int.self)
                let nested = try list.nestedContainer(keyedBy: AnyKey.self)
                second = try nested.decode(String.self, forKey: AnyKey("name"))
                extra = try nested.decodeIfPresent(Int.self, forKey: AnyKey("extra"))
                #expect(try !nested.decodeNil(forKey: AnyKey("name")))
                #expect(list.isAtEnd)
            }
        }
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let properties: Properties = ["pair": [1, ["name": "x"]]]
        #expect(try properties.decodeProperties(Pair.self, forKey: "pair") == Pair(first: 1, second: "x", extra: nil))
    }

    @Test func readingPastTheEndOfAnArrayNamesTheIndex() throws {
        struct Triple: Decodable {
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                for _ in 0..<3 { _ = try list.decode(Int.self) }
            }
        }
        let properties: Properties = ["triple": [1, 2]]
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Triple.self, forKey: "triple")
        }
        #expect(error.code == .missingKey)
        #expect(error.keyPath == "triple[2]")
        #expect(error.message == "the array has only 2 elements")
    }

    @Test func decodeCustomInitErrorIsWrappedWithItsPath() throws {
        struct OutOfRange: Error {}
        struct Percentage: Decodable {
            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer().decode(Double.self)
                guard (0...100).contains(value) else { throw OutOfRange() }
            }
        }
        struct Limits: Decodable { var cpu: Percentage }
        let properties = Properties(["limits": ["cpu": 150]], source: "limits.json")
        let error = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(Limits.self, forKey: "limits")
        }
        #expect(error.code == .decodingFailed)
        #expect(error.keyPath == "limits.cpu")
        #expect(error.source == "limits.json")
        #expect(error.underlyingError is OutOfRange)
    }

    @Test func decodeTypeMismatchForContainerKinds() throws {
        let properties: Properties = ["server": [1, 2], "list": ["a": 1]]
        let dictionaryError = try #require(throws: PropertyError.self) {
            try properties.decodeProperties(ServerConfig.self, forKey: "server")
        }
        #expect(dictionaryError.message == "expected a dictionary, found an array")
        #expect(dictionaryError.keyPath == "server")
        let arrayError = try #require(throws: PropertyError.self) {
            try properties.decodeProperties([Int].self, forKey: "list")
        }
        #expect(arrayError.message == "expected an array, found a dictionary")
    }
}
