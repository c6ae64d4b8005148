// The hand-written baseline of the module-tree and throughput workloads. Imports neither library.
// Registering, assembling and validating have no hand-written counterpart (their rows show "—").
import ScaleFixtures

extension HandWritten {
    static var scaleSetups: [String: Setup] {
        [
            "resolve.moduleTree200": tree200,
            "resolve.moduleTree200.flat": tree200,
            "throughput.graph10.threads1": { throughputGraph10(.threads(1)) },
            "throughput.graph10.threads2": { throughputGraph10(.threads(2)) },
            "throughput.graph10.tasks8": { throughputGraph10(.tasks(8)) },
        ]
    }

    /// The 6-object chain that resolving the tree's root service builds, written inline.
    static func tree200() -> Run {
        Check.tree200(ScaleShapes.makeTree200Chain(), ScaleShapes.makeTree200Chain(), "hand moduleTree200")
        return { n in
            for _ in 0..<n { blackHole(ScaleShapes.makeTree200Chain()) }
        }
    }

    static func throughputGraph10(_ mode: Parallel.Mode) -> Run {
        let body: WorkerBody = { count in
            var slot: AnyObject?
            for _ in 0..<count { blackHole(makeGraph(), into: &slot) }
        }
        return { n in Parallel.run(mode, iterations: n, body) }
    }
}
