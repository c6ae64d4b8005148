// The list of workloads. This file imports neither library.
//
// To add a workload: add a `Workload` line here, then one entry under the same name in
// `HandWritten.setups`, `AssemblageWorkloads.setups` and `SwinjectWorkloads.setups`, except for the
// contestants listed in the workload's `without` (they show "—"). The tables are checked at start-up.

/// Runs the workload's operation `iterations` times. Everything it needs was built by its `Setup`.
typealias Run = (_ iterations: Int) -> Void

/// Builds what a workload needs (a container and its registrations, or a composition root),
/// checks once that it resolves what it should, and returns the timed loop. Setup is never timed.
typealias Setup = () -> Run

enum Contestant: String, CaseIterable, Sendable {
    case hand
    case assemblage
    case swinject

    var title: String {
        switch self {
        case .hand: "hand-written"
        case .assemblage: "Assemblage"
        case .swinject: "Swinject"
        }
    }

    /// The setups of this contestant, by workload name.
    var setups: [String: Setup] {
        switch self {
        case .hand: HandWritten.setups
        case .assemblage: AssemblageWorkloads.setups
        case .swinject: SwinjectWorkloads.setups
        }
    }
}

/// How a workload is measured and reported.
enum WorkloadKind: Sendable, CaseIterable {
    /// One resolve from a container prepared at setup, repeated: nanoseconds per resolve.
    case resolve
    /// A whole set-up per operation (a new container or assembler, its registrations, …):
    /// milliseconds per operation. `callgrind.sh` runs it a few times, not thousands.
    case setup
    /// Resolves spread over threads or tasks: nanoseconds of wall time per resolve, all workers
    /// together. `callgrind.sh` skips it (valgrind runs one thread at a time).
    case throughput
}

struct Workload: Sendable {
    /// `area.case`, for example `resolve.graph10`. `--filter` matches substrings of it.
    let name: String
    /// One line for `--list` and the README.
    let summary: String
    let kind: WorkloadKind
    /// Contestants that have no meaningful implementation (the table shows `—`). Checked at start-up:
    /// every other contestant must have a setup.
    let without: Set<Contestant>
    /// Whether the full run also times this workload's first operation in fresh processes (`--cold`).
    /// Only for setup workloads whose setup is one operation plus a check that costs little beside it.
    let cold: Bool

    init(
        _ name: String, _ summary: String, kind: WorkloadKind = .resolve, without: Set<Contestant> = [],
        cold: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.kind = kind
        self.without = without
        self.cold = cold
    }

    func setup(for contestant: Contestant) -> Setup? {
        contestant.setups[name]
    }
}

let workloads: [Workload] = [
    Workload(
        "resolve.transient",
        "one class, no dependencies, registered .transient"),
    Workload(
        "resolve.transient.default",
        "the same class registered with the default scope (.graph)"),
    Workload(
        "resolve.singleton",
        "a .container singleton, already created: the cost of a hit"),
    Workload(
        "resolve.graph10",
        "root → 3 services (protocols) → 6 leaves, 10 objects, all .transient"),
    Workload(
        "resolve.graph10.default",
        "the same 10-object graph, all with the default scope (.graph)"),
    Workload(
        "resolve.graph10.singletonLeaves",
        "the same graph with the 6 leaves as .container singletons: 4 objects built, 6 reused"),
    Workload(
        "resolve.named",
        "one of 10 named registrations of one type (.transient), by name"),
    Workload(
        "resolve.argument1",
        "a .transient service with one runtime argument (Int)"),
    Workload(
        "resolve.arguments3",
        "a .transient service with three runtime arguments (Int, String, Double)"),
    Workload(
        "resolve.parent3",
        "a .transient service registered 3 parent levels above the container asked"),
    Workload(
        "scope.request5",
        "one request: a new scope, a chain of 5 .scoped services resolved from its root, the scope ended and the 5"
            + " disposed in reverse order (hand-written: a scope object and an array of disposables)",
        without: [.swinject]),
    Workload(
        "scope.request5.values",
        "the same request with the five services as structs, which a scope holds as Any (hand-written: an array"
            + " of existentials)",
        without: [.swinject]),
    Workload(
        "scope.hit",
        "a .scoped service the request's scope has already made, resolved again through the scope (hand-written: a"
            + " property of the request's context)",
        without: [.swinject]),
    Workload(
        "resolve.moduleTree200",
        "the root service of a 200-module tree (ModuleAssembler): a chain of 6 .transient objects in 6 modules;"
            + " Swinject: the same 200 assemblies in one container"),
    Workload(
        "resolve.moduleTree200.flat",
        "the same service and 200 registrations in one flat container (Assembler): the tree's baseline"),

    Workload(
        "register.10000",
        "a new container, 10,000 registrations of distinct types (default scope), each resolved once",
        kind: .setup, without: [.hand], cold: true),
    Workload(
        "register.10000.container",
        "the same with each registration in .container scope (`inObjectScope(.container)`), each resolved once",
        kind: .setup, without: [.hand]),
    Workload(
        "assemble.assembler100",
        "a new Assembler with 100 assemblies of 10 registrations each",
        kind: .setup, without: [.hand]),
    Workload(
        "assemble.moduleTree1000",
        "a new ModuleAssembler with a 1,000-module tree (999 auto-initialised);"
            + " Swinject: Assembler with the same 1,000 assemblies",
        kind: .setup, without: [.hand], cold: true),
    Workload(
        "validate.1000",
        "Container.validate() of 1,000 registrations (the 1,000-module tree's services, in one container)",
        kind: .setup, without: [.hand, .swinject]),

    Workload(
        "throughput.graph10.threads1",
        "resolve.graph10 on 1 thread (Swinject: synchronize()d resolver)", kind: .throughput),
    Workload(
        "throughput.graph10.threads2",
        "resolve.graph10 on 2 threads at once, sharing one container", kind: .throughput),
    Workload(
        "throughput.graph10.tasks8",
        "resolve.graph10 in 8 concurrent tasks (task group), sharing one container", kind: .throughput),
]

/// `base` and `more` in one table; a name in both stops the run.
func combine(_ base: [String: Setup], _ more: [String: Setup]) -> [String: Setup] {
    base.merging(more) { _, _ in Check.fail("a contestant has two setups for one workload") }
}

/// Start-up check that every contestant's table names only known workloads, and that each workload
/// has a setup for exactly the contestants it does not list in `without`.
func checkWorkloadTables() {
    let known = Set(workloads.map(\.name))
    if known.count != workloads.count { Check.fail("two workloads share a name") }
    for contestant in Contestant.allCases {
        for name in contestant.setups.keys where !known.contains(name) {
            Check.fail("\(contestant.title) has a setup for unknown workload '\(name)'")
        }
    }
    for workload in workloads {
        for contestant in Contestant.allCases {
            let has = workload.setup(for: contestant) != nil
            if has && workload.without.contains(contestant) {
                Check.fail("workload '\(workload.name)' lists \(contestant.title) in `without` but has a setup for it")
            }
            if !has && !workload.without.contains(contestant) {
                Check.fail("workload '\(workload.name)' has no \(contestant.title) setup")
            }
        }
    }
}
