import Foundation

/// A `Decoder` over ``PropertyValue``.
///
/// Scalars convert with the same rules as the typed readers (a string `"42"`
/// decodes as `Int`, a Boolean never decodes as a number). `Date`, `Data`,
/// `URL` and `Decimal` are decoded natively rather than through their own
/// `Decodable` implementations: dates from property-list dates or ISO 8601
/// strings, data from property-list data or Base64, URLs and decimals from
/// strings (decimals also from numbers).
///
/// Errors are standard `DecodingError`s with an accurate `codingPath`, so
/// hand-written `init(from:)` implementations behave as they do with
/// `JSONDecoder`. ``Properties/decode(_:forKey:)`` converts them to
/// ``PropertyError``.
struct PropertyValueDecoder: Decoder {
    let value: PropertyValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let entries) = value else {
            throw Self.typeMismatch([String: PropertyValue].self, expected: "a dictionary", found: value,
                                    codingPath: codingPath)
        }
        return KeyedDecodingContainer(PropertyKeyedContainer<Key>(entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw Self.typeMismatch([PropertyValue].self, expected: "an array", found: value,
                                    codingPath: codingPath)
        }
        return PropertyUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PropertySingleValueContainer(value: value, codingPath: codingPath)
    }

    // MARK: Shared helpers

    /// Decodes `type` from `value`, handling primitives natively.
    static func unbox<T: Decodable>(_ type: T.Type, from value: PropertyValue, codingPath: [any CodingKey]) throws -> T {
        if let primitive = type as? any PropertyDecodingPrimitive.Type {
            // The cast cannot fail: `primitive` is `T.self`.
            return try primitive.decodeProperty(value, codingPath: codingPath) as! T
        }
        do {
            return try T(from: PropertyValueDecoder(value: value, codingPath: codingPath))
        } catch let error as DecodingError {
            throw error
        } catch let error as PropertyDecodingUnderlyingError {
            throw error
        } catch {
            // Remember where a type's own validation failed; the innermost
            // wrapper wins because outer levels rethrow it unchanged.
            throw PropertyDecodingUnderlyingError(
                path: PropertyValueDecoder.pathComponents(codingPath), underlying: error)
        }
    }

    static func typeMismatch(
        _ type: Any.Type, expected: String, found value: PropertyValue, codingPath: [any CodingKey]
    ) -> DecodingError {
        .typeMismatch(type, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: PropertyValue.mismatchMessage(expected: expected, found: value)))
    }

    static func pathComponents(_ codingPath: [any CodingKey]) -> [PropertyPathComponent] {
        codingPath.map { key in
            if let index = key as? PropertyIndexKey { return .index(index.index) }
            return .key(key.stringValue)
        }
    }
}

/// Carries a non-`DecodingError` thrown by a `Decodable` initializer,
/// together with the path where it was thrown.
struct PropertyDecodingUnderlyingError: Error {
    let path: [PropertyPathComponent]
    let underlying: any Error
}

/// The coding key of an array element.
struct PropertyIndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }

    init(index: Int) { self.index = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.index = intValue }
}

/// A plain string coding key, used for `super`.
struct PropertyStringKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

// MARK: - Keyed container

