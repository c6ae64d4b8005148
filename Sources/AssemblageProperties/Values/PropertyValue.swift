import Assemblage
public import Foundation

/// A single configuration value loaded from a property source.
///
/// `PropertyValue` is the common currency of the property layer: every
/// ``PropertyLoader`` produces a `[String: PropertyValue]` dictionary, and
/// ``Properties`` stores and reads values of this type. The cases mirror what
/// JSON files, property lists and environment variables can express.
///
/// Equality is structural: `.integer(3)` and `.double(3)` are different
/// values. Reading, however, is tolerant in a few documented ways (see the
/// accessors such as ``intValue`` and ``doubleValue``):
///
/// | Stored value           | Reads as                                             |
/// |------------------------|------------------------------------------------------|
/// | `.integer(3)`          | `Int` 3, `Double` 3.0 (only when exact)              |
/// | `.double(3.0)`         | `Double` 3.0, `Int` 3 (integral and in range only)   |
/// | `.double(3.5)`         | `Double` 3.5, never `Int`                            |
/// | `.bool(true)`          | `Bool` only; never `Int` or `Double`                 |
/// | `.string("42")`        | `String`, and also `Int` 42 / `Double` 42.0          |
/// | `.string("true")`      | `String`, and also `Bool` (case-insensitive)         |
/// | `.string(iso8601)`     | `String`, and also `Date`                            |
/// | `.string(base64)`      | `String`, and also `Data`                            |
///
/// Strings convert because environment variables (and other text sources)
/// have no types; the conversion applies regardless of which loader produced
/// the string, so an environment override of a JSON number still reads as a
/// number. Nothing converts *to* a string: a number never reads as `String`.
///
/// ```swift
/// let port: PropertyValue = 8080
/// port.intValue      // 8080
/// port.doubleValue   // 8080.0
/// port.stringValue   // nil
///
/// let fromEnvironment = PropertyValue.string("8080")
/// fromEnvironment.intValue  // 8080
/// ```
public enum PropertyValue: Sendable, Hashable {
    /// A text value.
    ///
    /// Strings are the only values that convert to other scalar types when
    /// read: see ``intValue``, ``doubleValue``, ``boolValue``, ``dateValue``
    /// and ``dataValue`` for the exact rules.
    ///
    /// ```swift
    /// let name = PropertyValue.string("api")
    /// name.stringValue // "api"
    /// ```
    case string(String)

    /// A whole number that fits in `Int`.
    ///
    /// JSON numbers written without a fraction or exponent load as this case.
    /// An integer also reads as `Double` when the conversion is exact.
    ///
    /// ```swift
    /// let retries = PropertyValue.integer(3)
    /// retries.doubleValue // 3.0
    /// ```
    case integer(Int)

    /// A finite floating-point number.
    ///
    /// JSON numbers with a fraction or exponent, integer literals too large
    /// for `Int`, and property-list `<real>` values load as this case. Loaders
    /// reject infinities and NaN. A double reads as `Int` only when it is
    /// integral and in range.
    ///
    /// ```swift
    /// PropertyValue.double(2.0).intValue // 2
    /// PropertyValue.double(2.5).intValue // nil
    /// ```
    case double(Double)

    /// A Boolean value.
    ///
    /// Booleans are never numbers: `.bool(true)` does not read as `Int` 1.
    ///
    /// ```swift
    /// let verbose = PropertyValue.bool(true)
    /// verbose.intValue // nil
    /// ```
    case bool(Bool)

    /// A point in time.
    ///
    /// Property lists have a native date type. JSON and environment variables
    /// provide dates as ISO 8601 strings, which read as `Date` on demand.
    ///
    /// ```swift
    /// let epoch = PropertyValue.date(Date(timeIntervalSince1970: 0))
    /// epoch.dateValue // 1970-01-01 00:00:00 +0000
    /// ```
    case date(Date)

    /// Raw bytes.
    ///
    /// Property lists have a native data type. JSON and environment variables
    /// provide data as Base64 strings, which read as `Data` on demand.
    ///
    /// ```swift
    /// let key = PropertyValue.data(Data([0xCA, 0xFE]))
    /// key.dataValue?.count // 2
    /// ```
    case data(Data)

    /// An ordered list of values.
    ///
    /// Arrays are replaced whole when properties merge; they are never
    /// concatenated.
    ///
    /// ```swift
    /// let hosts: PropertyValue = ["a.example", "b.example"]
    /// hosts.arrayValue?.count // 2
    /// ```
    case array([PropertyValue])

    /// A string-keyed collection of values.
    ///
    /// Nested dictionaries are replaced whole when properties merge; only
    /// top-level keys of a loader merge individually.
    ///
    /// ```swift
    /// let server: PropertyValue = ["host": "localhost", "port": 8080]
    /// server.dictionaryValue?["port"] // .integer(8080)
    /// ```
    case dictionary([String: PropertyValue])
}

