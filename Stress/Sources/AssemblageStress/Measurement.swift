// Clocks and memory figures for the stress scenarios and probes. Resident memory comes from /proc (Linux only;
// elsewhere nil, and the checks that need it say they were skipped), heap in use from mallinfo2() or the default
// malloc zone through the small C target AssemblageStressSupport.
import AssemblageStressSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measurements the probes take of their own process.
package enum ProcessMeasure {
    /// Monotonic time in nanoseconds.
    package static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Seconds since `start` (a value of ``now()``).
    package static func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }

    /// The resident set size in bytes (`VmRSS`), or nil where /proc is not available.
    package static func residentBytes() -> Int? { statusField("VmRSS:") }

    /// The peak resident set size in bytes (`VmHWM`), or nil where /proc is not available.
    package static func peakResidentBytes() -> Int? { statusField("VmHWM:") }

    /// Bytes of heap in use (glibc's `mallinfo2()`: `uordblks + hblkhd`), or nil where it cannot be read.
    package static func heapBytesInUse() -> Int? {
        let bytes = assemblage_stress_heap_bytes_in_use()
        return bytes < 0 ? nil : Int(bytes)
    }

    private static func statusField(_ prefix: String) -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            // "VmRSS:\t   12345 kB"
            let digits = line.dropFirst(prefix.count).filter(\.isNumber)
            return Int(digits).map { $0 * 1_024 }
        }
        return nil
        #else
        return nil
        #endif
    }
}
