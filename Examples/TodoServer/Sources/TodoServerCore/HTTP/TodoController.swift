import Hummingbird

/// The todo routes: `POST /todos`, `GET /todos`, `GET /todos/:id`, `PATCH /todos/:id` and `DELETE /todos/:id`,
/// with JSON bodies (``Request/decodeJSON(_:context:)``: 415 for a body that is not JSON, 400 naming the field
/// of a wrong shape). Each route asks the request's scope for its ``TodoService``.
///
/// ```swift
/// TodoController().addRoutes(to: router.group("todos"))
/// ```
public struct TodoController: Sendable {
    /// Creates the controller.
    public init() {}

    /// Adds the five routes to a group.
    ///
    /// - Parameter group: The group, whose path is usually `todos`.
    public func addRoutes(to group: RouterGroup<TodoRequestContext>) {
        group.post(use: create)
            .get(use: list)
            .get(":id", use: get)
            .patch(":id", use: update)
            .delete(":id", use: delete)
    }

    @Sendable func create(_ request: Request, context: TodoRequestContext) async throws -> EditedResponse<Todo> {
        let new = try await request.decodeJSON(NewTodo.self, context: context)
        let todo = try await context.todoService().create(new)
        return EditedResponse(status: .created, headers: [.location: "/todos/\(todo.id)"], response: todo)
    }

    @Sendable func list(_ request: Request, context: TodoRequestContext) async throws -> [Todo] {
        try await context.todoService().list()
    }

    @Sendable func get(_ request: Request, context: TodoRequestContext) async throws -> Todo {
        try await context.todoService().get(id: try context.parameters.require("id", as: Int.self))
    }

    @Sendable func update(_ request: Request, context: TodoRequestContext) async throws -> Todo {
        let id = try context.parameters.require("id", as: Int.self)
        let patch = try await request.decodeJSON(TodoPatch.self, context: context)
        return try await context.todoService().update(id: id, with: patch)
    }

    @Sendable func delete(_ request: Request, context: TodoRequestContext) async throws -> HTTPResponse.Status {
        try await context.todoService().delete(id: try context.parameters.require("id", as: Int.self))
        return .noContent
    }
}
