import Assemblage
public import Foundation

/// A type that can be read from, and written as, a ``PropertyValue``.
///
/// ``Properties/property(_:as:)`` and ``Properties/requireProperty(_:as:)``
/// read any `PropertyRepresentable` type. The library conforms `Int`,
/// `Double`, `Bool`, `String`, `Date`, `Data`, ``PropertyValue`` itself, and
/// arrays and string-keyed dictionaries of conforming types. The conversion
/// rules are those of the ``PropertyValue`` accessors (for example a string
/// `"42"` reads as `Int` 42, a Boolean never reads as a number).
///
/// Conform your own types to read them directly:
///
/// ```swift
/// struct Port: PropertyRepresentable {
///     var number: Int
///     init?(propertyValue: PropertyValue) {
///         guard let number = propertyValue.intValue, (1...65_535).contains(number) else { return nil }
///         self.number = number
///     }
///     var propertyValue: PropertyValue { .integer(number) }
/// }
///
/// let port = properties.property("port", as: Port.self)
/// ```
public protocol PropertyRepresentable: Sendable {
    /// Creates an instance from a property value, or returns `nil` if the
    /// value cannot represent this type.
    ///
    /// Return `nil` rather than guessing: ``Properties/requireProperty(_:as:)``
    /// turns `nil` into a ``PropertyError`` with code
    /// `typeMismatch`.
    ///
    /// ```swift
    /// Int(propertyValue: .string("12")) // 12
    /// Int(propertyValue: .bool(true))   // nil
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    init?(propertyValue: PropertyValue)

    /// The property value that represents this instance.
    ///
    /// Reading the result back with ``init(propertyValue:)`` must give an
    /// equal instance.
    ///
    /// ```swift
    /// 8080.propertyValue // .integer(8080)
    /// ```
    var propertyValue: PropertyValue { get }

    /// The kind of value to ask a ``PropertySource`` for when reading this
    /// type.
    ///
    /// Sources that store typed values (swift-configuration's providers) look
    /// this kind up first. The default is ``PropertyValueKind/any``; the
    /// library's conformances return their own kind (`Int` returns
    /// ``PropertyValueKind/integer``).
    ///
    /// ```swift
    /// [String].propertyValueKind // .array(of: .string)
    /// ```
    static var propertyValueKind: PropertyValueKind { get }
}

extension PropertyRepresentable {
    /// ``PropertyValueKind/any``: a source answers with whatever it holds, and
    /// ``init(propertyValue:)`` converts it.
    ///
    /// ```swift
    /// Port.propertyValueKind // .any, unless Port says otherwise
    /// ```
    public static var propertyValueKind: PropertyValueKind { .any }
}

extension Int: PropertyRepresentable {
    /// Reads an `Int` using the rules of ``PropertyValue/intValue``.
    ///
    /// Integers, integral doubles that fit, and decimal integer strings read;
    /// Booleans never do.
    ///
    /// ```swift
    /// Int(propertyValue: .double(3.0)) // 3
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let value = propertyValue.intValue else { return nil }
        self = value
    }

    /// The value as ``PropertyValue/integer(_:)``.
    ///
    /// The conversion is lossless.
    ///
    /// ```swift
    /// 42.propertyValue // .integer(42)
    /// ```
    public var propertyValue: PropertyValue { .integer(self) }

    /// ``PropertyValueKind/integer``.
    ///
    /// ```swift
    /// Int.propertyValueKind // .integer
    /// ```
    public static var propertyValueKind: PropertyValueKind { .integer }
}

extension Double: PropertyRepresentable {
    /// Reads a `Double` using the rules of ``PropertyValue/doubleValue``.
    ///
    /// Doubles, exactly representable integers and finite decimal strings
    /// read; Booleans never do.
    ///
    /// ```swift
    /// Double(propertyValue: .integer(3)) // 3.0
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let value = propertyValue.doubleValue else { return nil }
        self = value
    }

    /// The value as ``PropertyValue/double(_:)``.
    ///
    /// The conversion is lossless.
    ///
    /// ```swift
    /// 0.5.propertyValue // .double(0.5)
    /// ```
    public var propertyValue: PropertyValue { .double(self) }

    /// ``PropertyValueKind/double``.
    ///
    /// ```swift
    /// Double.propertyValueKind // .double
    /// ```
    public static var propertyValueKind: PropertyValueKind { .double }
}

extension Bool: PropertyRepresentable {
    /// Reads a `Bool` using the rules of ``PropertyValue/boolValue``.
    ///
    /// Booleans and the strings `"true"`/`"false"` (any letter case) read;
    /// numbers never do.
    ///
    /// ```swift
    /// Bool(propertyValue: .string("False")) // false
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let value = propertyValue.boolValue else { return nil }
        self = value
    }

    /// The value as ``PropertyValue/bool(_:)``.
    ///
    /// The conversion is lossless.
    ///
    /// ```swift
    /// true.propertyValue // .bool(true)
    /// ```
    public var propertyValue: PropertyValue { .bool(self) }

    /// ``PropertyValueKind/bool``.
    ///
    /// ```swift
    /// Bool.propertyValueKind // .bool
    /// ```
    public static var propertyValueKind: PropertyValueKind { .bool }
}

