import Assemblage
import Logging
import SQLiteNIO

/// The log of every change made through the API (who changed which todo, in which request), buffered in memory
/// and written to the `audit` table in batches.
///
/// It writes through the connection pool, so it must be flushed before the pool closes: the container disposes in
/// reverse creation order, and the audit log is created after the pool it depends on, so it is disposed
/// (``AsyncDisposable``: its last batch written) before the pool closes.
///
/// ```swift
/// let audit = AuditLog(pool: pool, logger: logger, batchSize: 50)
/// try await audit.record(AuditEntry(requestID: id, user: user, action: "create", todoID: 1))
/// try await audit.flush()
/// ```
public actor AuditLog: AsyncDisposable {
    private let pool: SQLiteConnectionPool
    private let logger: Logger
    private let observer: (any DisposalObserver)?
    /// The batch size when `audit.batchSize` is not set.
    public static let defaultBatchSize = 50
    /// How many entries it buffers before it writes them. A crash (not a graceful shutdown, which writes the
    /// buffer) loses the entries not yet written: up to a batch (see the README's "What a crash loses").
    public nonisolated let batchSize: Int
    private var pending: [AuditEntry] = []
    private var written = 0

    /// Creates an audit log.
    ///
    /// - Parameters:
    ///   - pool: The pool it writes through.
    ///   - logger: Where it logs its final flush.
    ///   - batchSize: How many entries it buffers before it writes them.
    ///   - observer: Told when the container disposes the log.
    public init(
        pool: SQLiteConnectionPool, logger: Logger, batchSize: Int = defaultBatchSize,
        observer: (any DisposalObserver)? = nil
    ) {
        self.pool = pool
        self.logger = logger
        self.observer = observer
        self.batchSize = max(1, batchSize)
    }

    /// Creates the `audit` table when it does not exist.
    ///
    /// - Throws: `SQLiteError` when the table cannot be created.
    public func migrate() async throws {
        try await pool.withConnection { connection in
            _ = try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS audit (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    request_id TEXT NOT NULL,
                    user TEXT NOT NULL,
                    action TEXT NOT NULL,
                    todo_id INTEGER NOT NULL
                )
                """)
        }
    }

    /// Buffers an entry, and writes the buffer when it is full.
    ///
    /// - Parameter entry: The change.
    /// - Throws: A storage error from writing a full buffer (the entries stay buffered).
    public func record(_ entry: AuditEntry) async throws {
        pending.append(entry)
        if pending.count >= batchSize { try await flush() }
    }

    /// How many entries were written to the table so far.
    public var writtenCount: Int { written }

    /// Writes the buffered entries in one transaction.
    ///
    /// - Throws: A storage error; the entries stay buffered for the next flush.
    public func flush() async throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll()
        do {
            // One statement for the whole batch: atomic, and the write lock is held within one call into
            // SQLite, never across calls (a transaction spread over several calls would hold the lock while it
            // waits for a thread, and block every other writer).
            let placeholders = Array(repeating: "(?, ?, ?, ?)", count: batch.count).joined(separator: ", ")
            let binds = batch.flatMap { entry -> [SQLiteData] in
                [.text(entry.requestID.value), .text(entry.user.value), .text(entry.action), .integer(entry.todoID)]
            }
            try await pool.withConnection { connection in
                _ = try await connection.query(
                    "INSERT INTO audit (request_id, user, action, todo_id) VALUES " + placeholders, binds)
            }
            written += batch.count
        } catch {
            pending.insert(contentsOf: batch, at: 0)
            throw error
        }
    }

    /// Writes what is left, when the container disposes the log at shutdown, and tells the observer.
    ///
    /// - Throws: A storage error (``PoolClosedError`` if the pool were closed first).
    public func dispose() async throws {
        try await flush()
        logger.info("audit log flushed", metadata: ["entries": "\(written)"])
        observer?.didDispose("AuditLog")
    }
}

/// One change made through the API.
///
/// ```swift
/// AuditEntry(requestID: RequestID("r-1"), user: UserID("ada"), action: "delete", todoID: 7)
/// ```
public struct AuditEntry: Sendable, Equatable {
    /// The request that made the change.
    public var requestID: RequestID
    /// The user it was made for.
    public var user: UserID
    /// `create`, `update` or `delete`.
    public var action: String
    /// The todo changed.
    public var todoID: Int

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - requestID: The request that made the change.
    ///   - user: The user it was made for.
    ///   - action: `create`, `update` or `delete`.
    ///   - todoID: The todo changed.
    public init(requestID: RequestID, user: UserID, action: String, todoID: Int) {
        self.requestID = requestID
        self.user = user
        self.action = action
        self.todoID = todoID
    }
}
