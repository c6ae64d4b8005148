/// Identifies one registration: the service type, the types of its runtime arguments, and an optional name.
///
/// Two registrations with the same key replace each other; registrations that differ in any part coexist.
/// As in Swinject, the argument types are part of the key, so `register(Cat.self) { r, name in … }` and
/// `register(Cat.self) { r, name, age in … }` are two registrations.
///
/// ```swift
/// let key = ServiceKey(Cat.self, name: "mimi", argumentTypes: String.self)
/// print(key)   // Cat (name: "mimi", arguments: String)
/// ```
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {

    /// The registered service type.
    public let serviceType: Any.Type
    /// The type of the runtime arguments: `Void` for none, the argument's type for one, a tuple for several.
    public let argumentsType: Any.Type
    /// The registration name, or `nil` for the unnamed registration.
    public let name: String?
    /// How many runtime arguments the registration takes. Part of the key, so that one tuple-typed argument
    /// and several arguments of the same types never match each other.
    public var argumentCount: Int { countAndOption & 0xFFFF_FFFF }
    /// ``argumentCount`` in the low 32 bits and the number of the key's interned ``ServiceKeyOption`` (0 for
    /// none) in the high bits: one word, so that the key keeps the layout of word-sized fields that the optimiser
    /// folds into a few compares on the resolve path (a separate 32-bit option field broke that folding and
    /// slowed every resolve).
    @usableFromInline let countAndOption: Int
    @usableFromInline let hash: Int

    /// The extra discriminator of this key, if an extension registered with one (Swinject's `option`).
    public var option: (any ServiceKeyOption)? {
        _KeyOptions.option(UInt32(truncatingIfNeeded: countAndOption >> 32))
    }

    /// Creates a key from its parts.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - argumentsType: The type of the runtime arguments (`Void.self` when there are none).
    ///   - name: The registration name, or `nil`.
    ///   - argumentCount: How many runtime arguments there are.
    @inlinable
    public init(serviceType: Any.Type, argumentsType: Any.Type, name: String?, argumentCount: Int) {
        self.serviceType = serviceType
        self.argumentsType = argumentsType
        self.name = name
        countAndOption = argumentCount
        var h = UInt(bitPattern: ObjectIdentifier(serviceType)) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt(bitPattern: ObjectIdentifier(argumentsType)) &* 0xC2B2_AE3D_27D4_EB4F
        if let name { h ^= ServiceKey.hashName(name) }
        h ^= UInt(bitPattern: argumentCount) &* 0x1656_67B1_9E37_79F9
        h ^= h >> 29
        hash = Int(bitPattern: h)
    }

    /// Creates a key with an extension's discriminator, as Swinject's extensions (e.g. SwinjectStoryboard)
    /// make them: `argumentsType` is the whole factory input as such an extension names it (e.g.
    /// `(Resolver, String).self`), and the key has no separate argument count.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - argumentsType: The factory's input type.
    ///   - name: The registration name, or `nil`.
    ///   - option: The extension's discriminator, or `nil`.
    public init(
        serviceType: Any.Type, argumentsType: Any.Type, name: String? = nil,
        option: (any ServiceKeyOption)? = nil
    ) {
        self.serviceType = serviceType
        self.argumentsType = argumentsType
        self.name = name
        let optionID = option.map(_KeyOptions.intern) ?? 0
        countAndOption = Int(optionID) << 32
        hash =
            ServiceKey(serviceType: serviceType, argumentsType: argumentsType, name: name, argumentCount: 0).hash
            ^ Int(bitPattern: UInt(optionID) &* 0x2545_F491_4F6C_DD1D)
    }

    /// Creates a key for a service type and argument types given as a parameter pack.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name, or `nil`.
    ///   - argumentTypes: The runtime argument types, in order.
    @inlinable
    public init<Service, each Arg>(
        _ serviceType: Service.Type, name: String? = nil,
        argumentTypes: repeat (each Arg).Type
    ) {
        var count = 0
        for _ in repeat (each Arg).self { count += 1 }
        self.init(serviceType: Service.self, argumentsType: (repeat each Arg).self, name: name, argumentCount: count)
    }

    /// FNV-1a over the UTF-8 bytes: cheap, deterministic, and good enough for short registration names.
    @usableFromInline
    static func hashName(_ name: String) -> UInt {
        var name = name
        return name.withUTF8 { bytes in
            var h: UInt = 0xCBF2_9CE4_8422_2325
            for byte in bytes { h = (h ^ UInt(byte)) &* 0x100_0000_01B3 }
            return h
        }
    }

    /// Whether two keys name the same registration: the same service type, argument types, argument count and
    /// name.
    ///
    /// ```swift
    /// ServiceKey(Cat.self, name: "mimi") == ServiceKey(Cat.self, name: "mimi")   // true
    /// ServiceKey(Cat.self) == ServiceKey(Cat.self, argumentTypes: String.self)   // false
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: `true` when every part of the keys is equal.
    public static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool { _same(lhs, rhs) }

    /// `==`, inlinable for the resolve path.
    @inlinable @inline(__always)
    static func _same(_ lhs: ServiceKey, _ rhs: ServiceKey) -> Bool {
        lhs.hash == rhs.hash && ObjectIdentifier(lhs.serviceType) == ObjectIdentifier(rhs.serviceType)
            && ObjectIdentifier(lhs.argumentsType) == ObjectIdentifier(rhs.argumentsType)
            && lhs.countAndOption == rhs.countAndOption && lhs.name == rhs.name
    }

    /// Feeds the key's precomputed hash (of its types, argument count and name) to `hasher`.
    ///
    /// ```swift
    /// var seen: Set<ServiceKey> = [ServiceKey(Cat.self)]
    /// ```
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// `Cat`, `Cat (name: "mimi")`, `Cat (arguments: String, Int)`.
    public var description: String {
        var parts: [String] = []
        if let name { parts.append("name: \"\(name)\"") }
        if argumentCount > 0 { parts.append("arguments: \(ServiceKey.argumentList(argumentsType))") }
        if let option { parts.append("option: \(option)") }
        let type = _typeName(serviceType, qualified: false)
        return parts.isEmpty ? type : "\(type) (\(parts.joined(separator: ", ")))"
    }

    /// The argument types as a comma-separated list, without the tuple's parentheses.
    static func argumentList(_ type: Any.Type) -> String {
        let text = _typeName(type, qualified: false)
        if text.hasPrefix("(") && text.hasSuffix(")") { return String(text.dropFirst().dropLast()) }
        return text
    }

    /// Whether this key needs runtime arguments.
    public var hasArguments: Bool { argumentCount > 0 }
}

