import Assemblage
public import Foundation

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
/// implementations behave as they do with `JSONDecoder`. ``Properties/decodeProperties(_:forKey:)`` converts them to
/// ``PropertyError``.
struct PropertyValueDecoder: Decoder {
    let node: PropertyDecodingNode
    let context: PropertyLookupContext?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .dictionary(let entries)? = node.value {
            return KeyedDecodingContainer(
                PropertyKeyedContainer<Key>(
                    node: node, entries: entries, context: context, codingPath: codingPath))
        }
        if context?.canAnswer(node) == true {
            // What was loaded here (if anything) is hidden by a later source: the fields are asked one by one.
            return KeyedDecodingContainer(
                PropertyKeyedContainer<Key>(
                    node: node, entries: [:], context: context, codingPath: codingPath))
        }
        guard let value = node.value else { throw Self.missing([String: PropertyValue].self, codingPath: codingPath) }
        throw Self.typeMismatch(
            [String: PropertyValue].self, expected: "a dictionary", found: value,
            codingPath: codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if let context, context.canAnswer(node),
            let value = try context.lookUp(node, as: node.kindHint ?? .array(of: .any), codingPath: codingPath)
        {
            guard case .array(let elements) = value else {
                throw Self.typeMismatch(
                    [PropertyValue].self, expected: "an array", found: value,
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
    static func leafValue(
        _ node: PropertyDecodingNode, as kind: PropertyValueKind, context: PropertyLookupContext?,
        codingPath: [any CodingKey]
    ) throws -> PropertyValue? {
        if let context, let value = try context.lookUp(node, as: kind, codingPath: codingPath) { return value }
        return node.value
    }

    static func missing(_ type: Any.Type, codingPath: [any CodingKey]) -> DecodingError {
        .valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "required key is missing"))
    }

    static func typeMismatch(
        _ type: Any.Type, expected: String, found value: PropertyValue, codingPath: [any CodingKey]
    ) -> DecodingError {
        .typeMismatch(
            type,
            DecodingError.Context(
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
    var kindHint: PropertyValueKind? = nil

    /// A value that no source is asked about (an element of an array).
    static func loaded(_ value: PropertyValue) -> PropertyDecodingNode {
        PropertyDecodingNode(value: value, origin: nil, layer: .max, keyPath: nil)
    }

    func child(_ key: String) -> PropertyDecodingNode {
        let childOrigin = origin?.children[key]
        return PropertyDecodingNode(
            value: value?.dictionaryValue?[key], origin: childOrigin,
            layer: childOrigin?.origin?.layer ?? layer, keyPath: keyPath.map { $0 + [key] })
    }
}

/// The lookup sources of one `decodeProperties` call, and what they answered.
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
    func lookUp(
        _ node: PropertyDecodingNode, as kind: PropertyValueKind,
        codingPath: [any CodingKey]
    ) throws -> PropertyValue? {
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

/// The scalars that decode exactly as they are read (see ``PropertyRepresentable``): `Bool`, `String`, `Double`,
/// `Date` and `Data`.
protocol PropertyDecodingScalar: PropertyDecodingPrimitive, PropertyRepresentable {
    /// What a type mismatch says was expected: the type's name unless it says more.
    static var expectedDescription: String { get }
}

extension PropertyDecodingScalar {
    static var decodingKind: PropertyValueKind { propertyValueKind }
    static var expectedDescription: String { String(describing: Self.self) }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Self {
        guard let result = Self(propertyValue: value) else {
            throw PropertyValueDecoder.typeMismatch(
                Self.self, expected: expectedDescription, found: value, codingPath: codingPath)
        }
        return result
    }
}

extension Bool: PropertyDecodingScalar {}
extension String: PropertyDecodingScalar {}
extension Double: PropertyDecodingScalar {}

extension Date: PropertyDecodingScalar {
    static var expectedDescription: String { "Date (a date or an ISO 8601 string)" }
}

extension Data: PropertyDecodingScalar {
    static var expectedDescription: String { "Data (data or a Base64 string)" }
}

extension Float: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .double }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> Float {
        guard let double = value.doubleValue else {
            throw PropertyValueDecoder.typeMismatch(Float.self, expected: "Float", found: value, codingPath: codingPath)
        }
        let result = Float(double)
        guard result.isFinite else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
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
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
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

extension URL: PropertyDecodingPrimitive {
    static var decodingKind: PropertyValueKind { .string }

    static func decodeProperty(_ value: PropertyValue, codingPath: [any CodingKey]) throws -> URL {
        guard let text = value.stringValue else {
            throw PropertyValueDecoder.typeMismatch(
                URL.self, expected: "URL (a string)", found: value, codingPath: codingPath)
        }
        guard !text.isEmpty, let url = URL(string: text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
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
            throw PropertyValueDecoder.typeMismatch(
                Decimal.self, expected: "Decimal", found: value, codingPath: codingPath)
        }
        return result
    }
}
