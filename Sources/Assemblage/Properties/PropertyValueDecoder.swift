import Foundation

/// A `Decoder` over the properties at one key path: the loaded ``PropertyValue`` there, and the
/// ``PropertySource``s that may answer for the keys under it.
///
/// Scalars convert with the same rules as the typed readers (a string `"42"` decodes as `Int`, a Boolean never
/// decodes as a number). `Date`, `Data`, `URL` and `Decimal` are decoded natively rather than through their
/// own `Decodable` implementations: dates from property-list dates or ISO 8601 strings, data from property-list
/// data or Base64, URLs and decimals from strings (decimals also from numbers).
///
/// With lookup sources, every scalar (and every array of scalars) is asked of the sources added after the
/// layer that loaded the value there, newest first, with the kind the field expects; the loaded value is used
/// when none answers. A dictionary is never asked for: its fields are, one by one. A dictionary that nothing
/// loaded is present when at least one of its fields is found; an optional one is `nil` otherwise.
///
/// Errors are standard `DecodingError`s with an accurate `codingPath`, so hand-written `init(from:)`
/// implementations behave as they do with `JSONDecoder`. ``Properties/decode(_:forKey:)`` converts them to
/// ``PropertyError``.
struct PropertyValueDecoder: Decoder {
    let node: PropertyDecodingNode
    let context: PropertyLookupContext?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .dictionary(let entries)? = node.value {
            return KeyedDecodingContainer(PropertyKeyedContainer<Key>(
                node: node, entries: entries, context: context, codingPath: codingPath))
        }
        if context?.canAnswer(node) == true {
            // What was loaded here (if anything) is hidden by a later source: the fields are asked one by one.
            return KeyedDecodingContainer(PropertyKeyedContainer<Key>(
                node: node, entries: [:], context: context, codingPath: codingPath))
        }
        guard let value = node.value else { throw Self.missing([String: PropertyValue].self, codingPath: codingPath) }
        throw Self.typeMismatch([String: PropertyValue].self, expected: "a dictionary", found: value,
                                codingPath: codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if let context, context.canAnswer(node),
           let value = try context.lookUp(node, as: node.kindHint ?? .array(of: .any), codingPath: codingPath) {
            guard case .array(let elements) = value else {
                throw Self.typeMismatch([PropertyValue].self, expected: "an array", found: value,
                                        codingPath: codingPath)
            }
            return PropertyUnkeyedContainer(elements: elements, context: context, codingPath: codingPath)
        }
        guard let value = node.value else { throw Self.missing([PropertyValue].self, codingPath: codingPath) }
        guard case .array(let elements) = value else {
            throw Self.typeMismatch([PropertyValue].self, expected: "an array", found: value, codingPath: codingPath)
        }
        return PropertyUnkeyedContainer(elements: elements, context: context, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PropertySingleValueContainer(node: node, context: context, codingPath: codingPath)
    }

    // MARK: Shared helpers

    /// Decodes `type` at `node`, handling primitives natively; `nil` when nothing is there.
    static func unboxIfPresent<T: Decodable>(
        _ type: T.Type, from node: PropertyDecodingNode, context: PropertyLookupContext?, codingPath: [any CodingKey]
    ) throws -> T? {
        if let primitive = type as? any PropertyDecodingPrimitive.Type {
            guard let value = try leafValue(node, as: primitive.decodingKind, context: context, codingPath: codingPath)
            else { return nil }
            // The cast cannot fail: `primitive` is `T.self`.
            let result = try primitive.decodeProperty(value, codingPath: codingPath) as! T
            return result
        }
        var node = node
        node.kindHint = (type as? any PropertyDecodingKindHinting.Type)?.decodingKind
        let isVirtual = node.value == nil
        if isVirtual, context?.canAnswer(node) != true { return nil }
        let foundBefore = context?.found ?? 0
        // A dictionary that nothing loaded exists only if a source answered for something in it.
        var foundNothing: Bool { isVirtual && context?.found == foundBefore }
        let result: T
        do {
            result = try T(from: PropertyValueDecoder(node: node, context: context, codingPath: codingPath))
        } catch let error as DecodingError {
            if foundNothing { return nil }
            throw error
        } catch let error as PropertyDecodingUnderlyingError {
            throw error
        } catch let error as PropertySourceReadError {
            throw error
        } catch {
            if foundNothing { return nil }
            // Remember where a type's own validation failed; the innermost
            // wrapper wins because outer levels rethrow it unchanged.
            throw PropertyDecodingUnderlyingError(
                path: PropertyValueDecoder.pathComponents(codingPath), underlying: error)
        }
        return foundNothing ? nil : result
    }

    /// The scalar at `node`: a later source's answer, else the loaded value.
    static func leafValue(_ node: PropertyDecodingNode, as kind: PropertyValueKind, context: PropertyLookupContext?,
                          codingPath: [any CodingKey]) throws -> PropertyValue? {
        if let context, let value = try context.lookUp(node, as: kind, codingPath: codingPath) { return value }
        return node.value
    }

    static func missing(_ type: Any.Type, codingPath: [any CodingKey]) -> DecodingError {
        .valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "required key is missing"))
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

/// Where a decoder stands.
struct PropertyDecodingNode {
    /// The loaded value here, or `nil`.
    var value: PropertyValue?
    /// The origin subtree here, when there is one.
    var origin: PropertyOriginNode?
    /// The layer of the deepest origin at or above: sources added after it are asked first.
    var layer: Int
    /// The key path sources are asked with; `nil` where they are not asked (inside arrays).
    var keyPath: [String]?
    /// The kind of array expected here, when the decoded type says (`[String]`).
    var kindHint: PropertyValueKind?

