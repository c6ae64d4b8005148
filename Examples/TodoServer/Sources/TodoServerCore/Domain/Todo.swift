import Foundation
import Hummingbird

/// A todo item, owned by one user.
///
/// Every item belongs to the user who created it (the `X-User` header of the request that posted it); a user
/// sees, changes and deletes only their own items.
///
/// ```swift
/// let todo = Todo(id: 1, owner: "ada", title: "Write the report", completed: false)
/// ```
public struct Todo: Codable, Equatable, Sendable, ResponseCodable {
    /// The item's identifier, unique across users (the SQLite row id).
    public var id: Int
    /// The user who owns the item.
    public var owner: String
    /// What is to be done.
    public var title: String
    /// Whether it is done.
    public var completed: Bool

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - owner: The owning user.
    ///   - title: What is to be done.
    ///   - completed: Whether it is done.
    public init(id: Int, owner: String, title: String, completed: Bool) {
        self.id = id
        self.owner = owner
        self.title = title
        self.completed = completed
    }
}

/// The body of `POST /todos`.
///
/// ```json
/// {"title": "Write the report", "completed": false}
/// ```
public struct NewTodo: Codable, Equatable, Sendable {
    /// What is to be done; 1 to 500 characters after trimming white space.
    public var title: String
    /// Whether the item starts done; `false` when omitted.
    public var completed: Bool?

    /// Creates a body.
    ///
    /// - Parameters:
    ///   - title: What is to be done.
    ///   - completed: Whether the item starts done.
    public init(title: String, completed: Bool? = nil) {
        self.title = title
        self.completed = completed
    }
}

/// The body of `PATCH /todos/:id`: the fields to change; omitted fields stay as they are.
///
/// ```json
/// {"completed": true}
/// ```
public struct TodoPatch: Codable, Equatable, Sendable {
    /// A new title, when given; 1 to 500 characters after trimming white space.
    public var title: String?
    /// A new state, when given.
    public var completed: Bool?

    /// Creates a patch.
    ///
    /// - Parameters:
    ///   - title: A new title, or `nil` to keep it.
    ///   - completed: A new state, or `nil` to keep it.
    public init(title: String? = nil, completed: Bool? = nil) {
        self.title = title
        self.completed = completed
    }
}

/// Validation of the titles the API accepts.
enum TodoValidation {
    /// The longest title accepted, in characters.
    static let maximumTitleLength = 500

    /// Returns the trimmed title, or throws a 400 naming what is wrong with it.
    static func title(_ raw: String) throws -> String {
        let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else {
            throw HTTPError(.badRequest, message: "A todo needs a non-empty title.")
        }
        guard title.count <= maximumTitleLength else {
            throw HTTPError(
                .badRequest,
                message: "A title has at most \(maximumTitleLength) characters; this one has \(title.count).")
        }
        return title
    }
}
