import AsyncHTTPClient
import Foundation
import NIOCore
import SQLiteNIO
import Testing
import TodoServerCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `todo-server` executable, run as a child process on 127.0.0.1: how it refuses wrong settings, where
/// it finds its configuration and database, and what a crash loses.
@Suite(.serialized) struct ExecutableTests {
    private func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.resolvingSymlinksInPath()
    }

    /// A wrong option or setting stops the server before it opens anything: status 2, one line on standard
    /// error that names the option or variable, the value and what is accepted, nothing on standard output.
    @Test(
        arguments: [
            (
                [], ["TODO_HTTP_PORT": "abc"],
                #"todo-server: TODO_HTTP_PORT is "abc"; http.port takes a whole number from 1 to 65535."#
            ),
            (
                [], ["TODO_HTTP_PORT": "0"],
                "todo-server: TODO_HTTP_PORT is 0; http.port takes a whole number from 1 to 65535."
            ),
            (
                [], ["TODO_DATABASE_POOL_SIZE": "lots"],
                #"todo-server: TODO_DATABASE_POOL_SIZE is "lots"; database.poolSize takes a whole number from 1 to 64."#
            ),
            (
                [], ["TODO_AUDIT_BATCH_SIZE": "abc"],
                #"todo-server: TODO_AUDIT_BATCH_SIZE is "abc"; audit.batchSize takes a whole number from 1 to 1000."#
            ),
            (["--bogus"], [:], "todo-server: unknown option --bogus; todo-server takes --config FILE, --help."),
            (["--config"], [:], "todo-server: --config needs a value: --config FILE."),
            (
                ["--config", "/nonexistent/todo.json"], [:],
                "todo-server: --config names /nonexistent/todo.json, which does not exist."
            ),
            (
                [], ["TODO_CONFIG_FILE": "/nonexistent/todo.json"],
                "todo-server: TODO_CONFIG_FILE names /nonexistent/todo.json, which does not exist."
            ),
        ] as [([String], [String: String], String)])
    func aWrongOptionOrSettingIsRefusedWithOneLineAndStatus2(
        arguments: [String], environment: [String: String],
        line: String
    ) async throws {
        let folder = try temporaryFolder("refused")
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = environment
        // Were it to start anyway, it would not take a known port or leave a database behind.
        environment["TODO_DATABASE_PATH"] = folder.appendingPathComponent("todos.sqlite").path
        if environment["TODO_HTTP_PORT"] == nil {
            environment["TODO_HTTP_PORT"] = "\(try ChildProcess.freeLoopbackPort())"
        }
        let child = try ChildProcess(arguments: arguments, environment: environment, workingDirectory: folder)
        let exit = try await child.waitForExit(limit: .seconds(30))
        #expect(exit.status == 2 && !exit.killed, "\(child.standardError)")
        #expect(child.standardError == line + "\n")
        #expect(child.standardOutput.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was opened")
    }

    /// Started on a port another process holds, the server stops at once with status 1 and the bind error in its
    /// log; the pool it had opened is closed first (its disposal runs although the group was cancelled), and
    /// nothing crashes.
    @Test func aBusyPortStopsTheServerWithStatus1AndTheBindErrorWithinTwoSeconds() async throws {
        let folder = try temporaryFolder("busy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(holder >= 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(bound == 0 && listen(holder, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let started = ContinuousClock.now
        let child = try ChildProcess(
            environment: [
                "TODO_HTTP_PORT": "\(port)",
                "TODO_DATABASE_PATH": folder.appendingPathComponent("todos.sqlite").path,
            ],
            workingDirectory: folder)
        let exit = try await child.waitForExit(limit: .seconds(30))
        let elapsed = ContinuousClock.now - started
        #expect(exit.status == 1 && !exit.killed, "\(child.standardError)")
        #expect(elapsed < .seconds(2), "stopped after \(elapsed)")
        #expect(child.standardError.contains("Address already in use"), "\(child.standardError)")
        #expect(child.standardError.contains("closed SQLite pool"), "\(child.standardError)")
    }

    /// The README's `swift run --package-path Examples/TodoServer todo-server`, from another working directory:
    /// the server reads the example's own todo-server.json and leaves nothing in the working directory.
    @Test func theServerReadsTheExampleFileFromAnyWorkingDirectory() async throws {
        let workingDirectory = try temporaryFolder("cwd")
        let data = try temporaryFolder("data")
        defer { for folder in [workingDirectory, data] { try? FileManager.default.removeItem(at: folder) } }
        let port = try ChildProcess.freeLoopbackPort()
        let database = data.appendingPathComponent("todos.sqlite").path
        let child = try ChildProcess(
            environment: ["TODO_HTTP_PORT": "\(port)", "TODO_DATABASE_PATH": database],
            workingDirectory: workingDirectory)
        let started = try await child.waitForErrorLine(containing: "starting todo-server")
        let example = TodoServerConfiguration.exampleConfigurationFile
        #expect(started.contains("configuration_file=\(example)"), "\(started)")
        #expect(started.contains("database=\(database)"), "\(started)")
        _ = try await child.waitForErrorLine(containing: "listening on 127.0.0.1:\(port)")

        let health = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)/health"),
            timeout: .seconds(10))
        #expect(health.status == .ok)
        #expect(health.headers.first(name: "X-Request-ID") != nil)

        child.signal(SIGTERM)
        let exit = try await child.waitForExit()
        #expect(exit.status == 0 && !exit.killed, "\(child.standardError)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: workingDirectory.path).isEmpty,
            "nothing left in the working directory")
        #expect(FileManager.default.fileExists(atPath: database))
    }

    /// `--config FILE` names the settings; a relative `database.path` in it is beside the file, not in the
    /// working directory.
    @Test func aRelativeDatabasePathInTheConfigFileIsBesideTheFile() async throws {
        let workingDirectory = try temporaryFolder("cwd")
        let settings = try temporaryFolder("settings")
        defer { for folder in [workingDirectory, settings] { try? FileManager.default.removeItem(at: folder) } }
        let port = try ChildProcess.freeLoopbackPort()
        let file = settings.appendingPathComponent("todo.json")
        try Data(#"{"http": {"port": \#(port)}, "database": {"path": "db/todos.sqlite", "poolSize": 2}}"#.utf8)
            .write(to: file)
        try FileManager.default.createDirectory(
            at: settings.appendingPathComponent("db"),
            withIntermediateDirectories: true)
        let child = try ChildProcess(arguments: ["--config", file.path], workingDirectory: workingDirectory)
        let started = try await child.waitForErrorLine(containing: "starting todo-server")
        let database = settings.appendingPathComponent("db/todos.sqlite").path
        #expect(
            started.contains("configuration_file=\(file.path)") && started.contains("database=\(database)")
                && started.contains("pool_size=2"), "\(started)")
        _ = try await child.waitForErrorLine(containing: "listening on 127.0.0.1:\(port)")
        child.signal(SIGTERM)
        let exit = try await child.waitForExit()
        #expect(exit.status == 0, "\(child.standardError)")
        #expect(FileManager.default.fileExists(atPath: database))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workingDirectory.path).isEmpty)
    }

    /// What a crash loses: the audit rows still in the audit log's buffer (up to a batch); the todos, each
    /// committed before its response, are all there. With a batch size of 1, or a graceful stop, nothing is lost.
    @Test func aKilledServerLosesOnlyTheAuditRowsStillBuffered() async throws {
        let requests = 58
        for (batchSize, signal, expectedAudit) in [(50, SIGKILL, 50), (1, SIGKILL, 58), (50, SIGTERM, 58)] {
            let folder = try temporaryFolder("crash")
            defer { try? FileManager.default.removeItem(at: folder) }
            let port = try ChildProcess.freeLoopbackPort()
            let database = folder.appendingPathComponent("todos.sqlite").path
            let child = try ChildProcess(
                environment: [
                    "TODO_HTTP_PORT": "\(port)", "TODO_DATABASE_PATH": database,
                    "TODO_AUDIT_BATCH_SIZE": "\(batchSize)",
                ],
                workingDirectory: folder)
            _ = try await child.waitForErrorLine(containing: "listening on 127.0.0.1:\(port)")
            for index in 0..<requests {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/todos")
                request.method = .POST
                request.headers.add(name: "X-User", value: "ada")
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: #"{"title":"n\#(index)"}"#))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                #expect(response.status == .created)
                _ = try await response.body.collect(upTo: 1 << 16)
            }
            child.signal(signal)
            let exit = try await child.waitForExit()
            #expect(exit.killed == (signal == SIGKILL) && (signal == SIGKILL || exit.status == 0))

            let connection = try await SQLiteConnection.open(storage: .file(path: database))
            let todos = try await connection.query("SELECT count(*) AS n FROM todos").first?.column("n")?.integer
            let audit = try await connection.query("SELECT count(*) AS n FROM audit").first?.column("n")?.integer
            try await connection.close()
            #expect(todos == requests)
            #expect(audit == expectedAudit, "batch size \(batchSize), \(signal == SIGKILL ? "SIGKILL" : "SIGTERM")")
            print(
                "[figure] \(requests) todos created, batch size \(batchSize), "
                    + "\(signal == SIGKILL ? "SIGKILL" : "SIGTERM"): \(todos ?? -1) todos and \(audit ?? -1) audit rows "
                    + "in the database (\(requests - (audit ?? 0)) audit rows lost)")
        }
    }
}
