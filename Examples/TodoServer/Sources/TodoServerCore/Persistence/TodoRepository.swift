import SQLiteNIO

/// Where todos are stored: every operation is for one owner, and never reads or changes another owner's items.
///
/// ```swift
/// let todo = try await repository.create(owner: UserID("ada"), title: "Write the report", completed: false)
/// let mine = try await repository.list(owner: UserID("ada"))
/// ```
public protocol TodoRepository: Sendable {
    /// Stores a new item for `owner`.
    ///
    /// - Parameters:
    ///   - owner: The owning user.
    ///   - title: The validated title.
    ///   - completed: Whether it starts done.
    /// - Returns: The stored item, with its identifier.
    /// - Throws: A storage error.
    func create(owner: UserID, title: String, completed: Bool) async throws -> Todo

    /// Lists `owner`'s items, oldest first.
    ///
    /// - Parameter owner: The owning user.
    /// - Returns: The items.
    /// - Throws: A storage error.
    func list(owner: UserID) async throws -> [Todo]

    /// Finds one of `owner`'s items.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - owner: The owning user.
    /// - Returns: The item, or `nil` when `owner` has no item with that identifier.
    /// - Throws: A storage error.
    func find(id: Int, owner: UserID) async throws -> Todo?

    /// Changes the fields a patch gives of one of `owner`'s items.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - owner: The owning user.
    ///   - title: A new validated title, or `nil` to keep it.
    ///   - completed: A new state, or `nil` to keep it.
    /// - Returns: The changed item, or `nil` when `owner` has no item with that identifier.
    /// - Throws: A storage error.
    func update(id: Int, owner: UserID, title: String?, completed: Bool?) async throws -> Todo?

    /// Deletes one of `owner`'s items.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - owner: The owning user.
    /// - Returns: Whether an item was deleted.
    /// - Throws: A storage error.
    func delete(id: Int, owner: UserID) async throws -> Bool
}

/// ``TodoRepository`` over SQLite, through a ``SQLiteConnectionPool``.
///
/// ```swift
/// let repository = SQLiteTodoRepository(pool: pool)
/// try await repository.migrate()
/// ```
public struct SQLiteTodoRepository: TodoRepository {
    /// The pool the repository borrows connections from.
    public let pool: SQLiteConnectionPool

    /// Creates a repository over a pool.
    ///
    /// - Parameter pool: The pool; the repository does not own it (the container closes it at shutdown).
    public init(pool: SQLiteConnectionPool) { self.pool = pool }

    /// Creates the table and its index when they do not exist.
    ///
    /// - Throws: `SQLiteError` when the schema cannot be created.
    public func migrate() async throws {
        try await pool.withConnection { connection in
            _ = try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS todos (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner TEXT NOT NULL,
                    title TEXT NOT NULL,
                    completed INTEGER NOT NULL DEFAULT 0
                )
                """)
            _ = try await connection.query("CREATE INDEX IF NOT EXISTS todos_owner ON todos (owner, id)")
        }
    }

    /// Inserts the item and returns it with its new row id (`INSERT … RETURNING`).
    public func create(owner: UserID, title: String, completed: Bool) async throws -> Todo {
        let rows = try await pool.withConnection { connection in
            try await connection.query(
                "INSERT INTO todos (owner, title, completed) VALUES (?, ?, ?) RETURNING id, owner, title, completed",
                [.text(owner.value), .text(title), .integer(completed ? 1 : 0)])
        }
        guard let row = rows.first, let todo = Self.todo(from: row) else { throw RowDecodingError(table: "todos") }
        return todo
    }

    /// Selects the owner's rows in id order.
    public func list(owner: UserID) async throws -> [Todo] {
        let rows = try await pool.withConnection { connection in
            try await connection.query(
                "SELECT id, owner, title, completed FROM todos WHERE owner = ? ORDER BY id", [.text(owner.value)])
        }
        return try rows.map { row in
            guard let todo = Self.todo(from: row) else { throw RowDecodingError(table: "todos") }
            return todo
        }
    }

    /// Selects the row with this id and owner.
    public func find(id: Int, owner: UserID) async throws -> Todo? {
        let rows = try await pool.withConnection { connection in
            try await connection.query(
                "SELECT id, owner, title, completed FROM todos WHERE id = ? AND owner = ?",
                [.integer(id), .text(owner.value)])
        }
        return rows.first.flatMap(Self.todo(from:))
    }

    /// Updates the given fields of the row with this id and owner (`coalesce` keeps the others).
    public func update(id: Int, owner: UserID, title: String?, completed: Bool?) async throws -> Todo? {
        let rows = try await pool.withConnection { connection in
            try await connection.query(
                """
                UPDATE todos SET title = coalesce(?, title), completed = coalesce(?, completed)
                WHERE id = ? AND owner = ? RETURNING id, owner, title, completed
                """,
                [
                    title.map(SQLiteData.text) ?? .null, completed.map { .integer($0 ? 1 : 0) } ?? .null,
                    .integer(id), .text(owner.value),
                ])
        }
        return rows.first.flatMap(Self.todo(from:))
    }

    /// Deletes the row with this id and owner.
    public func delete(id: Int, owner: UserID) async throws -> Bool {
        let rows = try await pool.withConnection { connection in
            try await connection.query(
                "DELETE FROM todos WHERE id = ? AND owner = ? RETURNING id", [.integer(id), .text(owner.value)])
        }
        return !rows.isEmpty
    }

    private static func todo(from row: SQLiteRow) -> Todo? {
        guard let id = row.column("id")?.integer, let owner = row.column("owner")?.string,
            let title = row.column("title")?.string, let completed = row.column("completed")?.integer
        else { return nil }
        return Todo(id: Int(id), owner: owner, title: title, completed: completed != 0)
    }
}

/// A row that does not have the columns the repository selected (a schema that does not match this version).
///
/// ```swift
/// throw RowDecodingError(table: "todos")
/// ```
public struct RowDecodingError: Error, CustomStringConvertible {
    /// The table the row came from.
    public let table: String

    /// Names the table and the likely cause.
    public var description: String {
        "A row of \(table) lacks a column this server reads; the database was made by another version of the schema."
    }
}
