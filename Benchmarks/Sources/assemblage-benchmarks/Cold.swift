// The first operation of a setup workload in a fresh process: what an app pays at launch, when the
// Swift runtime has not yet looked up the conformances and metadata of its types. The steady-state
// figures of the setup table come from operations repeated in one process, after these caches are
// warm. Imports neither library.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Cold {
    /// Fresh processes per workload and contestant; the figure is their median.
    static let runs = 3

    /// The child's side: times `setup()` (the workload's first operation and its check) and prints
    /// `cold NANOSECONDS`. Never returns.
    static func runProbe(_ setup: Setup) -> Never {
        let start = Platform.now()
        let run = setup()
        let end = Platform.now()
        withExtendedLifetime(run) {}
        print("cold \(end &- start)")
        exit(0)
    }

    /// The parent's side: the median over `runs` fresh processes, per contestant that has the workload.
    static func measure(_ workload: Workload, runs: Int) -> [Contestant: Double] {
        guard let executable = Platform.executablePath() else { return [:] }
        var results: [Contestant: Double] = [:]
        for contestant in Contestant.allCases where workload.setup(for: contestant) != nil {
            var samples: [Double] = []
            for _ in 0..<runs {
                let command = "'\(executable)' --cold \(workload.name) --contestant \(contestant.rawValue)"
                guard let output = Platform.run(command),
                    let line = output.split(separator: "\n").first(where: { $0.hasPrefix("cold ") }),
                    let nanoseconds = Double(line.dropFirst("cold ".count))
                else {
                    Platform.printError("cold run of \(workload.name) for \(contestant.title) failed")
                    continue
                }
                samples.append(nanoseconds)
            }
            if !samples.isEmpty { results[contestant] = Measurement(samples: samples, iterationsPerBatch: 1).median }
        }
        return results
    }
}
