import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `todo-server` executable run as a child process, with its own environment and working directory,
/// its output captured. Every wait is bounded; a child still running when the test is done is killed.
final class ChildProcess {
    /// Where `swift build` and `swift test` put the package's executables: beside the test bundle.
    static func executable(_ name: String) throws -> URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = (Bundle.main.executableURL ?? testBinary).deletingLastPathComponent()
        // On Apple platforms the test binary is inside an .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents"
            || directory.lastPathComponent == "MacOS"
        {
            directory.deleteLastPathComponent()
        }
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Failure(
                "No \(name) at \(url.path): swift test builds it; so does "
                    + "swift build --package-path Examples/TodoServer --product \(name).")
        }
        return url
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private let process: Process
    private let output = Output()

    /// What the child wrote so far.
    private final class Output: Sendable {
        let data = Mutex((stdout: Data(), stderr: Data()))
    }

    /// Starts `todo-server` (or another of the package's executables).
    ///
    /// - Parameters:
    ///   - name: The executable.
    ///   - arguments: Its arguments.
    ///   - environment: Added to a minimal environment (`PATH`, `HOME`); no `TODO_` variable of the test
    ///     process's own leaks in.
    ///   - workingDirectory: Its working directory.
    init(
        _ name: String = "todo-server", arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: URL
    ) throws {
        process = Process()
        process.executableURL = try Self.executable(name)
        process.arguments = arguments
        var base = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "TMPDIR"].contains($0.key) }
        base.merge(environment) { $1 }
        process.environment = base
        process.currentDirectoryURL = workingDirectory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let output = output
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            output.data.withLock { $0.stdout.append(data) }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            output.data.withLock { $0.stderr.append(data) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var standardOutput: String { String(decoding: output.data.withLock { $0.stdout }, as: UTF8.self) }
    var standardError: String { String(decoding: output.data.withLock { $0.stderr }, as: UTF8.self) }

    /// Waits until standard error has a line containing `text`.
    ///
    /// - Returns: That line.
    /// - Throws: ``Failure`` when the process exits first or `limit` passes.
    func waitForErrorLine(containing text: String, limit: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let line = standardError.split(separator: "\n").first(where: { $0.contains(text) }) {
                return String(line)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure("no line with \"\(text)\" on standard error; it has: \(standardError)")
    }

    /// Sends a signal (SIGTERM for a graceful stop, SIGKILL for a crash).
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit.
    ///
    /// - Returns: Its exit status, or the signal that ended it (`killed`).
    /// - Throws: ``Failure`` when it is still running after `limit` (it is killed then).
    func waitForExit(limit: Duration = .seconds(60)) async throws -> (status: Int32, killed: Bool) {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw Failure("still running after \(limit); killed. Standard error: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        // Let the readability handlers take the last bytes.
        try await Task.sleep(for: .milliseconds(50))
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    /// A TCP port free on 127.0.0.1 now (the kernel's pick for port 0), for a child that must be told its port.
    static func freeLoopbackPort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw Failure("bind() failed") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw Failure("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
