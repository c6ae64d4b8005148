import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended.
struct ChildOutcome {
    enum Ending {
        case exited(Int32)
        case signal(Int32)
        case hung(seconds: Double)
    }

    var ending: Ending
    var stdout: String
    var stderr: String
    var seconds: Double

    /// The first line of stdout that starts with `prefix`, without it.
    func line(after prefix: String) -> String? {
        stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The last `count` lines of stderr, indented, for a failure report.
    func stderrTail(_ count: Int = 12) -> String {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).suffix(count)
            .map { "        \($0)" }.joined(separator: "\n")
    }

    var description: String {
        switch ending {
        case .exited(let status): "exit status \(status)"
        case .signal(let signal): "crashed: \(signalName(signal))"
        case .hung(let seconds): "hung: killed after \(format(seconds)) s"
        }
    }
}

func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
        SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
    ]
    return names[signal] ?? "signal \(signal)"
}

/// Runs this executable again with `arguments`, its output in temporary files (so a chatty crash report cannot
/// fill a pipe and stall it), and kills it after `timeout` seconds.
func runChild(_ arguments: [String], timeout: Double) -> ChildOutcome {
    guard let executable = Bundle.main.executableURL else {
        return ChildOutcome(ending: .exited(-1), stdout: "", stderr: "cannot find this executable", seconds: 0)
    }
    let directory = FileManager.default.temporaryDirectory
    let token = UUID().uuidString
    let outURL = directory.appendingPathComponent("assemblage-stress-\(token).out")
    let errURL = directory.appendingPathComponent("assemblage-stress-\(token).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    // A crash is counted, not investigated here: the runtime's symbolicating backtracer takes seconds a crash.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let start = Date()
    do {
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        var ending: ChildOutcome.Ending
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            ended.wait()
            ending = .hung(seconds: timeout)
        } else if process.terminationReason == .uncaughtSignal {
            ending = .signal(process.terminationStatus)
        } else {
            ending = .exited(process.terminationStatus)
        }
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return ChildOutcome(ending: ending, stdout: stdout, stderr: stderr, seconds: Date().timeIntervalSince(start))
    } catch {
        return ChildOutcome(ending: .exited(-1), stdout: "", stderr: "could not start a child: \(error)", seconds: 0)
    }
}
