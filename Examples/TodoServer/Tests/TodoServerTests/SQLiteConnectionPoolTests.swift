import Foundation
import Logging
import Synchronization
import Testing
import TodoServerCore

/// How many connections are in use at once.
private final class InUse: Sendable {
    let counts = Mutex((now: 0, most: 0))
}

/// The connection pool on its own.
@Suite struct SQLiteConnectionPoolTests {
    private func temporaryDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("todo-pool-\(UUID()).sqlite").path
    }

    @Test func callersWaitWhenEveryConnectionIsOut() async throws {
        let path = temporaryDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let pool = try await SQLiteConnectionPool.open(path: path, size: 2, logger: Logger(label: "test"))
        let inUse = InUse()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await pool.withConnection { connection in
                        inUse.counts.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        _ = try await connection.query("SELECT 1")
                        inUse.counts.withLock { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inUse.counts.withLock { $0.most } == 2)
        #expect(await pool.leasedCount == 0)
        try await pool.close()
    }

    @Test func closeFailsNewWorkAndClosesOnce() async throws {
        let path = temporaryDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let recorder = RecordingDisposalObserver()
        let pool = try await SQLiteConnectionPool.open(
            path: path, size: 1, logger: Logger(label: "test"),
            observer: recorder)
        try await pool.dispose()
        #expect(await pool.isClosed)
        await #expect(throws: PoolClosedError.self) { try await pool.withConnection { _ in 0 } }
        try await pool.close()
        #expect(recorder.disposals == ["SQLiteConnectionPool"])
    }
}