struct PropertyKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [String: PropertyValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { entries.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func value(for key: any CodingKey) throws -> PropertyValue {
        guard let value = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "required key is missing"))
        }
        return value
    }

    private func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try PropertyValueDecoder.unbox(type, from: value(for: key), codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        // Properties have no null: a present key is never nil. A missing key
        // is reported by `decodeIfPresent` via `contains` before this call.
        _ = try value(for: key)
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try PropertyValueDecoder(value: value(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try PropertyValueDecoder(value: value(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = PropertyStringKey("super")
        return PropertyValueDecoder(value: try value(for: key), codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        PropertyValueDecoder(value: try value(for: key), codingPath: codingPath + [key])
    }
}

// MARK: - Unkeyed container

struct PropertyUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [PropertyValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [PropertyValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func nextValue(_ type: Any.Type) throws -> (PropertyValue, [any CodingKey]) {
        let path = codingPath + [PropertyIndexKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
        }
        return (elements[currentIndex], path)
    }

    private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try nextValue(type)
        let result = try PropertyValueDecoder.unbox(type, from: value, codingPath: path)
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        _ = try nextValue(Never.self)
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try nextValue(KeyedDecodingContainer<NestedKey>.self)
        let container = try PropertyValueDecoder(value: value, codingPath: path).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try nextValue((any UnkeyedDecodingContainer).self)
        let container = try PropertyValueDecoder(value: value, codingPath: path).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try nextValue((any Decoder).self)
        currentIndex += 1
        return PropertyValueDecoder(value: value, codingPath: path)
    }
}

// MARK: - Single value container

struct PropertySingleValueContainer: SingleValueDecodingContainer {
    let value: PropertyValue
    let codingPath: [any CodingKey]

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        try PropertyValueDecoder.unbox(type, from: value, codingPath: codingPath)
    }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

// MARK: - Primitives

/// Types decoded directly from a ``PropertyValue`` instead of through their
/// own `init(from:)`.
protocol PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Self
}

extension Bool: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Bool {
        guard let result = value.boolValue else {
            throw PropertyValueDecoder.typeMismatch(Bool.self, expected: "Bool", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension String: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> String {
        guard let result = value.stringValue else {
            throw PropertyValueDecoder.typeMismatch(String.self, expected: "String", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension Double: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Double {
        guard let result = value.doubleValue else {
            throw PropertyValueDecoder.typeMismatch(Double.self, expected: "Double", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension Float: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Float {
        guard let double = value.doubleValue else {
            throw PropertyValueDecoder.typeMismatch(Float.self, expected: "Float", found: value, codingPath: codingPath)
        }
        let result = Float(double)
        guard result.isFinite else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "number does not fit in Float"))
        }
        return result
    }
}

/// Integer decoding: exact conversions only.
protocol PropertyDecodingInteger: PropertyDecodingPrimitive, FixedWidthInteger {}

extension PropertyDecodingInteger {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Self {
        let result: Self?
        switch value {
        case .integer(let integer):
            result = Self(exactly: integer)
        case .double(let double) where double.rounded(.towardZero) == double:
            result = Self(exactly: double)
        case .string(let text) where Self.isIntegerLiteral(text):
            result = Self(text)
        default:
            throw PropertyValueDecoder.typeMismatch(
                Self.self, expected: String(describing: Self.self), found: value, codingPath: codingPath)
        }
        guard let result else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "number does not fit in \(Self.self)"))
        }
        return result
    }

    private static func isIntegerLiteral(_ text: String) -> Bool {
        var digits = Substring(text)
        if let first = digits.first, first == "+" || first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

extension Int: PropertyDecodingInteger {}
extension Int8: PropertyDecodingInteger {}
extension Int16: PropertyDecodingInteger {}
extension Int32: PropertyDecodingInteger {}
extension Int64: PropertyDecodingInteger {}
extension UInt: PropertyDecodingInteger {}
extension UInt8: PropertyDecodingInteger {}
extension UInt16: PropertyDecodingInteger {}
extension UInt32: PropertyDecodingInteger {}
extension UInt64: PropertyDecodingInteger {}

extension Date: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Date {
        guard let result = value.dateValue else {
            throw PropertyValueDecoder.typeMismatch(
                Date.self, expected: "Date (a date or an ISO 8601 string)", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension Data: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Data {
        guard let result = value.dataValue else {
            throw PropertyValueDecoder.typeMismatch(
                Data.self, expected: "Data (data or a Base64 string)", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension URL: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> URL {
        guard let text = value.stringValue else {
            throw PropertyValueDecoder.typeMismatch(URL.self, expected: "URL (a string)", found: value, codingPath: codingPath)
        }
        guard !text.isEmpty, let url = URL(string: text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "the string is not a valid URL"))
        }
        return url
    }
}

extension Decimal: PropertyDecodingPrimitive {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Decimal {
        let text: String?
        switch value {
        case .integer(let integer): text = String(integer)
        case .double(let double): text = String(double)
        case .string(let string): text = PropertyValue.parseDouble(string) != nil ? string : nil
        default: text = nil
        }
        guard let text, let result = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw PropertyValueDecoder.typeMismatch(Decimal.self, expected: "Decimal", found: value, codingPath: codingPath)
        }
        return result
    }
}
