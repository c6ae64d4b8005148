import Assemblage

/// The kind of value a reader of properties expects: what a ``PropertySource`` is asked for.
///
/// A source that stores typed values (swift-configuration's providers ask for a type with every lookup) uses
/// the kind to choose what to look up first; a source of untyped text can ignore it. Whatever a source returns
/// is then converted with the rules of ``PropertyValue``, so a source may answer with a value of another kind
/// (a string `"8080"` for an `.integer` request reads as `Int` 8080; a Boolean for an `.integer` request is
/// reported as a type mismatch that names the key and the source).
///
/// Kinds are open-ended constants rather than an enum, like ``PropertyError/Code``: compare them with `==` or
/// match them in a `switch` with a `default` branch.
///
/// ```swift
/// func value(atKeyPath keyPath: [String], as kind: PropertyValueKind) throws -> PropertyValue? {
///     switch kind {
///     case .integer: return lookUpInteger(keyPath).map(PropertyValue.integer)
///     default: return lookUpString(keyPath).map(PropertyValue.string)
///     }
/// }
/// ```
public struct PropertyValueKind: Hashable, Sendable, CustomStringConvertible {
    private indirect enum Storage: Hashable, Sendable {
        case any, string, integer, double, bool, date, data, dictionary
        case array(PropertyValueKind)
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// Any kind: the reader does not know what it expects (reading a ``PropertyValue`` itself).
    ///
    /// A source answers with whatever it holds for the key.
    ///
    /// ```swift
    /// properties.value(forKey: "port")   // asks every source for `.any`
    /// ```
    public static let any = PropertyValueKind(.any)

    /// Text: `String`, and the types read from text (`URL`).
    ///
    /// ```swift
    /// properties.property("host", as: String.self)   // asks for `.string`
    /// ```
    public static let string = PropertyValueKind(.string)

    /// A whole number: `Int` and the fixed-width integer types.
    ///
    /// ```swift
    /// properties.property("port", as: Int.self)   // asks for `.integer`
    /// ```
    public static let integer = PropertyValueKind(.integer)

    /// A floating-point number: `Double`, `Float`, `Decimal`.
    ///
    /// ```swift
    /// properties.property("timeout", as: Double.self)   // asks for `.double`
    /// ```
    public static let double = PropertyValueKind(.double)

    /// A Boolean.
    ///
    /// ```swift
    /// properties.property("debug", as: Bool.self)   // asks for `.bool`
    /// ```
    public static let bool = PropertyValueKind(.bool)

    /// A date: a property-list date, or an ISO 8601 string.
    ///
    /// ```swift
    /// properties.property("launch", as: Date.self)   // asks for `.date`
    /// ```
    public static let date = PropertyValueKind(.date)

    /// Bytes: property-list data, or a Base64 string.
    ///
    /// ```swift
    /// properties.property("key", as: Data.self)   // asks for `.data`
    /// ```
    public static let data = PropertyValueKind(.data)

    /// A dictionary: `[String: T]` read whole.
    ///
    /// A source that cannot list its keys (a swift-configuration reader cannot) returns `nil` for it; such a
    /// read sees only the properties that loaders loaded. `decodeProperties` does not ask for dictionaries: it
    /// asks for every field of the type it decodes, key by key.
    ///
    /// ```swift
    /// properties.property("limits", as: [String: Int].self)   // asks for `.dictionary`
    /// ```
    public static let dictionary = PropertyValueKind(.dictionary)

    /// An array whose elements are of `element`'s kind.
    ///
    /// ```swift
    /// properties.property("hosts", as: [String].self)   // asks for `.array(of: .string)`
    /// ```
    ///
    /// - Parameter element: The kind of the elements; ``any`` when unknown.
    /// - Returns: The kind of such an array.
    public static func array(of element: PropertyValueKind) -> PropertyValueKind {
        PropertyValueKind(.array(element))
    }

    /// The kind of the elements, when this is an array kind; `nil` otherwise.
    ///
    /// ```swift
    /// PropertyValueKind.array(of: .integer).elementKind   // .integer
    /// PropertyValueKind.integer.elementKind                // nil
    /// ```
    public var elementKind: PropertyValueKind? {
        if case .array(let element) = storage { return element }
        return nil
    }

    /// The kind's name, such as `integer` or `array of string`.
    ///
    /// ```swift
    /// print(PropertyValueKind.array(of: .string))   // array of string
    /// ```
    public var description: String {
        switch storage {
        case .any: return "any"
        case .string: return "string"
        case .integer: return "integer"
        case .double: return "double"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .dictionary: return "dictionary"
        case .array(let element): return "array of \(element)"
        }
    }
}
