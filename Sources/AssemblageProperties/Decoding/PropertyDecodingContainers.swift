import Assemblage

// The three decoding containers of ``PropertyValueDecoder``: keyed (a dictionary, whose fields lookup sources may
// answer one by one), unkeyed (an array, whose elements are always loaded values) and single-value.

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
        DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "required key is missing"))
    }

    /// The node of `key`, or an error when nothing can be there.
    private func childNode(_ key: any CodingKey) throws -> PropertyDecodingNode {
        let child = node.child(key.stringValue)
        guard child.value != nil || context?.canAnswer(child) == true else { throw missing(key) }
        return child
    }

    private func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        guard let value = try optional(type, key) else { throw missing(key) }
        return value
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try PropertyValueDecoder.unboxIfPresent(
            type, from: node.child(key.stringValue), context: context,
            codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        // Properties have no null: a present key is never nil.
        _ = try childNode(key)
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }

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
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
        }
        return (elements[currentIndex], path)
    }

    private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try nextValue(type)
        // An element is always there: sources are not asked inside arrays.
        guard
            let result = try PropertyValueDecoder.unboxIfPresent(
                type, from: .loaded(value), context: context,
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
        guard
            let result = try PropertyValueDecoder.unboxIfPresent(
                type, from: node, context: context,
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
