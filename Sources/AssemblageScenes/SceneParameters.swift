/// The values a navigation hands to the scene it builds.
///
/// Scene parameters come in two forms, and one value can carry both:
///
/// - **Keyed values**, written as a dictionary literal exactly as with the `[String: Any]` dictionaries
///   of the original Assembler & Container design, and read back with a type:
///   `parameters.value("orderID", as: Int.self)`, or `try parameters.require("orderID", as: Int.self)`,
///   which throws a ``NavigationError`` naming the key when it is missing or of another type.
/// - **A typed payload**: a scene declares its own `Parameters` type (see ``SceneModule/Parameters``),
///   the navigation passes a value of it (``NavigationType/push(_:parameters:)``), and the scene's `build`
///   receives that value, already checked, instead of a dictionary.
///
/// ```swift
/// // Keyed, as in the original design:
/// coordinator.performNavigation(.push(sceneName: "order", parameters: ["orderID": 7]))
/// let id = try parameters.require("orderID", as: Int.self)
///
/// // Typed: the scene declares `struct Parameters: Sendable { let orderID: Int }`.
/// coordinator.performNavigation(.push(OrderScene.self, parameters: .init(orderID: 7)))
/// ```
///
/// Values are `Sendable`, so a navigation can be prepared off the main actor and sent to it. A
/// `[String: Any]` variable cannot be converted (`Any` may hold anything, `Sendable` or not); write the
/// literal, or build the dictionary as `[String: any Sendable]`.
public struct SceneParameters: Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The keyed values.
    public var values: [String: any Sendable]
    /// The typed payload, when the navigation passed one.
    public var payload: (any Sendable)?

    /// Creates parameters from keyed values.
    ///
    /// ```swift
    /// var values: [String: any Sendable] = ["next": "orders"]
    /// values["attempt"] = 2
    /// let parameters = SceneParameters(values)
    /// ```
    ///
    /// - Parameter values: The keyed values.
    public init(_ values: [String: any Sendable] = [:]) {
        self.values = values
        self.payload = nil
    }

    /// Creates parameters that carry a typed payload (and optionally keyed values too).
    ///
    /// ```swift
    /// let parameters = SceneParameters(payload: OrderScene.Parameters(orderID: 7))
    /// ```
    ///
    /// - Parameters:
    ///   - payload: The value a scene with a typed `Parameters` receives.
    ///   - values: Keyed values beside it.
    public init<Payload: Sendable>(payload: Payload, values: [String: any Sendable] = [:]) {
        self.values = values
        self.payload = payload
    }

    /// Creates parameters from a dictionary literal.
    ///
    /// ```swift
    /// let parameters: SceneParameters = ["next": "orders", "attempt": 1]
    /// ```
    ///
    /// - Parameter elements: The key-value pairs; a later duplicate key wins.
    public init(dictionaryLiteral elements: (String, any Sendable)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, later in later }))
    }

    /// No parameters.
    ///
    /// ```swift
    /// try scene.build(resolver: resolver, parameters: .empty)
    /// ```
    public static var empty: SceneParameters { SceneParameters() }

    /// Whether there are neither keyed values nor a payload.
    public var isEmpty: Bool { values.isEmpty && payload == nil }

    /// The keyed value for `key`, untyped; set it to add or replace a value.
    ///
    /// ```swift
    /// var parameters: SceneParameters = [:]
    /// parameters["next"] = "orders"
    /// ```
    ///
    /// - Parameter key: The key.
    public subscript(key: String) -> (any Sendable)? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The keyed value for `key` if it is a `T`.
    ///
    /// ```swift
    /// let attempt = parameters.value("attempt", as: Int.self) ?? 0
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - type: The expected type.
    /// - Returns: The value, or `nil` when the key is missing or holds another type.
    public func value<T>(_ key: String, as type: T.Type = T.self) -> T? {
        values[key] as? T
    }

    /// The keyed value for `key`, which must be a `T`.
    ///
    /// Use it in a scene's `build`; the coordinator reports the error with the scene's name.
    ///
    /// ```swift
    /// let next = try parameters.require("next", as: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - type: The expected type.
    /// - Returns: The value.
    /// - Throws: ``NavigationError`` with code ``NavigationError/Code/invalidParameters`` naming the key,
    ///   the expected type and what was found instead.
    public func require<T>(_ key: String, as type: T.Type = T.self) throws(NavigationError) -> T {
        guard let value = values[key] else {
            throw NavigationError(
                code: .invalidParameters, parameterKey: key,
                detail: "parameter \"\(key)\" is missing (expected \(T.self))")
        }
        guard let typed = value as? T else {
            throw NavigationError(
                code: .invalidParameters, parameterKey: key,
                detail: "parameter \"\(key)\" is \(Swift.type(of: value)), expected \(T.self)")
        }
        return typed
    }

    /// The payload if it is a `P`.
    ///
    /// ```swift
    /// let order = parameters.payload(as: OrderScene.Parameters.self)
    /// ```
    ///
    /// - Parameter type: The expected payload type.
    /// - Returns: The payload, or `nil` when there is none or it has another type.
    public func payload<P>(as type: P.Type) -> P? {
        payload.flatMap { $0 as? P }
    }

    /// The keyed values as the `[String: Any]` dictionary that code written for the original design reads.
    ///
    /// ```swift
    /// let legacy: [String: Any] = parameters.dictionary
    /// ```
    public var dictionary: [String: Any] {
        values.mapValues { $0 as Any }
    }

    /// The keys in order, and the payload's type: `[next, attempt] + OrderScene.Parameters`.
    public var description: String {
        var text = "[" + values.keys.sorted().joined(separator: ", ") + "]"
        if let payload { text += " + \(type(of: payload))" }
        return text
    }
}