    init(value: PropertyValue?, origin: PropertyOriginNode?, layer: Int, keyPath: [String]?) {
        self.value = value
        self.origin = origin
        self.layer = layer
        self.keyPath = keyPath
    }

    /// A value that no source is asked about (an element of an array).
    static func loaded(_ value: PropertyValue) -> PropertyDecodingNode {
        PropertyDecodingNode(value: value, origin: nil, layer: .max, keyPath: nil)
    }

    func child(_ key: String) -> PropertyDecodingNode {
        let childOrigin = origin?.children[key]
        return PropertyDecodingNode(value: value?.dictionaryValue?[key], origin: childOrigin,
                                    layer: childOrigin?.origin?.layer ?? layer, keyPath: keyPath.map { $0 + [key] })
    }
}

/// The lookup sources of one `decode` call, and what they answered.
///
/// A class, because the containers of one decode share it; it never leaves the call (and so the thread).
final class PropertyLookupContext {
    let layers: [PropertySourceLayer]
    private let newestLayer: Int
    /// How many values sources have supplied so far.
    private(set) var found = 0
    /// Which source supplied the value at a path, for errors.
    private(set) var suppliers: [[PropertyPathComponent]: String] = [:]

    init(layers: [PropertySourceLayer]) {
        self.layers = layers
        self.newestLayer = layers.map(\.layer).max() ?? 0
    }

    /// Whether a source may answer at `node`.
    func canAnswer(_ node: PropertyDecodingNode) -> Bool {
        guard let keyPath = node.keyPath, !keyPath.isEmpty else { return false }
        return newestLayer > node.layer
    }

    /// Asks the sources added after `node`'s layer, newest first.
    func lookUp(_ node: PropertyDecodingNode, as kind: PropertyValueKind,
                codingPath: [any CodingKey]) throws -> PropertyValue? {
        guard canAnswer(node), let keyPath = node.keyPath else { return nil }
        let answer: (value: PropertyValue, source: String)?
        do {
            answer = try Properties.lookUp(keyPath, as: kind, in: layers, after: node.layer)
        } catch let error as PropertyError {
            throw PropertySourceReadError(error: error)
        }
        guard let answer else { return nil }
        found += 1
        suppliers[PropertyValueDecoder.pathComponents(codingPath)] = answer.source
        return answer.value
    }
}

/// A source's error while decoding, passed through unchanged.
struct PropertySourceReadError: Error {
    let error: PropertyError
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
    let node: PropertyDecodingNode
    let entries: [String: PropertyValue]
    let context: PropertyLookupContext?
    let codingPath: [any CodingKey]

    /// The loaded keys: sources cannot list theirs.
    var allKeys: [Key] { entries.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        if entries[key.stringValue] != nil { return true }
        guard let context else { return false }
        return (try? context.lookUp(node.child(key.stringValue), as: .any, codingPath: codingPath + [key])) != nil
    }

    private func missing(_ key: any CodingKey) -> DecodingError {
        DecodingError.keyNotFound(key, DecodingError.Context(
            codingPath: codingPath, debugDescription: "required key is missing"))
    }

