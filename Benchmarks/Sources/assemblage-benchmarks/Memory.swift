import BenchmarkSupport
import ScaleFixtures

// Memory of register.10000: resident memory from /proc/self/status and bytes of heap per
// registration, for Assemblage and Swinject. Each library is measured in a child process of its own
// (this executable with `--memory-probe`), so that neither sees the other's peak or caches.
// Imports neither library.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Memory {
    /// What one child process measured. Memory in bytes; `nil` where the platform does not say.
    struct Result {
        /// VmRSS before anything was registered.
        var rssBefore: Int?
        /// VmHWM with the first container still alive: the process's peak resident memory.
        var peakAfter: Int?
        /// VmRSS at the same moment.
        var rssAfter: Int?
        /// Heap in use after the first container registered and resolved everything, minus before.
        /// Includes what the Swift runtime and the library cache once per process.
        var firstRunHeap: Int?
        /// Heap growth of a second container (the first released) after registering; per registration.
        var perRegistration: Double?
        /// The same after resolving each registration once.
        var perRegistrationResolved: Double?
    }

    /// (VmRSS, VmHWM) in bytes, from /proc/self/status (Linux only).
    static func residentMemory() -> (rss: Int, hwm: Int)? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var rss: Int?
        var hwm: Int?
        var buffer = [CChar](repeating: 0, count: 256)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // "VmHWM:\t   12345 kB"
            func kilobytes() -> Int? {
                line.split(separator: " ", omittingEmptySubsequences: true)
                    .compactMap { Int($0.trimmingCharacters(in: "\t:")) }.first.map { $0 * 1024 }
            }
            if line.hasPrefix("VmRSS:") { rss = kilobytes() }
            if line.hasPrefix("VmHWM:") { hwm = kilobytes() }
        }
        guard let rss, let hwm else { return nil }
        return (rss, hwm)
    }

    static func heapInUse() -> Int? {
        let bytes = benchmark_heap_bytes_in_use()
        return bytes < 0 ? nil : Int(bytes)
    }

    static func probe(for contestant: Contestant) -> MemoryProbe? {
        switch contestant {
        case .hand: nil
        case .assemblage: AssemblageWorkloads.memoryProbe
        case .swinject: SwinjectWorkloads.memoryProbe
        }
    }

    /// The child's side: runs register.10000 twice and prints one `memory …` line. Never returns.
    static func runProbe(_ contestant: Contestant) -> Never {
        guard let probe = probe(for: contestant) else {
            Platform.printError("\(contestant.title) has no memory probe")
            exit(3)
        }
        let before = residentMemory()
        let heap0 = heapInUse()
        var first: AnyObject? = probe.register()
        if probe.resolveAll(first!) != ScaleShapes.registeredTypes.count {
            Check.fail("memory probe: not all resolved")
        }
        let heap1 = heapInUse()
        let after = residentMemory()
        first = nil

        let heap2 = heapInUse()
        let second = probe.register()
        let heap3 = heapInUse()
        if probe.resolveAll(second) != ScaleShapes.registeredTypes.count {
            Check.fail("memory probe: not all resolved")
        }
        let heap4 = heapInUse()
        withExtendedLifetime(second) {}
        withExtendedLifetime(first) {}

        func difference(_ a: Int?, _ b: Int?) -> String { a.flatMap { a in b.map { String($0 - a) } } ?? "-" }
        func field(_ value: Int?) -> String { value.map(String.init) ?? "-" }
        print(
            "memory rssBefore=\(field(before?.rss)) peakAfter=\(field(after?.hwm)) rssAfter=\(field(after?.rss))"
                + " firstRunHeap=\(difference(heap0, heap1)) registered=\(difference(heap2, heap3))"
                + " resolved=\(difference(heap2, heap4))")
        exit(0)
    }

    /// The parent's side: runs this executable with `--memory-probe` for each library.
    static func measure(_ contestants: [Contestant]) -> [Contestant: Result] {
        guard let executable = Platform.executablePath() else { return [:] }
        var results: [Contestant: Result] = [:]
        for contestant in contestants where probe(for: contestant) != nil {
            let command = "'\(executable)' --memory-probe \(contestant.rawValue)"
            guard let output = Platform.run(command) else {
                Platform.printError("memory probe for \(contestant.title) failed")
                continue
            }
            guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("memory ") }) else {
                Platform.printError("memory probe for \(contestant.title) printed no result:\n\(output)")
                continue
            }
            var values: [String: Int] = [:]
            for pair in line.split(separator: " ").dropFirst() {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
            }
            let registrations = Double(ScaleShapes.registeredTypes.count)
            results[contestant] = Result(
                rssBefore: values["rssBefore"],
                peakAfter: values["peakAfter"],
                rssAfter: values["rssAfter"],
                firstRunHeap: values["firstRunHeap"],
                perRegistration: values["registered"].map { Double($0) / registrations },
                perRegistrationResolved: values["resolved"].map { Double($0) / registrations }
            )
        }
        return results
    }

    static let columns = [
        "library", "RSS before", "peak RSS after (VmHWM)", "RSS after", "heap growth, first run",
        "heap per registration", "after resolving each once",
    ]

    static func rows(_ results: [Contestant: Result]) -> [[String]] {
        [Contestant.assemblage, .swinject].compactMap { contestant in
            guard let r = results[contestant] else { return nil }
            func mebibytes(_ bytes: Int?) -> String {
                bytes.map { Format.fixed(Double($0) / 1_048_576, 1) + " MiB" } ?? "—"
            }
            func perRegistration(_ bytes: Double?) -> String {
                bytes.map { Format.fixed($0, 0) + " B" } ?? "—"
            }
            return [
                contestant.title, mebibytes(r.rssBefore), mebibytes(r.peakAfter), mebibytes(r.rssAfter),
                mebibytes(r.firstRunHeap), perRegistration(r.perRegistration),
                perRegistration(r.perRegistrationResolved),
            ]
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(self).trimmingCharacters(in: set)
    }
}
