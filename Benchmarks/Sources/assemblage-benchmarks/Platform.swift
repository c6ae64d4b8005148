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
        return String(decoding: buffer[0 ..< count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
        guard let pipe = popen("swift --version 2>&1", "r") else { return nil }
        var buffer = [CChar](repeating: 0, count: 512)
        let line = fgets(&buffer, Int32(buffer.count), pipe) != nil
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : nil
        // Drain the rest so the child does not block on a full pipe.
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {}
        pclose(pipe)
        guard let line else { return nil }
        let trimmed = line.trimmingSuffix { $0 == "\n" || $0 == "\r" }
        return trimmed.isEmpty ? nil : trimmed
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
        for _ in 0 ..< decimals { scale *= 10 }
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
