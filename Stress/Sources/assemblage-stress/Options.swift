import AssemblageStress
import Foundation

/// The command line of `assemblage-stress`.
struct Options {
    static let usage = """
        assemblage-stress: the concurrent-mutation scenarios, the request-scope scenarios and the
        memory/scaling probes, for a release build.

        Each run of a scenario and each probe runs in a child process of its own, so a crash is counted (with its
        signal), not fatal to the runner. Exit status 0 when every run and every check passed, 1 otherwise.

        From the Stress/ package of the repository:

            swift run -c release assemblage-stress                      # what CI runs: 8 × 1,000,000 × 20 runs
            swift run -c release assemblage-stress --runs 3 --resolves 200000   # a shorter run

        Options:
          --threads N           reader threads per run (default 8; one more thread mutates); in the scope
                                scenarios, resolving threads (default 8, sharedScopeEnd 4 and one more that
                                ends the scopes)
          --resolves N          resolves per reader thread (default 1000000)
          --runs N              runs per scenario (default 20)
          --scenario S          only this scenario (repeatable): \(MutationScenario.allCases.map(\.rawValue).joined(separator: ", ")),
                                \(ScopeScenario.allCases.map(\.rawValue).joined(separator: ", "))
          --probe P             only this probe (repeatable): \(Probe.allCases.map(\.rawValue).joined(separator: ", "))
          --no-scenarios        run no scenario (only the probes)
          --no-probes           run no probe (only the scenarios)
          --fallbacks-per-generation N   addFallback: fallbacks added to one container before the readers move
                                to a fresh one (default 1000)
          --scopes N            scope scenarios: scopes per thread (sharedScopeEnd: shared scopes) per run
                                (default \(ScopeScenario.allCases.map { "\($0.rawValue) \(grouped($0.defaultScopes))" }.joined(separator: ", ")))
          --chain N             scope scenarios: scoped services in the chain each scope resolves (default 12)
          --scope-seconds S     scope scenarios: a run starts no scope after S seconds (default 10)
          --timeout S           seconds a child may take before it is killed and counted as hung (default 120);
                                after 2 hung runs a scenario's remaining runs are skipped
          --timing-headroom X   timing checks assert target × X (default 1.5; memory checks assert the target)
          --verbose             a line for every run, not only for failed ones
          --list                the scenarios and probes
          --help
        """

    var configuration = StressConfiguration(threads: 8, resolves: 1_000_000)
    var runs = 20
    var scenarios: [MutationScenario] = []
    var scopeScenarios: [ScopeScenario] = []
    /// Scopes per thread for every scope scenario; nil: each scenario's ``ScopeScenario/defaultScopes``.
    var scopes: Int?
    /// Whether `--threads` was given (the scope scenarios have their own defaults otherwise).
    var threadsGiven = false
    var chain = 12
    var scopeSeconds: Double = 10
    var probes: [Probe] = []
    var runScenarios = true
    var runProbes = true
    var timeout: Double = 120
    var timingHeadroom: Double = 1.5
    var verbose = false
    var list = false
    /// Set in a child process: the one scenario run or probe to do.
    var childScenario: MutationScenario?
    var childScopeScenario: ScopeScenario?
    var childProbe: Probe?

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("assemblage-stress: \(message) (try --help)\n".utf8))
            exit(2)
        }
        func value(_ flag: String) -> String {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
            return value
        }
        func positive(_ flag: String) -> Int {
            guard let number = Int(value(flag)), number > 0 else { fail("\(flag) takes a positive whole number") }
            return number
        }
        func positiveDouble(_ flag: String) -> Double {
            guard let number = Double(value(flag)), number > 0 else { fail("\(flag) takes a positive number") }
            return number
        }
        func scenario(_ flag: String) -> MutationScenario {
            let name = value(flag)
            guard let scenario = MutationScenario(rawValue: name) else { fail("no scenario '\(name)'") }
            return scenario
        }
        func scopeScenario(_ flag: String) -> ScopeScenario {
            let name = value(flag)
            guard let scenario = ScopeScenario(rawValue: name) else { fail("no scope scenario '\(name)'") }
            return scenario
        }
        func anyScenario(_ flag: String) {
            let name = value(flag)
            if let scenario = MutationScenario(rawValue: name) {
                options.scenarios.append(scenario)
            } else if let scenario = ScopeScenario(rawValue: name) {
                options.scopeScenarios.append(scenario)
            } else {
                fail("no scenario '\(name)'")
            }
        }
        func probe(_ flag: String) -> Probe {
            let name = value(flag)
            guard let probe = Probe(rawValue: name) else { fail("no probe '\(name)'") }
            return probe
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--threads":
                options.configuration.threads = positive(flag)
                options.threadsGiven = true
            case "--resolves": options.configuration.resolves = positive(flag)
            case "--fallbacks-per-generation": options.configuration.fallbacksPerGeneration = positive(flag)
            case "--runs": options.runs = positive(flag)
            case "--scenario": anyScenario(flag)
            case "--scopes": options.scopes = positive(flag)
            case "--chain": options.chain = positive(flag)
            case "--scope-seconds": options.scopeSeconds = positiveDouble(flag)
            case "--probe": options.probes.append(probe(flag))
            case "--no-scenarios": options.runScenarios = false
            case "--no-probes": options.runProbes = false
            case "--timeout": options.timeout = positiveDouble(flag)
            case "--timing-headroom": options.timingHeadroom = positiveDouble(flag)
            case "--verbose": options.verbose = true
            case "--list": options.list = true
            case "--child-scenario": options.childScenario = scenario(flag)
            case "--child-scope-scenario": options.childScopeScenario = scopeScenario(flag)
            case "--threads-given": options.threadsGiven = true
            case "--child-probe": options.childProbe = probe(flag)
            case "-h", "--help":
                print(usage)
                exit(0)
            default: fail("unknown argument '\(flag)'")
            }
        }
        if options.scenarios.isEmpty && options.scopeScenarios.isEmpty {
            options.scenarios = MutationScenario.allCases
            options.scopeScenarios = ScopeScenario.allCases
        }
        if options.probes.isEmpty { options.probes = Probe.allCases }
        return options
    }

    /// The arguments that make a child do what this configuration says.
    var childArguments: [String] {
        [
            "--threads", "\(configuration.threads)", "--resolves", "\(configuration.resolves)",
            "--fallbacks-per-generation", "\(configuration.fallbacksPerGeneration)",
            "--timing-headroom", "\(timingHeadroom)", "--chain", "\(chain)", "--scope-seconds", "\(scopeSeconds)",
        ] + (scopes.map { ["--scopes", "\($0)"] } ?? []) + (threadsGiven ? ["--threads-given"] : [])
    }

    /// The size of one run of a scope scenario.
    func scopeConfiguration(_ scenario: ScopeScenario) -> ScopeStressConfiguration {
        ScopeStressConfiguration(
            threads: threadsGiven ? configuration.threads : scenario.defaultThreads,
            scopes: scopes ?? scenario.defaultScopes, chain: chain,
            seconds: scopeSeconds)
    }
}
