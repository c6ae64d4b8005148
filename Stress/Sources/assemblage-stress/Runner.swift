import AssemblageStress
import Foundation

/// Runs the selected scenarios and probes in child processes and prints one summary line for each.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct Runner {
    let options: Options

    /// Hung runs of one scenario after which its remaining runs are skipped, so a deadlock costs CI minutes,
    /// not hours.
    static let hangsBeforeGivingUp = 2

    /// The exit status: 0 when everything passed.
    func main() -> Int32 {
        if let scenario = options.childScenario { return childScenario(scenario) }
        if let scenario = options.childScopeScenario { return childScopeScenario(scenario) }
        if let probe = options.childProbe { return childProbe(probe) }
        if options.list { return list() }

        #if DEBUG
        say("warning: a debug build; the stress targets are about release builds (swift run -c release …)")
        #endif
        let configuration = options.configuration
        say(
            "assemblage-stress: \(configuration.threads) reader threads × \(grouped(configuration.resolves)) resolves"
                + " × \(options.runs) runs per scenario, timing headroom ×\(options.timingHeadroom); "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(build)")
        if options.runScenarios && !options.scopeScenarios.isEmpty {
            say(
                "scope scenarios: \(options.chain)-node chain, a run starts no scope after "
                    + "\(format(options.scopeSeconds)) s, \(options.runs) runs each")
        }
        var failed: [String] = []
        if options.runScenarios {
            for scenario in options.scenarios where !runScenario(scenario) { failed.append(scenario.rawValue) }
            for scenario in options.scopeScenarios where !runScopeScenario(scenario) {
                failed.append(scenario.rawValue)
            }
        }
        if options.runProbes {
            for probe in options.probes where !runProbe(probe) { failed.append("probe \(probe.rawValue)") }
        }
        if failed.isEmpty {
            say("assemblage-stress: passed")
            return 0
        }
        say("assemblage-stress: FAILED: \(failed.joined(separator: ", "))")
        return 1
    }

    var build: String {
        #if DEBUG
        "debug build"
        #else
        "release build"
        #endif
    }

    // MARK: Children

    func childScenario(_ scenario: MutationScenario) -> Int32 {
        let result = runConcurrentMutation(scenario, options.configuration)
        say("@@result " + encode(result))
        return 0
    }

    func childScopeScenario(_ scenario: ScopeScenario) -> Int32 {
        let result = AssemblageStress.runScopeScenario(scenario, options.scopeConfiguration(scenario))
        say("@@scopes " + encode(result))
        return 0
    }

    func childProbe(_ probe: Probe) -> Int32 {
        let result = AssemblageStress.runProbe(probe, timingHeadroom: options.timingHeadroom)
        say("@@probe " + encode(result))
        return 0
    }

    func list() -> Int32 {
        say(
            "scenarios (N reader threads resolve a .container StressService and read its payload while one thread mutates):"
        )
        for scenario in MutationScenario.allCases { say("  \(scenario.rawValue): \(scenario.mutation)") }
        say(
            "scope scenarios (N threads; every disposable instance must be disposed exactly once, no value may cross"
                + " scopes, none may stay alive):")
        for scenario in ScopeScenario.allCases {
            let size = options.scopeConfiguration(scenario)
            say(
                "  \(scenario.rawValue): \(scenario.summary) (\(grouped(size.scopes)) \(scenario.scopesUnit)"
                    + (scenario == .sharedScopeEnd ? "" : " per thread") + ")")
        }
        say("probes:")
        for probe in Probe.allCases { say("  \(probe.rawValue): \(probe.summary)") }
        return 0
    }

    // MARK: Scenarios

    /// Runs `scenario` `options.runs` times, one child process each; prints the summary. True when all passed.
    func runScenario(_ scenario: MutationScenario) -> Bool {
        let configuration = options.configuration
        let runs = runInChildren(
            scenario.rawValue, ["--child-scenario", scenario.rawValue], marker: "@@result ", as: StressResult.self,
            problems: \.problems
        ) { result in
            "\(grouped(result.mutations)) mutations, \(grouped(result.missing)) nil, \(format(result.seconds)) s"
        }
        let results = runs.results
        let totalResolves = results.reduce(0) { $0 + $1.resolved + $1.missing }
        let missing = results.reduce(0) { $0 + $1.missing }
        let corrupt = results.reduce(0) { $0 + $1.corrupt }
        let mutations = results.reduce(0) { $0 + $1.mutations }
        let times = results.map(\.seconds)
        let rate = times.isEmpty ? 0 : Double(totalResolves) / times.reduce(0, +) / 1e6
        let peak =
            results.compactMap(\.peakResidentBytes).max().map { "\(format(Double($0) / 1e6, digits: 0)) MB" } ?? "-"
        say(
            "\(scenario.rawValue) [\(scenario.mutation)]: \(runs.verdict)"
                + "\(configuration.threads) threads × \(grouped(configuration.resolves)) resolves; "
                + "completed runs: \(grouped(totalResolves)) resolves (\(grouped(missing)) nil, \(grouped(corrupt)) corrupt), "
                + "\(grouped(mutations)) mutations, run time \(range(times)) s, \(format(rate)) M resolves/s, "
                + "peak RSS \(peak); wall \(format(runs.wall, digits: 1)) s")
        return runs.passed
    }

    // MARK: Scope scenarios

    /// Runs a scope scenario `options.runs` times, one child process each; prints the summary. True when all
    /// passed.
    func runScopeScenario(_ scenario: ScopeScenario) -> Bool {
        let size = options.scopeConfiguration(scenario)
        let runs = runInChildren(
            scenario.rawValue, ["--child-scope-scenario", scenario.rawValue], marker: "@@scopes ",
            as: ScopeStressResult.self, problems: \.problems
        ) { result in
            "\(grouped(result.scopes)) \(scenario.scopesUnit), \(grouped(result.disposed)) disposals, "
                + "\(format(result.seconds)) s" + (result.cutShort ? " (cut short by the time limit)" : "")
        }
        let results = runs.results
        func total(_ figure: KeyPath<ScopeStressResult, Int>) -> Int { results.reduce(0) { $0 + $1[keyPath: figure] } }
        let scopes = total(\.scopes)
        let times = results.map(\.seconds)
        let rate = times.isEmpty ? 0 : Double(scopes) / times.reduce(0, +) / 1e3
        let cut = results.filter(\.cutShort).count
        let peak =
            results.compactMap(\.peakResidentBytes).max().map { "\(format(Double($0) / 1e6, digits: 0)) MB" } ?? "-"
        var figures = [
            "\(grouped(scopes)) \(scenario.scopesUnit), \(grouped(total(\.resolves))) resolves",
            "\(grouped(total(\.created))) disposables made, \(grouped(total(\.disposed))) disposed "
                + "(\(grouped(total(\.doubleDisposed))) twice, "
                + "\(grouped(total(\.nodesUndisposed) + total(\.commandsUndisposed))) never"
                + (scenario == .sharedScopeEnd ? "" : ", \(grouped(total(\.outOfOrder))) out of order") + ")",
        ]
        switch scenario {
        case .concurrentScopes:
            figures.append(
                "\(grouped(total(\.uploadsCreated))) async disposables made, \(grouped(total(\.uploadsDisposed))) disposed"
            )
        case .sharedScopeEnd:
            figures.append(
                "\(grouped(total(\.scopeEndedErrors))) scopeEnded, \(grouped(total(\.resolvedAfterEnd))) resolved after "
                    + "the end, \(grouped(total(\.lateDisposals))) completed after the end and disposed by their creator, "
                    + "\(grouped(total(\.failingDisposals))) failed disposals (\(grouped(total(\.failuresThrown))) thrown by "
                    + "end(), \(grouped(total(\.failuresReported))) reported to the handler, "
                    + "\(grouped(total(\.failuresMisnamed))) under another key)")
        case .droppedScopes:
            let least = results.compactMap(\.reportStackLeast).min()
            let most = results.compactMap(\.reportStackMost).max()
            figures.append(
                "\(grouped(total(\.reports))) 'never ended' reports for \(grouped(total(\.expectedReports))) expected, "
                    + "\(grouped(total(\.asyncNotDisposedReported))) async disposables reported not disposed, "
                    + "handler reached at \(kibibytes(least))–\(kibibytes(most)) KiB of stack")
        case .sharedThroughScopes:
            figures.append("\(grouped(total(\.resolves))) shared instances reached through scopes, each checked")
        }
        figures.append(
            "\(grouped(total(\.otherErrors))) other errors, \(grouped(total(\.crossScope))) cross-scope, "
                + "\(grouped(total(\.duplicates))) duplicates, \(grouped(total(\.liveAfter))) alive after")
        say(
            "\(scenario.rawValue) [\(scenario.summary)]: \(runs.verdict)"
                + "\(size.threads) threads × \(grouped(size.scopes)) \(scenario.scopesUnit)"
                + (scenario == .sharedScopeEnd ? " (+1 ending thread)" : "") + ", \(size.chain)-node chain"
                + (cut > 0 ? ", \(cut) runs cut at \(format(size.seconds)) s" : "") + "; "
                + "completed runs: \(figures.joined(separator: "; ")); "
                + "run time \(range(times)) s, \(format(rate)) k \(scenario.scopesUnit)/s, "
                + "peak RSS \(peak); wall \(format(runs.wall, digits: 1)) s")
        return runs.passed
    }

    /// What repeated child runs of one scenario gave: the decoded results and how many runs failed, crashed,
    /// hung or were skipped.
    struct ChildRuns<Result> {
        var results: [Result] = []
        var runs = 0
        var failed = 0
        var crashed = 0
        var hung = 0
        var skipped = 0
        let start = Date()

        var passed: Bool { failed == 0 && skipped == 0 }
        var wall: Double { Date().timeIntervalSince(start) }

        /// `PASS — 20/20 runs passed, 0 crashed, 0 hung; ` (the skipped runs too, when any).
        var verdict: String {
            "\(passed ? "PASS" : "FAIL") — \(runs - failed - skipped)/\(runs) runs passed, \(crashed) crashed, "
                + "\(hung) hung" + (skipped > 0 ? ", \(skipped) skipped; " : "; ")
        }
    }

    /// Runs a scenario `options.runs` times, each in a child process started with `arguments`, decoding the result
    /// the child prints after `marker`; prints each failing run (and, verbose, each passing one). A run fails when
    /// the child crashes, hangs, exits with a failure, prints no result, or its result has problems.
    func runInChildren<Result: Decodable>(
        _ name: String, _ arguments: [String], marker: String, as _: Result.Type,
        problems: KeyPath<Result, [String]>, verboseLine: (Result) -> String
    ) -> ChildRuns<Result> {
        var runs = ChildRuns<Result>()
        runs.runs = options.runs
        for run in 1...options.runs {
            if runs.hung >= Self.hangsBeforeGivingUp {
                runs.skipped = options.runs - run + 1
                say("  \(name): \(runs.skipped) remaining runs skipped after \(runs.hung) hung runs")
                break
            }
            let outcome = runChild(arguments + options.childArguments, timeout: options.timeout)
            var found: [String] = []
            var result: Result?
            switch outcome.ending {
            case .signal:
                runs.crashed += 1
                found.append(outcome.description)
            case .hung:
                runs.hung += 1
                found.append(outcome.description)
            case .exited(let status):
                if status != 0 { found.append(outcome.description) }
                result = outcome.line(after: marker).flatMap { decode(Result.self, $0) }
                if let result { found += result[keyPath: problems] } else if status == 0 { found.append("no result") }
            }
            if let result { runs.results.append(result) }
            if !found.isEmpty {
                runs.failed += 1
                say("  \(name) run \(run)/\(options.runs): FAIL: \(found.joined(separator: "; "))")
                let tail = outcome.stderrTail()
                if !tail.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { say(tail) }
            } else if options.verbose, let result {
                say("  \(name) run \(run)/\(options.runs): " + verboseLine(result))
            }
        }
        return runs
    }

    // MARK: Probes

    /// Runs `probe` in `probe.processes` child processes; prints the summary (medians). True when all passed.
    func runProbe(_ probe: Probe) -> Bool {
        var results: [ProbeResult] = []
        var problems: [String] = []
        for _ in 0..<probe.processes {
            let outcome = runChild(
                ["--child-probe", probe.rawValue] + options.childArguments, timeout: options.timeout)
            if case .exited(0) = outcome.ending,
                let result = outcome.line(after: "@@probe ").flatMap({ decode(ProbeResult.self, $0) })
            {
                results.append(result)
            } else {
                problems.append(outcome.description)
                say("  probe \(probe.rawValue): FAIL: \(outcome.description)")
                say(outcome.stderrTail())
            }
        }
        guard let first = results.first else {
            say("probe \(probe.rawValue): FAIL — \(problems.joined(separator: "; "))")
            return false
        }
        let processes = results.count == 1 ? "" : " (median of \(results.count) processes)"
        let figures = first.figures.indices.map { index -> String in
            let figure = first.figures[index]
            let value = median(
                results.compactMap { $0.figures.indices.contains(index) ? $0.figures[index].value : nil })
            return "\(figure.name) \(format(value))\(figure.unit.isEmpty ? "" : " " + figure.unit)"
        }
        var checkTexts: [String] = []
        for index in first.checks.indices {
            var check = first.checks[index]
            let measured = results.compactMap { $0.checks.indices.contains(index) ? $0.checks[index].measured : nil }
            check.measured = measured.isEmpty ? nil : median(measured)
            let unit = check.unit.isEmpty ? "" : " " + check.unit
            let limit =
                check.limit == check.target
                ? "≤ \(format(check.target))\(unit)"
                : "target ≤ \(format(check.target))\(unit), asserted ≤ \(format(check.limit))\(unit)"
            switch check.passed {
            case true?: checkTexts.append("\(check.name) \(format(check.measured!))\(unit) (\(limit)) ok")
            case false?:
                checkTexts.append("\(check.name) \(format(check.measured!))\(unit) (\(limit)) FAILED")
                problems.append(check.name)
            case nil: checkTexts.append("\(check.name): not measurable on this platform (\(limit)) skipped")
            }
        }
        let passed = problems.isEmpty
        say(
            "probe \(probe.rawValue): \(passed ? "PASS" : "FAIL") — \(checkTexts.joined(separator: "; "))"
                + "\(processes) | \(figures.joined(separator: ", "))")
        return passed
    }
}

// MARK: - Formatting and coding

/// Prints a line and flushes it, so a log shows progress while CI waits for the next scenario.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// Bytes as KiB with one decimal, or "-".
func kibibytes(_ bytes: Int?) -> String {
    bytes.map { String(format: "%.1f", Double($0) / 1_024) } ?? "-"
}

func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return (value < 0 ? "-" : "") + out
}

/// Whole numbers as they are, others with two decimals below 100 and none above (with thousands separators).
func format(_ value: Double, digits: Int? = nil) -> String {
    guard value.isFinite else { return "\(value)" }
    let places = digits ?? (abs(value) >= 100 || value == value.rounded() ? 0 : 2)
    if places == 0 { return grouped(Int(value.rounded())) }
    return String(format: "%.\(places)f", value)
}

func range(_ values: [Double]) -> String {
    guard let low = values.min(), let high = values.max() else { return "-" }
    return low == high ? format(low) : "\(format(low))–\(format(high))"
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    guard let data = try? encoder.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}

func decode<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return try? decoder.decode(T.self, from: Data(text.utf8))
}
