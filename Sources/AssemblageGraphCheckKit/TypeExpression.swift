/// A type as written in a `T.self` expression, with sugar normalised so that spellings the runtime treats as
/// one key compare equal: `Optional<T>` and `T?`, `Array<T>` and `[T]`, `Dictionary<K, V>` and `[K: V]`,
/// `any P` and `P`, `Swift.Int` and `Int`.
package indirect enum TypeExpression: Sendable, Hashable, CustomStringConvertible {
    /// A nominal type: its dotted components and generic arguments.
    case named([String], [TypeExpression])
    /// `T?`.
    case optional(TypeExpression)
    /// `[T]`.
    case array(TypeExpression)
    /// `[K: V]`.
    case dictionary(TypeExpression, TypeExpression)
    /// Anything else (a function type, a tuple), kept as text.
    case other(String)

    /// Parses the tokens of a type.
    ///
    /// - Parameter tokens: The tokens before `.self`.
    /// - Returns: The type, or `nil` when the tokens are not a type the checker can read.
    package static func parse(_ tokens: ArraySlice<Token>) -> TypeExpression? {
        var parser = Parser(tokens: Array(tokens))
        guard let type = parser.type(), parser.position == parser.tokens.count else { return nil }
        return type
    }

    /// `_`, Swift's placeholder for a type to infer: the type of a key that the source does not say (the view
    /// type of a scene registration, `AnySceneModule<_>`). It is the same type as any other.
    package static let placeholder = TypeExpression.named(["_"], [])

    /// The last component of a nominal type's name.
    package var lastName: String? {
        if case .named(let components, _) = self { return components.last }
        return nil
    }

    /// The generic arguments when this is `Name<…>` with the one-component `name`.
    package func arguments(ofGeneric name: String) -> [TypeExpression]? {
        if case .named(let components, let arguments) = self, components == [name] { return arguments }
        return nil
    }

    /// Every name that appears in the type (for spotting generic parameters).
    package var names: [String] {
        switch self {
        case .named(let components, let arguments): return components + arguments.flatMap(\.names)
        case .optional(let wrapped), .array(let wrapped): return wrapped.names
        case .dictionary(let key, let value): return key.names + value.names
        case .other: return []
        }
    }

    /// The type as Swift would print it with sugar.
    package var description: String {
        switch self {
        case .named(let components, let arguments):
            let name = components.joined(separator: ".")
            return arguments.isEmpty ? name : "\(name)<\(arguments.map(\.description).joined(separator: ", "))>"
        case .optional(let wrapped): return "\(wrapped)?"
        case .array(let element): return "[\(element)]"
        case .dictionary(let key, let value): return "[\(key): \(value)]"
        case .other(let text): return text
        }
    }

    private struct Parser {
        let tokens: [Token]
        var position = 0

        mutating func accept(_ text: String) -> Bool {
            guard position < tokens.count, tokens[position].is(text) else { return false }
            position += 1
            return true
        }

        mutating func type() -> TypeExpression? {
            guard var base = primary() else { return nil }
            while position < tokens.count {
                if accept("?") || accept("!") { base = .optional(base) } else { break }
            }
            return base
        }

        mutating func primary() -> TypeExpression? {
            guard position < tokens.count else { return nil }
            if accept("any") || accept("some") { return type() }
            if accept("(") {
                let start = position - 1
                if let inner = type(), accept(")") { return inner }
                // A tuple or function type: keep its text.
                position = start
                var depth = 0
                var text = ""
                repeat {
                    let token = tokens[position]
                    if token.is("(") { depth += 1 }
                    if token.is(")") { depth -= 1 }
                    text += (token.kind == .identifier && text.last?.isLetter == true ? " " : "") + token.text
                    position += 1
                } while depth > 0 && position < tokens.count
                if accept("->"), let result = type() { return .other(text + " -> \(result)") }
                return .other(text)
            }
            if accept("[") {
                guard let first = type() else { return nil }
                if accept(":") {
                    guard let value = type(), accept("]") else { return nil }
                    return .dictionary(first, value)
                }
                guard accept("]") else { return nil }
                return .array(first)
            }
            guard tokens[position].kind == .identifier else { return nil }
            var components = [tokens[position].text]
            position += 1
            var arguments: [TypeExpression] = []
            while true {
                if accept("<") {
                    repeat {
                        guard let argument = type() else { return nil }
                        arguments.append(argument)
                    } while accept(",")
                    guard accept(">") else { return nil }
                } else if position + 1 < tokens.count, tokens[position].is("."),
                    tokens[position + 1].kind == .identifier, tokens[position + 1].text != "self"
                {
                    components.append(tokens[position + 1].text)
                    position += 2
                } else {
                    break
                }
            }
            if components.first == "Swift", components.count > 1 { components.removeFirst() }
            switch (components, arguments.count) {
            case (["Optional"], 1): return .optional(arguments[0])
            case (["Array"], 1): return .array(arguments[0])
            case (["Dictionary"], 2): return .dictionary(arguments[0], arguments[1])
            default: return .named(components, arguments)
            }
        }
    }
}