// MARK: - Typed accessors

extension PropertyValue {
    /// The value as a string, if it is a ``string(_:)``.
    ///
    /// No other case converts to a string: numbers, Booleans and dates are
    /// not formatted, because there is no single obviously right format.
    ///
    /// ```swift
    /// PropertyValue.string("x").stringValue // "x"
    /// PropertyValue.integer(1).stringValue  // nil
    /// ```
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The value as an `Int`, if it represents one exactly.
    ///
    /// Rules:
    /// - ``integer(_:)`` reads as itself.
    /// - ``double(_:)`` reads only if it is integral and fits in `Int`
    ///   (`3.0` reads as 3, `3.5` does not).
    /// - ``string(_:)`` reads if the whole string is a decimal integer
    ///   literal with an optional leading `+` or `-` and no whitespace
    ///   (`"42"`, `"-7"`); `"4.0"`, `" 42"` and `"0x2A"` do not.
    /// - ``bool(_:)`` and every other case never read as `Int`.
    ///
    /// ```swift
    /// PropertyValue.string("42").intValue // 42
    /// PropertyValue.bool(true).intValue   // nil
    /// ```
    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .double(let value): return Int(exactly: value)
        case .string(let text): return PropertyValue.parseInteger(text)
        default: return nil
        }
    }

    /// The value as a `Double`, if it represents one exactly.
    ///
    /// Rules:
    /// - ``double(_:)`` reads as itself.
    /// - ``integer(_:)`` reads if `Double` represents it exactly (every
    ///   integer up to 2^53 in magnitude does).
    /// - ``string(_:)`` reads if the whole string is a finite decimal number
    ///   such as `"2.5"`, `"-1e3"` or `"42"`; `"inf"`, `"nan"`, hexadecimal
    ///   and strings with whitespace do not.
    /// - ``bool(_:)`` and every other case never read as `Double`.
    ///
    /// ```swift
    /// PropertyValue.integer(3).doubleValue    // 3.0
    /// PropertyValue.string("0.25").doubleValue // 0.25
    /// ```
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .integer(let value): return Double(exactly: value)
        case .string(let text): return PropertyValue.parseDouble(text)
        default: return nil
        }
    }

    /// The value as a `Bool`, if it is one.
    ///
    /// ``bool(_:)`` reads as itself, and ``string(_:)`` reads if it is
    /// `"true"` or `"false"` in any letter case. Numbers never read as
    /// Booleans, and `"1"`, `"yes"` or `"on"` are not accepted.
    ///
    /// ```swift
    /// PropertyValue.string("TRUE").boolValue // true
    /// PropertyValue.integer(1).boolValue     // nil
    /// ```
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): return value
        case .string(let text):
            switch text.lowercased() {
            case "true": return true
            case "false": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// The value as a `Date`, if it is one.
    ///
    /// ``date(_:)`` reads as itself, and ``string(_:)`` reads if it is an
    /// ISO 8601 internet date-time, with or without fractional seconds
    /// (`"2024-05-01T12:00:00Z"`, `"2024-05-01T12:00:00.250+02:00"`).
    /// Numbers never read as dates, because the epoch and unit would be a
    /// guess.
    ///
    /// ```swift
    /// PropertyValue.string("1970-01-01T00:00:00Z").dateValue
    /// // 1970-01-01 00:00:00 +0000
    /// ```
    public var dateValue: Date? {
        switch self {
        case .date(let value): return value
        case .string(let text): return PropertyValue.parseDate(text)
        default: return nil
        }
    }

    /// The value as `Data`, if it is some.
    ///
    /// ``data(_:)`` reads as itself, and ``string(_:)`` reads if it is valid,
    /// padded Base64 without whitespace.
    ///
    /// ```swift
    /// PropertyValue.string("AAEC").dataValue // 3 bytes
    /// ```
    public var dataValue: Data? {
        switch self {
        case .data(let value): return value
        case .string(let text): return Data(base64Encoded: text)
        default: return nil
        }
    }

    /// The elements, if the value is an ``array(_:)``.
    ///
    /// Strings are not split into arrays.
    ///
    /// ```swift
    /// let list: PropertyValue = [1, 2]
    /// list.arrayValue // [.integer(1), .integer(2)]
    /// ```
    public var arrayValue: [PropertyValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries, if the value is a ``dictionary(_:)``.
    ///
    /// No other case converts to a dictionary. Keys are top-level names within
    /// the nested dictionary; dots in keys have no special meaning.
    ///
    /// ```swift
    /// let server: PropertyValue = ["port": 80]
    /// server.dictionaryValue?["port"] // .integer(80)
    /// ```
    public var dictionaryValue: [String: PropertyValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    /// A short, lower-case name of the case, used in error messages.
    var kindName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .double: return "floating-point number"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }

    /// The kind name with an indefinite article ("an integer", "a string").
    var kindNameWithArticle: String {
        switch self {
        case .integer, .array: return "an \(kindName)"
        default: return "a \(kindName)"
        }
    }

    /// "expected Int, found a bool" / "... found a string that does not convert to Int".
    static func mismatchMessage(expected: String, found value: PropertyValue) -> String {
        if case .string = value {
            return "expected \(expected), found a string that does not convert to it"
        }
        return "expected \(expected), found \(value.kindNameWithArticle)"
    }

    static func parseInteger(_ text: String) -> Int? {
        // `Int.init(_:)` accepts exactly an optional sign followed by decimal
        // digits, which is the documented rule.
        Int(text)
    }

    static func parseDouble(_ text: String) -> Double? {
        guard !text.isEmpty,
            text.utf8.allSatisfy({ byte in
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                    || byte == UInt8(ascii: "E")
            }),
            text.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    static func parseDate(_ text: String) -> Date? {
        // Formatters are created per call: they are not Sendable, and date
        // reads are rare enough that caching is not worth shared mutable state.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    static func formatDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

// MARK: - Description

extension PropertyValue: CustomStringConvertible {
    /// A compact, JSON-like rendering of the value.
    ///
    /// Strings are quoted and escaped, dates are ISO 8601, data shows only
    /// its size, and dictionary keys are sorted so the output is stable.
    ///
    /// ```swift
    /// let value: PropertyValue = ["port": 80, "hosts": ["a"]]
    /// print(value) // {"hosts": ["a"], "port": 80}
    /// ```
    public var description: String {
        var output = ""
        PropertyValue.render(self, into: &output)
        return output
    }

    private static func render(_ value: PropertyValue, into output: inout String) {
        switch value {
        case .string(let text):
            output += text.jsonStringLiteral
        case .integer(let number):
            output += String(number)
        case .double(let number):
            output += String(number)
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .date(let date):
            output += formatDate(date)
        case .data(let bytes):
            output += "<\(bytes.count) bytes>"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += ", " }
                render(element, into: &output)
            }
            output += "]"
        case .dictionary(let entries):
            output += "{"
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { output += ", " }
                output += key.jsonStringLiteral
                output += ": "
                if let element = entries[key] { render(element, into: &output) }
            }
            output += "}"
        }
    }
}

// MARK: - Literals

extension PropertyValue: ExpressibleByStringLiteral {
    /// Creates a ``string(_:)`` value from a string literal.
    ///
    /// ```swift
    /// let host: PropertyValue = "localhost" // .string("localhost")
    /// ```
    ///
    /// - Parameter value: The literal text.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension PropertyValue: ExpressibleByIntegerLiteral {
    /// Creates an ``integer(_:)`` value from an integer literal.
    ///
    /// ```swift
    /// let port: PropertyValue = 8080 // .integer(8080)
    /// ```
    ///
    /// - Parameter value: The literal number.
    public init(integerLiteral value: Int) {
        self = .integer(value)
    }
}

extension PropertyValue: ExpressibleByFloatLiteral {
    /// Creates a ``double(_:)`` value from a floating-point literal.
    ///
    /// ```swift
    /// let ratio: PropertyValue = 0.75 // .double(0.75)
    /// ```
    ///
    /// - Parameter value: The literal number.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
    /// Creates a ``bool(_:)`` value from a Boolean literal.
    ///
    /// ```swift
    /// let verbose: PropertyValue = true // .bool(true)
    /// ```
    ///
    /// - Parameter value: The literal Boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension PropertyValue: ExpressibleByArrayLiteral {
    /// Creates an ``array(_:)`` value from an array literal.
    ///
    /// ```swift
    /// let hosts: PropertyValue = ["a", "b"] // .array([.string("a"), .string("b")])
    /// ```
    ///
    /// - Parameter elements: The literal elements, in order.
    public init(arrayLiteral elements: PropertyValue...) {
        self = .array(elements)
    }
}

extension PropertyValue: ExpressibleByDictionaryLiteral {
    /// Creates a ``dictionary(_:)`` value from a dictionary literal.
    ///
    /// Unlike `Dictionary`, a repeated key does not trap: the last
    /// occurrence wins, matching how later loaders override earlier ones.
    ///
    /// ```swift
    /// let server: PropertyValue = ["host": "localhost", "port": 8080]
    /// ```
    ///
    /// - Parameter elements: The literal key-value pairs.
    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
