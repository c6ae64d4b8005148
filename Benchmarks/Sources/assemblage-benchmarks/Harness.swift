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
    /// Nanoseconds that `run(iterations)` took. Releases what the run kept afterwards, untimed.
    @inline(never)
    static func time(_ run: Run, _ iterations: Int) -> Double {
        let start = Platform.now()
        run(iterations)
        let end = Platform.now()
        settle()
        return Double(end &- start)
    }

    /// Iterations that make one batch last about `target` ns. Grows geometrically from `start`,
    /// so the first (slow) calls of a contestant happen here rather than in a timed batch.
    static func calibrate(_ run: Run, target: Double, start: Int = 1) -> Int {
        var iterations = start
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
    ///
    /// Throughput workloads start and join their threads in every batch, so their batches are five
    /// times longer and their calibration starts at 1,024 resolves: otherwise starting threads
    /// (tens of µs) would be most of a short batch and the figure would measure that.
    static func measure(_ workload: Workload, contestants: [Contestant], settings: Settings) -> Row {
        var row = Row(workload: workload)
        var runs: [(Contestant, Run, Int)] = []
        let threaded = workload.kind == .throughput
        let target = settings.batchNanoseconds * (threaded ? 5 : 1)
        for contestant in contestants {
            guard let setup = workload.setup(for: contestant) else { continue }
            let run = setup()
            let iterations = calibrate(run, target: target, start: threaded ? 1024 : 1)
            runs.append((contestant, run, iterations))
        }
        for (_, run, iterations) in runs {
            var warmed = 0.0
            while warmed < settings.warmUpNanoseconds {
                warmed += time(run, iterations)
            }
        }
        var samples = Array(repeating: [Double](), count: runs.count)
        for batch in 0..<settings.batches {
            for turn in 0..<runs.count {
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
    static func columns(_ kind: WorkloadKind) -> [String] {
        let unit = kind == .setup ? "ms" : "ns"
        return [
            "workload", "hand-written \(unit)", "Assemblage \(unit)", "Swinject \(unit)",
            "Assemblage/hand", "Swinject/Assemblage",
        ]
    }

    static func title(_ kind: WorkloadKind) -> String {
        switch kind {
        case .resolve:
            "Resolves: median ns per resolve"
        case .setup:
            "Registration, assembly and validation: median ms per operation (each operation builds everything anew)"
        case .throughput:
            "Throughput of resolve.graph10: median ns of wall time per resolve, all workers together"
        }
    }

    static func value(_ nanoseconds: Double?, _ kind: WorkloadKind) -> String {
        kind == .setup ? Format.milliseconds(nanoseconds) : Format.nanoseconds(nanoseconds)
    }

    static func cells(_ row: Row) -> [String] {
        let hand = row.nanoseconds(.hand)
        let assemblage = row.nanoseconds(.assemblage)
        let swinject = row.nanoseconds(.swinject)
        let kind = row.workload.kind
        return [
            row.workload.name,
            value(hand, kind),
            value(assemblage, kind),
            value(swinject, kind),
            Format.ratio(assemblage, hand),
            Format.ratio(swinject, assemblage),
        ]
    }

    static func header(settings: Settings, quick: Bool) -> [String] {
        var lines: [String] = []
        lines.append("Assemblage benchmarks — \(Platform.date())")
        let load = Platform.loadAverage().map { "; load average \($0) at start" } ?? ""
        lines.append("machine: \(Platform.machine()), \(Platform.cores()) cores\(load)")
        let swift = Platform.swiftVersionLine() ?? "swift --version: not found"
        lines.append("swift: \(swift) (binary compiled with Swift \(Platform.compiledWith))")
        let mode = Platform.isDebugBuild ? "DEBUG BUILD — numbers are meaningless, use -c release" : "release"
        lines.append(
            "build: \(mode); \(settings.batches) batches of ~\(Format.fixed(settings.batchNanoseconds / 1e6, 0)) ms"
                + " (throughput: ~\(Format.fixed(settings.batchNanoseconds * 5 / 1e6, 0)) ms) per contestant, interleaved, after ~\(Format.fixed(settings.warmUpNanoseconds / 1e6, 0)) ms warm-up;"
                + " figure = median of the batches" + (quick ? " (--quick)" : ""))
        return lines
    }

    /// Every table of the run: one per kind of workload, the scaling and target summaries, memory.
    static func render(
        _ rows: [Row], cold: [String: [Contestant: Double]], memory: [Contestant: Memory.Result]?,
        markdown: Bool
    ) -> String {
        var sections: [String] = []
        func add(_ title: String, _ header: [String], _ body: [[String]], codeFirstColumn: Bool = true) {
            let table =
                markdown
                ? markdownTable(header, body, codeFirstColumn: codeFirstColumn)
                : plainTable(header, body)
            sections.append(title + "\n\n" + table)
        }
        for kind in WorkloadKind.allCases {
            let selected = rows.filter { $0.workload.kind == kind }
            if !selected.isEmpty { add(title(kind), columns(kind), selected.map(cells)) }
        }
        let coldBody = coldRows(rows, cold)
        if !coldBody.isEmpty {
            add(
                "First operation in a fresh process (median of \(Cold.runs) processes, ms; setup incl. its check)"
                    + " beside the steady-state figure above",
                [
                    "workload", "Assemblage first", "Assemblage steady", "Swinject first", "Swinject steady",
                    "Swinject/Assemblage (first)",
                ],
                coldBody)
        }
        let scaling = scalingRows(rows)
        if !scaling.isEmpty {
            add(
                "Scaling of throughput.graph10 (resolves per second relative to 1 thread; 2.00× is all of 2 cores)",
                ["contestant", "1 thread ns", "2 threads ns", "2 threads/1 thread", "8 tasks ns", "8 tasks/1 thread"],
                scaling, codeFirstColumn: false)
        }
        if let memory, !memory.isEmpty {
            add(
                "Memory of register.10000 (one child process per library; 10,000 registrations)",
                Memory.columns, Memory.rows(memory), codeFirstColumn: false)
        }
        let targets = targetRows(rows, cold: cold, memory: memory)
        if !targets.isEmpty {
            add(
                "Targets, Assemblage",
                ["target", "measured", "goal", "met"], targets, codeFirstColumn: false)
        }
        return sections.joined(separator: "\n\n")
    }

    static func row(_ rows: [Row], _ name: String) -> Row? {
        rows.first { $0.workload.name == name }
    }

    static func coldRows(_ rows: [Row], _ cold: [String: [Contestant: Double]]) -> [[String]] {
        workloads.compactMap { workload in
            guard let figures = cold[workload.name], !figures.isEmpty else { return nil }
            let steady = row(rows, workload.name)
            return [
                workload.name,
                Format.milliseconds(figures[.assemblage]), Format.milliseconds(steady?.nanoseconds(.assemblage)),
                Format.milliseconds(figures[.swinject]), Format.milliseconds(steady?.nanoseconds(.swinject)),
                Format.ratio(figures[.swinject], figures[.assemblage]),
            ]
        }
    }

    static func scalingRows(_ rows: [Row]) -> [[String]] {
        guard let one = row(rows, "throughput.graph10.threads1") else { return [] }
        let two = row(rows, "throughput.graph10.threads2")
        let tasks = row(rows, "throughput.graph10.tasks8")
        return Contestant.allCases.compactMap { contestant in
            guard let base = one.nanoseconds(contestant) else { return nil }
            let twoNs = two?.nanoseconds(contestant)
            let tasksNs = tasks?.nanoseconds(contestant)
            return [
                contestant.title, Format.nanoseconds(base), Format.nanoseconds(twoNs), Format.ratio(base, twoNs),
                Format.nanoseconds(tasksNs), Format.ratio(base, tasksNs),
            ]
        }
    }

    /// The performance targets that this run measured, each with the figure and whether it is met.
    static func targetRows(
        _ rows: [Row], cold: [String: [Contestant: Double]],
        memory: [Contestant: Memory.Result]?
    ) -> [[String]] {
        var out: [[String]] = []
        func verdict(_ met: Bool) -> String { met ? "yes" : "no" }
        if let tree = row(rows, "resolve.moduleTree200")?.nanoseconds(.assemblage),
            let flat = row(rows, "resolve.moduleTree200.flat")?.nanoseconds(.assemblage)
        {
            out.append([
                "resolve.moduleTree200 ÷ resolve.moduleTree200.flat", Format.ratio(tree, flat),
                "≤ 1.05× (as fast as a flat container, within timing noise)", verdict(tree / flat <= 1.05),
            ])
        }
        for (name, limit) in [("register.10000", 10.0), ("assemble.moduleTree1000", 50.0)] {
            if let ns = row(rows, name)?.nanoseconds(.assemblage) {
                out.append([
                    name, Format.milliseconds(ns) + " ms", "≤ \(Int(limit)) ms",
                    verdict(ns <= limit * 1_000_000),
                ])
            }
            if let ns = cold[name]?[.assemblage] {
                out.append([
                    name + ", first in a fresh process", Format.milliseconds(ns) + " ms",
                    "≤ \(Int(limit)) ms", verdict(ns <= limit * 1_000_000),
                ])
            }
        }
        if let one = row(rows, "throughput.graph10.threads1")?.nanoseconds(.assemblage),
            let two = row(rows, "throughput.graph10.threads2")?.nanoseconds(.assemblage)
        {
            out.append([
                "throughput.graph10, 2 threads ÷ 1 thread", Format.ratio(one, two), "≥ 1.80×",
                verdict(one / two >= 1.8),
            ])
        }
        if let bytes = memory?[.assemblage]?.perRegistration {
            out.append([
                "heap per registration (register.10000)", Format.fixed(bytes, 0) + " B",
                "≤ ~200 B", verdict(bytes <= 200),
            ])
        }
        return out
    }

    static func plainTable(_ header: [String], _ body: [[String]]) -> String {
        var widths = header.map(\.count)
        for cells in body {
            for (i, cell) in cells.enumerated() { widths[i] = Swift.max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == 0 ? cell.padded(to: widths[i], right: false) : cell.padded(to: widths[i])
            }.joined(separator: "  ")
        }
        var out = [line(header)]
        out.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        out += body.map(line)
        return out.joined(separator: "\n")
    }

    static func markdownTable(_ header: [String], _ body: [[String]], codeFirstColumn: Bool) -> String {
        var out = ["| " + header.joined(separator: " | ") + " |"]
        out.append("|" + header.enumerated().map { i, _ in i == 0 ? "---" : "---:" }.joined(separator: "|") + "|")
        for cells in body {
            var cells = cells
            if codeFirstColumn { cells[0] = "`\(cells[0])`" }
            out.append("| " + cells.joined(separator: " | ") + " |")
        }
        return out.joined(separator: "\n")
    }

    static func verboseLine(_ row: Row) -> String {
        let parts = Contestant.allCases.compactMap { c -> String? in
            guard let m = row.results[c] else { return nil }
            return "\(c.rawValue) min \(value(m.min, row.workload.kind)) / med \(value(m.median, row.workload.kind))"
                + " / max \(value(m.max, row.workload.kind)) (\(Format.grouped(m.iterationsPerBatch)) it/batch)"
        }
        return "  \(row.workload.name): " + parts.joined(separator: "; ")
    }
}
