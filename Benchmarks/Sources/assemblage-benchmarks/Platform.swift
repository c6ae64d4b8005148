// Clock, machine description and number formatting. Imports neither library (nor Foundation).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Platform {
    /// Monotonic time in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// UTC date and time, `2026-11-22 05:30:00 UTC`.
    static func date() -> String {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S UTC", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `uname -m`.
    static func machine() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &names.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    static func cores() -> Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// The compiler this binary was built with (exact to the minor version).
    static var compiledWith: String {
        #if compiler(>=7.0)
        ">= 7.0"
        #elseif compiler(>=6.5)
        "6.5"
        #elseif compiler(>=6.4)
        "6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }

    /// First line of `swift --version` from the PATH, if there is one.
    static func swiftVersionLine() -> String? {
        guard let output = run("swift --version 2>&1") else { return nil }
        let line = output.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let trimmed = line.trimmingSuffix { $0 == "\n" || $0 == "\r" }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Runs `command` with `/bin/sh` and returns its standard output, or `nil` when it could not be
    /// started or exited with a status other than 0.
    static func run(_ command: String) -> String? {
        guard let pipe = popen(command, "r") else { return nil }
        var output: [UInt8] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        }
        let status = pclose(pipe)
        return status == 0 ? String(decoding: output, as: UTF8.self) : nil
    }

    /// This executable's path (Linux: /proc/self/exe; elsewhere the first argument).
    static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #endif
        let first = CommandLine.arguments.first ?? ""
        return first.contains("/") ? first : nil
    }

    /// The three load averages from /proc/loadavg (Linux), for the header: a busy machine makes
    /// timings (above all the 2-thread ones) move.
    static func loadAverage() -> String? {
        guard let file = fopen("/proc/loadavg", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = line.split(separator: " ").prefix(3)
        return fields.count == 3 ? fields.joined(separator: " ") : nil
    }

    static var isDebugBuild: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    static func printError(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}

extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var s = Substring(self)
        while let last = s.last, predicate(last) { s.removeLast() }
        return String(s)
    }

    func padded(to width: Int, right: Bool = true) -> String {
        let pad = String(repeating: " ", count: max(0, width - count))
        return right ? pad + self : self + pad
    }
}

enum Format {
    /// `value` with `decimals` digits after the point, no Foundation.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "—" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let wholeText = grouped(whole)
        guard decimals > 0 else { return sign + wholeText }
        let fractionText = String(fraction)
        return sign + wholeText + "." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
    }

    /// 12,345
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    /// ms per operation, from ns: three significant digits (0.123, 1.23, 12.3, 123).
    static func milliseconds(_ nanoseconds: Double?) -> String {
        guard let nanoseconds else { return "—" }
        let ms = nanoseconds / 1_000_000
        return ms < 1 ? fixed(ms, 3) : ms < 10 ? fixed(ms, 2) : ms < 100 ? fixed(ms, 1) : fixed(ms, 0)
    }

    /// ns per operation: one decimal below 100 ns, whole numbers above.
    static func nanoseconds(_ value: Double?) -> String {
        guard let value else { return "—" }
        return value < 100 ? fixed(value, 1) : fixed(value, 0)
    }

    /// A ratio such as `1.05×` or `32.4×`.
    static func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "—" }
        let r = numerator / denominator
        return (r < 10 ? fixed(r, 2) : fixed(r, 1)) + "×"
    }
}
