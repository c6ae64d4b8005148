// assemblage-benchmarks: Assemblage vs Swinject 2.10.0 vs hand-written construction, one process.
// Imports neither library. See README.md.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
    usage: assemblage-benchmarks [--filter SUBSTRING] [--quick] [--markdown] [--verbose]
                                 [--batches N] [--batch-ms MS] [--no-memory] [--no-cold]
           assemblage-benchmarks --list | --list-kinds
           assemblage-benchmarks --single WORKLOAD --contestant hand|assemblage|swinject --iterations N
           assemblage-benchmarks --memory-probe assemblage|swinject
           assemblage-benchmarks --cold WORKLOAD --contestant hand|assemblage|swinject

      --filter S      only workloads whose name contains S (may be repeated)
      --quick         5 short batches, 10 ms warm-up: a smoke test, not a measurement
      --markdown      print the table as Markdown
      --verbose       also print min / median / max per contestant (stderr)
      --batches N     timed batches per contestant (default 21)
      --batch-ms MS   target length of one batch (default 10)
      --no-memory     skip the memory figures (measured when register.10000 is selected)
      --no-cold       skip timing the first operation of register.10000 and assemble.moduleTree1000
                      in fresh processes
      --list          print workload names and what they measure
      --list-kinds    print each workload's name and kind (resolve, setup, throughput), for scripts
      --single ...    build one contestant of one workload and run it N times, untimed, then exit
                      (for callgrind.sh; exit status 3 when that contestant has no such workload)
      --memory-probe  run register.10000 for one library and print its memory figures (used by the
                      full run, which starts this executable once per library)
      --cold W        time the setup of one contestant of W (its first operation and a check) in this
                      fresh process, print it and exit (used by the full run)
    """

struct Options {
    var filters: [String] = []
    var quick = false
    var markdown = false
    var verbose = false
    var list = false
    var listKinds = false
    var memory = true
    var cold = true
    var coldWorkload: String?
    var memoryProbe: Contestant?
    var batches: Int?
    var batchMilliseconds: Double?
    var single: String?
    var contestant: Contestant?
    var iterations: Int?
}

func fail(_ message: String) -> Never {
    Platform.printError("assemblage-benchmarks: \(message)\n\n\(usage)")
    exit(2)
}

func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var rest = arguments[...]
    func value(_ flag: String) -> String {
        guard let v = rest.popFirst() else { fail("\(flag) needs a value") }
        return v
    }
    while let arg = rest.popFirst() {
        switch arg {
        case "--filter": options.filters.append(value(arg))
        case "--quick": options.quick = true
        case "--markdown": options.markdown = true
        case "--verbose": options.verbose = true
        case "--list": options.list = true
        case "--list-kinds": options.listKinds = true
        case "--no-memory": options.memory = false
        case "--no-cold": options.cold = false
        case "--cold": options.coldWorkload = value(arg)
        case "--memory-probe":
            let v = value(arg)
            guard let c = Contestant(rawValue: v) else { fail("unknown contestant '\(v)'") }
            options.memoryProbe = c
        case "--batches":
            guard let n = Int(value(arg)), n > 0 else { fail("--batches needs a positive integer") }
            options.batches = n
        case "--batch-ms":
            guard let ms = Double(value(arg)), ms > 0 else { fail("--batch-ms needs a positive number") }
            options.batchMilliseconds = ms
        case "--single": options.single = value(arg)
        case "--contestant":
            let v = value(arg)
            guard let c = Contestant(rawValue: v) else { fail("unknown contestant '\(v)'") }
            options.contestant = c
        case "--iterations":
            guard let n = Int(value(arg)), n >= 0 else { fail("--iterations needs a non-negative integer") }
            options.iterations = n
        case "-h", "--help":
            print(usage)
            exit(0)
        default: fail("unknown argument '\(arg)'")
        }
    }
    return options
}

checkWorkloadTables()
let options = parse(Array(CommandLine.arguments.dropFirst()))

if options.list {
    let width = workloads.map(\.name.count).max() ?? 0
    for w in workloads {
        let missing = Contestant.allCases.filter { w.setup(for: $0) == nil }.map(\.rawValue)
        let note = missing.isEmpty ? "" : "  [no \(missing.joined(separator: ", "))]"
        print(w.name.padded(to: width, right: false) + "  " + w.summary + note)
    }
    exit(0)
}

if options.listKinds {
    for w in workloads { print("\(w.name) \(w.kind)") }
    exit(0)
}

if let contestant = options.memoryProbe {
    Memory.runProbe(contestant)
}

if let name = options.coldWorkload {
    guard let workload = workloads.first(where: { $0.name == name }) else { fail("unknown workload '\(name)'") }
    guard let contestant = options.contestant else { fail("--cold needs --contestant") }
    guard let setup = workload.setup(for: contestant) else {
        Platform.printError("\(contestant.title) has no '\(name)' yet")
        exit(3)
    }
    Cold.runProbe(setup)
}

if let name = options.single {
    guard let workload = workloads.first(where: { $0.name == name }) else { fail("unknown workload '\(name)'") }
    guard let contestant = options.contestant else { fail("--single needs --contestant") }
    guard let iterations = options.iterations else { fail("--single needs --iterations") }
    guard let setup = workload.setup(for: contestant) else {
        Platform.printError("\(contestant.title) has no '\(name)' yet")
        exit(3)
    }
    let run = setup()
    run(iterations)
    _ = drainBlackHole()
    exit(0)
}

if options.contestant != nil || options.iterations != nil {
    fail("--contestant and --iterations go with --single (and --contestant with --cold)")
}

var settings = options.quick ? Settings.quick : Settings()
if let n = options.batches { settings.batches = n }
if let ms = options.batchMilliseconds { settings.batchNanoseconds = ms * 1_000_000 }
settings.verbose = options.verbose

let selected = workloads.filter { w in
    options.filters.isEmpty || options.filters.contains { w.name.contains($0) }
}
if selected.isEmpty { fail("no workload matches \(options.filters)") }

for line in Report.header(settings: settings, quick: options.quick) { print(line) }
let missingAssemblage = selected.filter { $0.setup(for: .assemblage) == nil }.map(\.name)
if !missingAssemblage.isEmpty {
    print("note: no Assemblage side for \(missingAssemblage.joined(separator: ", "))")
}
print("")

var rows: [Row] = []
for workload in selected {
    Platform.printError("measuring \(workload.name) …")
    let row = Harness.measure(workload, contestants: Contestant.allCases, settings: settings)
    if settings.verbose { Platform.printError(Report.verboseLine(row)) }
    rows.append(row)
}

var memory: [Contestant: Memory.Result]?
if options.memory, selected.contains(where: { $0.name == "register.10000" }) {
    Platform.printError("measuring memory of register.10000 …")
    memory = Memory.measure(Contestant.allCases)
}

var cold: [String: [Contestant: Double]] = [:]
if options.cold {
    for workload in selected where workload.cold {
        Platform.printError("timing the first \(workload.name) in fresh processes …")
        cold[workload.name] = Cold.measure(workload, runs: Cold.runs)
    }
}

print(Report.render(rows, cold: cold, memory: memory, markdown: options.markdown))
if let load = Platform.loadAverage() { print("\nload average at end: \(load)") }
if drainBlackHole() {
    // the last result was consumed
}
