import Hummingbird
import Logging

/// The todo operations of one request, for the request's user.
///
/// Made once per request scope: it holds the request's ``RequestID`` and ``UserID`` (values provided to the
/// request's scope, which no other request sees), the shared ``TodoRepository`` and ``AuditLog``, and a logger
/// whose lines carry the request id and the user. ``builtFor`` records the user the service was made for, so that
/// tests can check it against the user the request sent.
///
/// ```swift
/// let service = try await scope.resolveAsync(TodoService.self)
/// let todo = try await service.create(NewTodo(title: "Write the report"))
/// ```
public struct TodoService: Sendable {
    /// The request this service serves.
    public let requestID: RequestID
    /// The user the service was made for: every item it reads or writes is this user's.
    public let builtFor: UserID
    private let repository: any TodoRepository
    private let audit: AuditLog
    private let logger: Logger

    /// Creates the service of one request.
    ///
    /// - Parameters:
    ///   - requestID: The request.
    ///   - user: The user the request acts for.
    ///   - repository: Where todos are stored.
    ///   - audit: Where changes are recorded.
    ///   - logger: The application's logger; the service adds the request id and the user to its metadata.
    public init(requestID: RequestID, user: UserID, repository: any TodoRepository, audit: AuditLog, logger: Logger) {
        self.requestID = requestID
        self.builtFor = user
        self.repository = repository
        self.audit = audit
        var logger = logger
        logger[metadataKey: "request_id"] = "\(requestID)"
        logger[metadataKey: "user"] = "\(user)"
        self.logger = logger
    }

    /// Creates an item for the user.
    ///
    /// - Parameter new: The item's title and state.
    /// - Returns: The stored item.
    /// - Throws: `HTTPError(.badRequest)` for an empty or too long title, or a storage error.
    public func create(_ new: NewTodo) async throws -> Todo {
        let title = try TodoValidation.title(new.title)
        let todo = try await repository.create(owner: builtFor, title: title, completed: new.completed ?? false)
        try await audit.record(AuditEntry(requestID: requestID, user: builtFor, action: "create", todoID: todo.id))
        logger.debug("created todo", metadata: ["todo_id": "\(todo.id)"])
        return todo
    }

    /// Lists the user's items, oldest first.
    ///
    /// - Returns: The items.
    /// - Throws: A storage error.
    public func list() async throws -> [Todo] {
        try await repository.list(owner: builtFor)
    }

    /// Returns one of the user's items.
    ///
    /// - Parameter id: The item's identifier.
    /// - Returns: The item.
    /// - Throws: `HTTPError(.notFound)` when the user has no such item (also when another user has it), or a
    ///   storage error.
    public func get(id: Int) async throws -> Todo {
        guard let todo = try await repository.find(id: id, owner: builtFor) else { throw Self.notFound(id) }
        return todo
    }

    /// Changes one of the user's items.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - patch: The fields to change.
    /// - Returns: The changed item.
    /// - Throws: `HTTPError(.badRequest)` for an invalid title, `HTTPError(.notFound)` when the user has no such
    ///   item, or a storage error.
    public func update(id: Int, with patch: TodoPatch) async throws -> Todo {
        let title = try patch.title.map(TodoValidation.title)
        guard let todo = try await repository.update(id: id, owner: builtFor, title: title, completed: patch.completed)
        else { throw Self.notFound(id) }
        try await audit.record(AuditEntry(requestID: requestID, user: builtFor, action: "update", todoID: id))
        logger.debug("updated todo", metadata: ["todo_id": "\(id)"])
        return todo
    }

    /// Deletes one of the user's items.
    ///
    /// - Parameter id: The item's identifier.
    /// - Throws: `HTTPError(.notFound)` when the user has no such item, or a storage error.
    public func delete(id: Int) async throws {
        guard try await repository.delete(id: id, owner: builtFor) else { throw Self.notFound(id) }
        try await audit.record(AuditEntry(requestID: requestID, user: builtFor, action: "delete", todoID: id))
        logger.debug("deleted todo", metadata: ["todo_id": "\(id)"])
    }

    private static func notFound(_ id: Int) -> HTTPError {
        HTTPError(.notFound, message: "You have no todo \(id).")
    }
}