/// An extra discriminator of a ``ServiceKey``, for extensions that register several factories of one service
/// type and name (Swinject's `ServiceKeyOption`; SwinjectStoryboard keys view controllers by storyboard this way).
///
/// ```swift
/// struct StoryboardOption: ServiceKeyOption {
///     let storyboardID: String
///     func isEqualTo(_ another: any ServiceKeyOption) -> Bool {
///         (another as? StoryboardOption)?.storyboardID == storyboardID
///     }
///     func hash(into hasher: inout Hasher) { hasher.combine(storyboardID) }
///     var description: String { "Storyboard: \(storyboardID)" }
/// }
/// ```
public protocol ServiceKeyOption: CustomStringConvertible, Sendable {
    /// Whether `another` is the same option.
    ///
    /// - Parameter another: The option of another key.
    /// - Returns: `true` when the two options discriminate the same registration.
    func isEqualTo(_ another: any ServiceKeyOption) -> Bool
    /// Feeds the option's identity to `hasher` (equal options must feed the same values).
    ///
    /// - Parameter hasher: The hasher to feed.
    func hash(into hasher: inout Hasher)
}

/// The interned ``ServiceKeyOption`` values: equal options get the same number, so keys compare options as
/// integers. Options are few (an extension's discriminators, e.g. storyboard names); each distinct one is kept
/// for the life of the process.
enum _KeyOptions {
    private static let table = _Locked<[any ServiceKeyOption]>([])

    /// The number of `option` (1-based; assigned on first use).
    static func intern(_ option: any ServiceKeyOption) -> UInt32 {
        table.withLock { options in
            if let index = options.firstIndex(where: { $0.isEqualTo(option) }) { return UInt32(index + 1) }
            options.append(option)
            return UInt32(options.count)
        }
    }

    /// The option numbered `id`, or nil for 0.
    static func option(_ id: UInt32) -> (any ServiceKeyOption)? {
        guard id != 0 else { return nil }
        return table.withLock { $0[Int(id) - 1] }
    }
}
