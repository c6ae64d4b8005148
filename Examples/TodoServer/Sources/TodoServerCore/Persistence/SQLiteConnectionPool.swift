import Assemblage
import Logging
import NIOPosix
import SQLiteNIO

/// A fixed-size pool of SQLite connections to one database file.
///
/// The pool opens its connections up front (in WAL mode with a busy timeout, so that readers and a writer on
/// different connections do not fail with `SQLITE_BUSY`), lends one connection at a time to a caller of
/// ``withConnection(_:)`` and queues callers when every connection is out. ``close()`` fails the queued callers,
/// waits for the lent connections to come back, closes every connection and stops the pool's threads, once.
///
/// SQLite calls block their thread (a writer waiting for the lock sleeps in `busy_timeout`), so the pool runs
/// them on a thread pool of its own with one thread per connection: a connection that waits for the write lock
/// never takes the thread the lock holder needs.
///
/// The container makes one pool per application (`.container` scope) and disposes it at shutdown
/// (``AsyncDisposable``): after every service made after it, such as the ``AuditLog`` that writes through it.
///
/// ```swift
/// let pool = try await SQLiteConnectionPool.open(path: "/tmp/todos.sqlite", size: 4, logger: logger)
/// let count = try await pool.withConnection { connection in
///     try await connection.query("SELECT count(*) AS n FROM todos").first?.column("n")?.integer ?? 0
/// }
/// try await pool.close()
/// ```
public actor SQLiteConnectionPool: AsyncDisposable {
    /// The database file.
    public nonisolated let path: String
    /// How many connections the pool holds.
    public nonisolated let size: Int

    private let logger: Logger
    private let observer: (any DisposalObserver)?
    private let threadPool: NIOThreadPool
    private var connections: [SQLiteConnection]
    private var idle: [SQLiteConnection]
    private var waiters: [CheckedContinuation<SQLiteConnection, any Error>] = []
    private var drained: [CheckedContinuation<Void, Never>] = []
    private var state = State.open
    private var leases = 0

    private enum State { case open, closing, closed }

    private init(
        path: String, connections: [SQLiteConnection], threadPool: NIOThreadPool, logger: Logger,
        observer: (any DisposalObserver)?
    ) {
        self.path = path
        self.observer = observer
        self.threadPool = threadPool
        self.size = connections.count
        self.connections = connections
        self.idle = connections
        self.logger = logger
    }

    /// Opens `size` connections to the database at `path`, creating the file when it does not exist.
    ///
    /// - Parameters:
    ///   - path: The database file; relative paths are relative to the working directory.
    ///   - size: The number of connections, at least 1.
    ///   - logger: Where the pool logs opening and closing (at info level).
    ///   - observer: Told when the container disposes the pool.
    /// - Returns: The open pool.
    /// - Throws: `SQLiteError` when a connection cannot be opened or configured; the connections opened before
    ///   the failure are closed again.
    public static func open(
        path: String, size: Int, logger: Logger,
        observer: (any DisposalObserver)? = nil
    ) async throws -> SQLiteConnectionPool {
        precondition(size >= 1, "A pool needs at least one connection; configure database.poolSize >= 1.")
        let threadPool = NIOThreadPool(numberOfThreads: size)
        threadPool.start()
        var opened: [SQLiteConnection] = []
        do {
            for _ in 0..<size {
                let connection = try await SQLiteConnection.open(
                    storage: .file(path: path), threadPool: threadPool, logger: logger,
                    on: MultiThreadedEventLoopGroup.singleton.any())
                opened.append(connection)
                _ = try await connection.query("PRAGMA busy_timeout = 5000")
                _ = try await connection.query("PRAGMA journal_mode = WAL")
                _ = try await connection.query("PRAGMA synchronous = NORMAL")
            }
        } catch {
            for connection in opened { try? await connection.close() }
            try? await threadPool.shutdownGracefully()
            throw error
        }
        logger.info("opened SQLite pool", metadata: ["path": "\(path)", "size": "\(size)"])
        return SQLiteConnectionPool(
            path: path, connections: opened, threadPool: threadPool, logger: logger,
            observer: observer)
    }

    /// Lends a connection to `body` and takes it back when `body` returns or throws.
    ///
    /// Waits (without blocking a thread) while every connection is lent out.
    ///
    /// - Parameter body: Work on the connection; it must not keep the connection.
    /// - Returns: What `body` returns.
    /// - Throws: ``PoolClosedError`` when the pool is closing or closed, or what `body` throws.
    public nonisolated func withConnection<Result: Sendable>(
        _ body: @Sendable (SQLiteConnection) async throws -> Result
    ) async throws -> Result {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            await giveBack(connection)
            return result
        } catch {
            await giveBack(connection)
            throw error
        }
    }

    /// Whether ``close()`` has finished.
    public var isClosed: Bool { state == .closed }

    /// How many connections are lent out now.
    public var leasedCount: Int { leases }

    /// Closes the pool: fails the callers waiting for a connection with ``PoolClosedError``, waits for the lent
    /// connections to come back, then closes every connection. Later calls do nothing.
    ///
    /// - Throws: The first error a connection reported while closing (the others are still closed).
    public func close() async throws {
        guard state == .open else { return }
        state = .closing
        let queued = waiters
        waiters.removeAll()
        for waiter in queued { waiter.resume(throwing: PoolClosedError(path: path)) }
        if leases > 0 {
            logger.debug("SQLite pool waits for its lent connections", metadata: ["leased": "\(leases)"])
            await withCheckedContinuation { drained.append($0) }
        }
        logger.trace("closing SQLite connections", metadata: ["count": "\(connections.count)"])
        var firstError: (any Error)?
        for connection in connections {
            do { try await connection.close() } catch { firstError = firstError ?? error }
        }
        connections.removeAll()
        idle.removeAll()
        logger.trace("stopping the SQLite pool's threads")
        do { try await threadPool.shutdownGracefully() } catch { firstError = firstError ?? error }
        state = .closed
        logger.info("closed SQLite pool", metadata: ["path": "\(path)", "size": "\(size)"])
        if let firstError { throw firstError }
    }

    /// Closes the pool (``close()``) when its container shuts down, and tells the observer.
    ///
    /// - Throws: What ``close()`` throws.
    public func dispose() async throws {
        try await close()
        observer?.didDispose("SQLiteConnectionPool")
    }

    private func lease() async throws -> SQLiteConnection {
        guard state == .open else { throw PoolClosedError(path: path) }
        if let connection = idle.popLast() {
            leases += 1
            return connection
        }
        // Resumed by giveBack, which hands over its lease (the count does not change), or failed by close.
        return try await withCheckedThrowingContinuation { waiters.append($0) }
    }

    private func giveBack(_ connection: SQLiteConnection) {
        if state == .open, !waiters.isEmpty {
            waiters.removeFirst().resume(returning: connection)
            return
        }
        leases -= 1
        idle.append(connection)
        if leases == 0, !drained.isEmpty {
            let waiting = drained
            drained.removeAll()
            for continuation in waiting { continuation.resume() }
        }
    }
}

/// Thrown by ``SQLiteConnectionPool/withConnection(_:)`` once the pool is closing or closed.
///
/// ```swift
/// do { try await pool.withConnection { _ in } } catch let error as PoolClosedError { print(error) }
/// ```
public struct PoolClosedError: Error, CustomStringConvertible {
    /// The pool's database file.
    public let path: String

    /// Says that the pool is closed and why that happens.
    public var description: String {
        "The SQLite pool for \(path) is closed (the application is shutting down); no new work can start."
    }
}