extension String: PropertyRepresentable {
    /// Reads a `String` using the rules of ``PropertyValue/stringValue``.
    ///
    /// Only string values read; numbers and Booleans are not formatted.
    ///
    /// ```swift
    /// String(propertyValue: .string("api")) // "api"
    /// String(propertyValue: .integer(1))    // nil
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let value = propertyValue.stringValue else { return nil }
        self = value
    }

    /// The value as ``PropertyValue/string(_:)``.
    ///
    /// The conversion is lossless.
    ///
    /// ```swift
    /// "api".propertyValue // .string("api")
    /// ```
    public var propertyValue: PropertyValue { .string(self) }

    /// ``PropertyValueKind/string``.
    ///
    /// ```swift
    /// String.propertyValueKind // .string
    /// ```
    public static var propertyValueKind: PropertyValueKind { .string }
}

extension Date: PropertyRepresentable {
    /// Reads a `Date` using the rules of ``PropertyValue/dateValue``.
    ///
    /// Dates and ISO 8601 strings read; numbers never do.
    ///
    /// ```swift
    /// Date(propertyValue: .string("2024-05-01T12:00:00Z"))
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let value = propertyValue.dateValue else { return nil }
        self = value
    }

    /// The value as ``PropertyValue/date(_:)``.
    ///
    /// The conversion is lossless.
    ///
    /// ```swift
    /// Date(timeIntervalSince1970: 0).propertyValue // .date(...)
    /// ```
    public var propertyValue: PropertyValue { .date(self) }

    /// ``PropertyValueKind/date``.
    ///
    /// ```swift
    /// Date.propertyValueKind // .date
    /// ```
    public static var propertyValueKind: PropertyValueKind { .date }
}

extension Data: PropertyRepresentable {
    /// Reads `Data` using the rules of ``PropertyValue/dataValue``.
    ///
    /// Data values and Base64 strings read.
    ///
    /// ```swift
    /// Data(propertyValue: .string("AAEC"))?.count // 3
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let value = propertyValue.dataValue else { return nil }
        self = value
    }

    /// The value as ``PropertyValue/data(_:)``.
    ///
    /// The conversion is lossless.
    ///
    /// ```swift
    /// Data([1, 2]).propertyValue // .data(2 bytes)
    /// ```
    public var propertyValue: PropertyValue { .data(self) }

    /// ``PropertyValueKind/data``.
    ///
    /// ```swift
    /// Data.propertyValueKind // .data
    /// ```
    public static var propertyValueKind: PropertyValueKind { .data }
}

extension PropertyValue: PropertyRepresentable {
    /// Returns the value unchanged.
    ///
    /// This lets callers read a property without committing to a type.
    ///
    /// ```swift
    /// let raw = properties.property("server", as: PropertyValue.self)
    /// ```
    ///
    /// - Parameter propertyValue: The stored value.
    public init?(propertyValue: PropertyValue) {
        self = propertyValue
    }

    /// The value itself.
    ///
    /// The identity conversion; it exists so `PropertyValue` can be used wherever
    /// a ``PropertyRepresentable`` type is expected.
    ///
    /// ```swift
    /// PropertyValue.integer(1).propertyValue // .integer(1)
    /// ```
    public var propertyValue: PropertyValue { self }
}

extension Array: PropertyRepresentable where Element: PropertyRepresentable {
    /// Reads an array whose every element converts to `Element`.
    ///
    /// The value must be an ``PropertyValue/array(_:)``. If any element fails
    /// to convert, the whole read fails: there is no partial result.
    ///
    /// ```swift
    /// [Int](propertyValue: [1, "2"])  // [1, 2]
    /// [Int](propertyValue: [1, true]) // nil
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let elements = propertyValue.arrayValue else { return nil }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let converted = Element(propertyValue: element) else { return nil }
            result.append(converted)
        }
        self = result
    }

    /// The elements as a ``PropertyValue/array(_:)``.
    ///
    /// Each element converts through its own ``PropertyRepresentable/propertyValue``.
    ///
    /// ```swift
    /// [1, 2].propertyValue // .array([.integer(1), .integer(2)])
    /// ```
    public var propertyValue: PropertyValue { .array(map(\.propertyValue)) }

    /// ``PropertyValueKind/array(of:)`` of the element's kind.
    ///
    /// ```swift
    /// [Int].propertyValueKind // .array(of: .integer)
    /// ```
    public static var propertyValueKind: PropertyValueKind { .array(of: Element.propertyValueKind) }
}

extension Dictionary: PropertyRepresentable where Key == String, Value: PropertyRepresentable {
    /// Reads a dictionary whose every value converts to `Value`.
    ///
    /// The value must be a ``PropertyValue/dictionary(_:)``. If any entry
    /// fails to convert, the whole read fails.
    ///
    /// ```swift
    /// [String: Int](propertyValue: ["a": 1, "b": "2"]) // ["a": 1, "b": 2]
    /// ```
    ///
    /// - Parameter propertyValue: The stored value to convert.
    public init?(propertyValue: PropertyValue) {
        guard let entries = propertyValue.dictionaryValue else { return nil }
        var result: [String: Value] = [:]
        result.reserveCapacity(entries.count)
        for (key, entry) in entries {
            guard let converted = Value(propertyValue: entry) else { return nil }
            result[key] = converted
        }
        self = result
    }

    /// The entries as a ``PropertyValue/dictionary(_:)``.
    ///
    /// Each value converts through its own ``PropertyRepresentable/propertyValue``.
    ///
    /// ```swift
    /// ["a": 1].propertyValue // .dictionary(["a": .integer(1)])
    /// ```
    public var propertyValue: PropertyValue { .dictionary(mapValues(\.propertyValue)) }

    /// ``PropertyValueKind/dictionary``.
    ///
    /// ```swift
    /// [String: Int].propertyValueKind // .dictionary
    /// ```
    public static var propertyValueKind: PropertyValueKind { .dictionary }
}
