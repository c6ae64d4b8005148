// The list of workloads. This file imports neither library.
//
// To add a workload: add a `Workload` line here, then one entry under the same name in
// `HandWritten.setups`, `AssemblageWorkloads.setups` and `SwinjectWorkloads.setups`.
// A contestant without an entry shows "—" in the table. The names are checked at start-up.

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

struct Workload: Sendable {
    /// `area.case`, for example `resolve.graph10`. `--filter` matches substrings of it.
    let name: String
    /// One line for `--list` and the README.
    let summary: String

    init(_ name: String, _ summary: String) {
        self.name = name
        self.summary = summary
    }

    func setup(for contestant: Contestant) -> Setup? {
        contestant.setups[name]
    }
}

let workloads: [Workload] = [
    Workload("resolve.transient",
             "one class, no dependencies, registered .transient"),
    Workload("resolve.transient.default",
             "the same class registered with the default scope (.graph)"),
    Workload("resolve.singleton",
             "a .container singleton, already created: the cost of a hit"),
    Workload("resolve.graph10",
             "root → 3 services (protocols) → 6 leaves, 10 objects, all .transient"),
    Workload("resolve.graph10.default",
             "the same 10-object graph, all with the default scope (.graph)"),
    Workload("resolve.graph10.singletonLeaves",
             "the same graph with the 6 leaves as .container singletons: 4 objects built, 6 reused"),
    Workload("resolve.named",
             "one of 10 named registrations of one type (.transient), by name"),
    Workload("resolve.argument1",
             "a .transient service with one runtime argument (Int)"),
    Workload("resolve.arguments3",
             "a .transient service with three runtime arguments (Int, String, Double)"),
    Workload("resolve.parent3",
             "a .transient service registered 3 parent levels above the container asked"),
]

/// Start-up check that every contestant's table names only known workloads and that the
/// hand-written baseline covers all of them.
func checkWorkloadTables() {
    let known = Set(workloads.map(\.name))
    for contestant in Contestant.allCases {
        for name in contestant.setups.keys where !known.contains(name) {
            Check.fail("\(contestant.title) has a setup for unknown workload '\(name)'")
        }
    }
    for name in known where HandWritten.setups[name] == nil {
        Check.fail("workload '\(name)' has no hand-written baseline")
    }
}
