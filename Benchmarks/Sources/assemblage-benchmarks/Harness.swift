// Timing: calibration, warm-up, interleaved batches, medians. Imports neither library.

struct Settings {
    /// Timed batches per contestant; the reported figure is their median.
    var batches = 21
    /// Target length of one batch.
    var batchNanoseconds: Double = 10_000_000
    /// Untimed running before the first batch, per contestant.
    var warmUpNanoseconds: Double = 100_000_000
    /// Print min / median / max per contestant to stderr.
    var verbose = false

    static let quick = Settings(batches: 5, batchNanoseconds: 2_000_000, warmUpNanoseconds: 10_000_000)
}

struct Measurement {
    /// ns per operation of each batch, in the order run.
    let samples: [Double]
    let iterationsPerBatch: Int

    var median: Double {
        let sorted = samples.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }
}

struct Row {
    let workload: Workload
    var results: [Contestant: Measurement] = [:]

    func nanoseconds(_ contestant: Contestant) -> Double? {
        results[contestant]?.median
    }
}

enum Harness {
    /// Nanoseconds that `run(iterations)` took.
    @inline(never)
    static func time(_ run: Run, _ iterations: Int) -> Double {
        let start = Platform.now()
        run(iterations)
        let end = Platform.now()
        return Double(end &- start)
    }

    /// Iterations that make one batch last about `target` ns. Grows geometrically from 1,
    /// so the first (slow) calls of a contestant happen here rather than in a timed batch.
    static func calibrate(_ run: Run, target: Double) -> Int {
        var iterations = 1
        while true {
            let elapsed = time(run, iterations)
            if elapsed >= target / 8 || iterations >= 1 << 32 {
                let perOp = Swift.max(elapsed, 1) / Double(iterations)
                return Swift.max(1, Int(target / perOp))
            }
            iterations *= 4
        }
    }

    /// Measures every available contestant of `workload` in this process.
    /// Contestants take turns batch by batch (in rotating order), so slow drift of the machine
    /// — frequency, another process on the second core — falls on all of them alike.
    static func measure(_ workload: Workload, contestants: [Contestant], settings: Settings) -> Row {
        var row = Row(workload: workload)
        var runs: [(Contestant, Run, Int)] = []
        for contestant in contestants {
            guard let setup = workload.setup(for: contestant) else { continue }
            let run = setup()
            let iterations = calibrate(run, target: settings.batchNanoseconds)
            runs.append((contestant, run, iterations))
        }
        for (_, run, iterations) in runs {
            var warmed = 0.0
            while warmed < settings.warmUpNanoseconds {
                warmed += time(run, iterations)
            }
        }
        var samples = Array(repeating: [Double](), count: runs.count)
        for batch in 0 ..< settings.batches {
            for turn in 0 ..< runs.count {
                let index = (batch + turn) % runs.count
                let (_, run, iterations) = runs[index]
                samples[index].append(time(run, iterations) / Double(iterations))
            }
        }
        for (index, (contestant, _, iterations)) in runs.enumerated() {
            row.results[contestant] = Measurement(samples: samples[index], iterationsPerBatch: iterations)
        }
        return row
    }
}

// MARK: - Output

enum Report {
    static let columns = [
        "workload", "hand-written ns", "Assemblage ns", "Swinject ns", "Assemblage/hand", "Swinject/Assemblage",
    ]

    static func cells(_ row: Row) -> [String] {
        let hand = row.nanoseconds(.hand)
        let assemblage = row.nanoseconds(.assemblage)
        let swinject = row.nanoseconds(.swinject)
        return [
            row.workload.name,
            Format.nanoseconds(hand),
            Format.nanoseconds(assemblage),
            Format.nanoseconds(swinject),
            Format.ratio(assemblage, hand),
            Format.ratio(swinject, assemblage),
        ]
    }

    static func header(settings: Settings, quick: Bool) -> [String] {
        var lines: [String] = []
        lines.append("Assemblage benchmarks — \(Platform.date())")
        lines.append("machine: \(Platform.machine()), \(Platform.cores()) cores")
        let swift = Platform.swiftVersionLine() ?? "swift --version: not found"
        lines.append("swift: \(swift) (binary compiled with Swift \(Platform.compiledWith))")
        let mode = Platform.isDebugBuild ? "DEBUG BUILD — numbers are meaningless, use -c release" : "release"
        lines.append("build: \(mode); \(settings.batches) batches of ~\(Format.fixed(settings.batchNanoseconds / 1e6, 0)) ms"
            + " per contestant, interleaved, after ~\(Format.fixed(settings.warmUpNanoseconds / 1e6, 0)) ms warm-up;"
            + " figure = median ns/op of the batches" + (quick ? " (--quick)" : ""))
        return lines
    }

    static func plainTable(_ rows: [Row]) -> String {
        let body = rows.map(cells)
        var widths = columns.map(\.count)
        for cells in body {
            for (i, cell) in cells.enumerated() { widths[i] = Swift.max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == 0 ? cell.padded(to: widths[i], right: false) : cell.padded(to: widths[i])
            }.joined(separator: "  ")
        }
        var out = [line(columns)]
        out.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        out += body.map(line)
        return out.joined(separator: "\n")
    }

    static func markdownTable(_ rows: [Row]) -> String {
        var out = ["| " + columns.joined(separator: " | ") + " |"]
        out.append("|" + columns.enumerated().map { i, _ in i == 0 ? "---" : "---:" }.joined(separator: "|") + "|")
        for row in rows {
            var cells = cells(row)
            cells[0] = "`\(cells[0])`"
            out.append("| " + cells.joined(separator: " | ") + " |")
        }
        return out.joined(separator: "\n")
    }

    static func verboseLine(_ row: Row) -> String {
        let parts = Contestant.allCases.compactMap { c -> String? in
            guard let m = row.results[c] else { return nil }
            return "\(c.rawValue) min \(Format.nanoseconds(m.min)) / med \(Format.nanoseconds(m.median))"
                + " / max \(Format.nanoseconds(m.max)) ns (\(Format.grouped(m.iterationsPerBatch)) it/batch)"
        }
        return "  \(row.workload.name): " + parts.joined(separator: "; ")
    }
}
