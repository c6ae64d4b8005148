import Foundation
import Hummingbird
import NIOCore

/// A request body the API reads as JSON, with the JSON kind of each field for error messages.
public protocol JSONBody: Decodable {
    /// Each field's name and what it takes, as a message says it: `["title": "a string"]`.
    static var fields: KeyValuePairs<String, String> { get }
}

extension NewTodo: JSONBody {
    /// `title` (a string, required) and `completed` (true or false, optional).
    public static var fields: KeyValuePairs<String, String> { ["title": "a string", "completed": "true or false"] }
}

extension TodoPatch: JSONBody {
    /// `title` (a string) and `completed` (true or false), both optional.
    public static var fields: KeyValuePairs<String, String> { ["title": "a string", "completed": "true or false"] }
}

extension Request {
    /// Reads the body as a JSON object of type `Body`, or throws the HTTP error a client can act on.
    ///
    /// ```swift
    /// let new = try await request.decodeJSON(NewTodo.self, context: context)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The body's type.
    ///   - context: The request's context (its `maxUploadSize` bounds the body).
    /// - Returns: The body.
    /// - Throws: `HTTPError(.unsupportedMediaType)` (415) for a `Content-Type` that is not JSON
    ///   (`application/json` or `…+json`; a body without one is read as JSON); `NIOTooManyBytesError` (413) for
    ///   a body over `maxUploadSize`; `HTTPError(.badRequest)` (400) for an empty body, a body that is not JSON,
    ///   or a value of the wrong kind or a missing field, naming the field and what it takes.
    public func decodeJSON<Body: JSONBody>(_ type: Body.Type, context: some RequestContext) async throws -> Body {
        if let contentType = headers[.contentType] {
            let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard let mediaType, mediaType == "application/json" || mediaType.hasSuffix("+json") else {
                throw HTTPError(
                    .unsupportedMediaType,
                    message: "The body is \(contentType); send it as application/json.")
            }
        }
        let data = Data(try await body.collect(upTo: context.maxUploadSize).readableBytesView)
        guard data.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw HTTPError(.badRequest, message: "The body is empty; send a JSON object.")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: Self.message(for: error, in: data, fields: Body.fields))
        }
    }

    /// Says which field is wrong, what it is and what it takes.
    static func message(for error: DecodingError, in data: Data, fields: KeyValuePairs<String, String>) -> String {
        func takes(_ field: String) -> String { fields.first { $0.key == field }?.value ?? "another kind of value" }
        func found(at path: [any CodingKey]) -> String {
            (try? JSONDecoder().decode(JSONKind.self, from: data))?.kind(at: path) ?? "something else"
        }
        func name(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .typeMismatch(_, let context) where context.codingPath.isEmpty,
            .valueNotFound(_, let context) where context.codingPath.isEmpty:
            return "The body must be a JSON object; it is \(found(at: []))."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let field = name(context.codingPath)
            return "\"\(field)\" must be \(takes(field)); it is \(found(at: context.codingPath))."
        case .keyNotFound(let key, _):
            return "The body has no \"\(key.stringValue)\"; send it as \(takes(key.stringValue))."
        case .dataCorrupted:
            return "The body is not valid JSON."
        @unknown default:
            return "The body is not a JSON object of the fields " + fields.map(\.key).joined(separator: ", ") + "."
        }
    }
}

/// The kind of each JSON value, to say what a body holds where a field of another kind was expected.
private indirect enum JSONKind: Decodable {
    case null, bool, number, string
    case array([JSONKind])
    case object([String: JSONKind])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if (try? container.decode(Bool.self)) != nil {
            self = .bool
        } else if (try? container.decode(Double.self)) != nil {
            self = .number
        } else if (try? container.decode(String.self)) != nil {
            self = .string
        } else if let array = try? container.decode([JSONKind].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONKind].self))
        }
    }

    /// The kind of the value at a coding path, as a message says it ("an array", "a number").
    func kind(at path: [any CodingKey]) -> String? {
        var value = self
        for key in path {
            switch value {
            case .object(let fields):
                guard let next = fields[key.stringValue] else { return nil }
                value = next
            case .array(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return nil }
                value = items[index]
            default: return nil
            }
        }
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