    /// The node of `key`, or an error when nothing can be there.
    private func childNode(_ key: any CodingKey) throws -> PropertyDecodingNode {
        let child = node.child(key.stringValue)
        guard child.value != nil || context?.canAnswer(child) == true else { throw missing(key) }
        return child
    }

    private func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = try decodeValueIfPresent(type, forKey: key) else { throw missing(key) }
        return value
    }

    private func decodeValueIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try PropertyValueDecoder.unboxIfPresent(type, from: node.child(key.stringValue), context: context,
                                                codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        // Properties have no null: a present key is never nil.
        _ = try childNode(key)
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

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeValueIfPresent(type, forKey: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decodeValueIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try PropertyValueDecoder(node: childNode(key), context: context, codingPath: codingPath + [key])
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try PropertyValueDecoder(node: childNode(key), context: context, codingPath: codingPath + [key])
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = PropertyStringKey("super")
        return PropertyValueDecoder(node: try childNode(key), context: context, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        PropertyValueDecoder(node: try childNode(key), context: context, codingPath: codingPath + [key])
    }
}

// MARK: - Unkeyed container

struct PropertyUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [PropertyValue]
    let context: PropertyLookupContext?
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [PropertyValue], context: PropertyLookupContext?, codingPath: [any CodingKey]) {
        self.elements = elements
        self.context = context
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
        // An element is always there: sources are not asked inside arrays.
        guard let result = try PropertyValueDecoder.unboxIfPresent(type, from: .loaded(value), context: context,
                                                                   codingPath: path)
        else { throw PropertyValueDecoder.missing(type, codingPath: path) }
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
        let container = try PropertyValueDecoder(node: .loaded(value), context: context, codingPath: path)
            .container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try nextValue((any UnkeyedDecodingContainer).self)
        let container = try PropertyValueDecoder(node: .loaded(value), context: context, codingPath: path)
            .unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try nextValue((any Decoder).self)
        currentIndex += 1
        return PropertyValueDecoder(node: .loaded(value), context: context, codingPath: path)
    }
}

// MARK: - Single value container

struct PropertySingleValueContainer: SingleValueDecodingContainer {
    let node: PropertyDecodingNode
    let context: PropertyLookupContext?
    let codingPath: [any CodingKey]

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        guard let result = try PropertyValueDecoder.unboxIfPresent(type, from: node, context: context,
                                                                   codingPath: codingPath)
        else { throw PropertyValueDecoder.missing(type, codingPath: codingPath) }
        return result
    }

    func decodeNil() -> Bool {
        // Properties have no null: only a value that neither a loader nor a source has is nil.
        guard node.value == nil else { return false }
        return (try? context?.lookUp(node, as: .any, codingPath: codingPath)) == nil
    }

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

/// Types that tell a decoder which kind of value to ask lookup sources for.
protocol PropertyDecodingKindHinting {
    static var decodingKind: PropertyValueKind { get }
}

/// Arrays of scalars are asked for whole (`[String]` as `.array(of: .string)`).
extension Array: PropertyDecodingKindHinting where Element: PropertyDecodingKindHinting {
    static var decodingKind: PropertyValueKind { .array(of: Element.decodingKind) }
}

/// Types decoded directly from a ``PropertyValue`` instead of through their
/// own `init(from:)`.
protocol PropertyDecodingPrimitive: PropertyDecodingKindHinting {
    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Self
}

extension Bool: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .bool }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Bool {
        guard let result = value.boolValue else {
            throw PropertyValueDecoder.typeMismatch(Bool.self, expected: "Bool", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension String: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .string }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> String {
        guard let result = value.stringValue else {
            throw PropertyValueDecoder.typeMismatch(String.self, expected: "String", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension Double: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .double }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Double {
        guard let result = value.doubleValue else {
            throw PropertyValueDecoder.typeMismatch(Double.self, expected: "Double", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension Float: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .double }

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
    static var decodingKind: PropertyValueKind { .integer }

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
    static var decodingKind: PropertyValueKind { .date }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Date {
        guard let result = value.dateValue else {
            throw PropertyValueDecoder.typeMismatch(
                Date.self, expected: "Date (a date or an ISO 8601 string)", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension Data: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .data }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Data {
        guard let result = value.dataValue else {
            throw PropertyValueDecoder.typeMismatch(
                Data.self, expected: "Data (data or a Base64 string)", found: value, codingPath: codingPath)
        }
        return result
    }
}

extension URL: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .string }

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
    static var decodingKind: PropertyValueKind { .double }

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
