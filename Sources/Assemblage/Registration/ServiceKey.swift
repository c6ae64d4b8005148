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
    /// How many runtime arguments the registration takes, up to 255 (a key of more counts 255 and is told apart by
    /// its ``argumentsType``; a negative count counts 0). Part of the key, so that one tuple-typed argument and
    /// several arguments of the same types never match each other.
    public var argumentCount: Int { Int(truncatingIfNeeded: (bits >> 32) & 0xFF) }
    /// The key's hash (of its types, argument count, name and option) in the low 32 bits, ``argumentCount`` in the
    /// next 8 and the number of the key's interned ``ServiceKeyOption`` (0 for none) in the top 24: one word, so
    /// that comparing two keys compares their hash, count and option at once, and a key is five words.
    @usableFromInline let bits: UInt64

    /// The low 32 bits of the key's hash (the registration table's probe and its stored hashes).
    @inlinable var hash: Int { Int(truncatingIfNeeded: bits & 0xFFFF_FFFF) }

    /// The extra discriminator of this key, if an extension registered with one (Swinject's `option`).
    public var option: (any ServiceKeyOption)? {
        _KeyOptions.option(UInt32(truncatingIfNeeded: bits >> 40))  // unsigned: the top bit is the option's
    }

    /// The most runtime arguments a key counts (``argumentCount``): a key of more counts this many, and is still
    /// told apart from others by its ``argumentsType``.
    @usableFromInline static var maximumArgumentCount: Int { 0xFF }

    /// `argumentCount` as a key counts it: 0 … ``maximumArgumentCount``.
    @inlinable @inline(__always)
    static func countedArguments(_ argumentCount: Int) -> Int { min(max(argumentCount, 0), maximumArgumentCount) }

    /// The key word of ``bits``: `hash` folded to 32 bits, the count (``countedArguments(_:)``) and the option's
    /// number (below 2^24, see `_KeyOptions`).
    @inlinable @inline(__always)
    static func bits(hash: UInt, countedArguments count: Int, optionID: UInt32) -> UInt64 {
        let wide = UInt64(truncatingIfNeeded: hash)
        let folded = (wide ^ (wide >> 32)) & 0xFFFF_FFFF
        return folded | UInt64(truncatingIfNeeded: count) << 32 | UInt64(optionID) << 40
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
        let count = Self.countedArguments(argumentCount)
        bits = Self.bits(hash: Self.hash(serviceType, argumentsType, name, count), countedArguments: count, optionID: 0)
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
        bits = Self.bits(
            hash: Self.hash(serviceType, argumentsType, name, 0) ^ UInt(optionID) &* 0x2545_F491_4F6C_DD1D,
            countedArguments: 0, optionID: optionID)
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

    /// The hash of a key's parts, before ``bits(hash:countedArguments:optionID:)`` folds it.
    @inlinable @inline(__always)
    static func hash(_ serviceType: Any.Type, _ argumentsType: Any.Type, _ name: String?, _ argumentCount: Int) -> UInt
    {
        var h = UInt(bitPattern: ObjectIdentifier(serviceType)) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt(bitPattern: ObjectIdentifier(argumentsType)) &* 0xC2B2_AE3D_27D4_EB4F
        if let name { h ^= ServiceKey.hashName(name) }
        h ^= UInt(bitPattern: argumentCount) &* 0x1656_67B1_9E37_79F9
        return h ^ h >> 29
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
        lhs.bits == rhs.bits && ObjectIdentifier(lhs.serviceType) == ObjectIdentifier(rhs.serviceType)
            && ObjectIdentifier(lhs.argumentsType) == ObjectIdentifier(rhs.argumentsType) && lhs.name == rhs.name
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
    /// The options in order of their numbers, and the numbers of the options of each hash.
    private static let table = _Locked<(options: [any ServiceKeyOption], byHash: [Int: [UInt32]])>(([], [:]))

    /// How many distinct options a process can number: a key keeps the number in 24 bits.
    static var capacity: Int { 0xFF_FFFF }

    /// The number of `option` (1-based; assigned on first use).
    static func intern(_ option: any ServiceKeyOption) -> UInt32 {
        var hasher = Hasher()
        option.hash(into: &hasher)
        let hash = hasher.finalize()
        return table.withLock { table in
            for id in table.byHash[hash, default: []] where table.options[Int(id) - 1].isEqualTo(option) { return id }
            // Each distinct option is kept for the life of the process; sixteen million of them is a program that
            // makes options from unbounded input, which a key cannot tell apart.
            precondition(table.options.count < capacity, "more than \(capacity) distinct ServiceKeyOption values")
            table.options.append(option)
            let id = UInt32(table.options.count)
            table.byHash[hash, default: []].append(id)
            return id
        }
    }

    /// The option numbered `id`, or nil for 0.
    static func option(_ id: UInt32) -> (any ServiceKeyOption)? {
        guard id != 0 else { return nil }
        return table.withLock { $0.options[Int(id) - 1] }
    }
}
