import Assemblage
import AssemblageTestSupport
import Foundation
import Testing

/// What one seed did, for the figures.
struct FuzzSeedResult {
    var divergence: String?
    var services = 0
    var requests = 0
    var failures: [String: Int] = [:]
}

/// Reads a count from the environment.
func environmentCount(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
}

extension Reliability {
    /// Random graphs resolve exactly as a small reference model predicts.
    ///
    /// `FUZZ_SEEDS=N` runs N seeds instead of 10,000 (1,000 under ThreadSanitizer), `FUZZ_FIRST_SEED=S` starts
    /// at seed S (to replay a printed failing seed: `FUZZ_FIRST_SEED=S FUZZ_SEEDS=1`), `FUZZ_CONCURRENT_SEEDS=N`
    /// sets the seeds of the concurrent variant.
    @Suite("Random graph fuzzing", .serialized)
    struct RandomGraphFuzzTests {
        static let firstSeed = UInt64(environmentCount("FUZZ_FIRST_SEED") ?? 1)

        /// Builds the graph of `seed`, resolves its requests on this thread and compares everything with the model.
        static func check(_ graph: FuzzGraph) -> FuzzSeedResult {
            var result = FuzzSeedResult(services: graph.registeredCount, requests: graph.requests.count)
            let runtime = FuzzRuntime(graph: graph)
            let (child, parent) = graph.makeContainers(runtime: runtime)
            defer { withExtendedLifetime(parent) {} }
            var model = FuzzModel(graph: graph)
            var matcher = IdentityMatcher()
            var keep: [FuzzInstance] = []  // keeps identities unique for the whole seed
            for (request, node) in graph.requests.enumerated() {
                let arguments = graph.topLevelArguments(request)
                let expected = model.resolveTopLevel(node, arguments: arguments)
                let actual = Result<FuzzInstance, ResolutionError> { () throws(ResolutionError) in
                    try FuzzRuntime.resolve(graph.nodes[node], arguments, from: child)
                }
                switch (expected, actual) {
                case (.success(let modelInstance), .success(let instance)):
                    keep.append(instance)
                    if let divergence = matcher.divergence(instance, modelInstance) {
                        result.divergence = "request \(request) (node \(node)): \(divergence)"
                        return result
                    }
                case (.failure(let failure), .failure(let error)):
                    result.failures[error.code.description, default: 0] += 1
                    if let divergence = failure.divergence(from: error) {
                        result.divergence = "request \(request) (node \(node)): \(divergence)"
                        return result
                    }
                case (.success, .failure(let error)):
                    result.divergence = "request \(request) (node \(node)) failed, the model resolves it: \(error)"
                    return result
                case (.failure(let failure), .success):
                    result.divergence = "request \(request) (node \(node)) resolved, the model fails it: \(failure)"
                    return result
                }
            }
            if runtime.starts != model.starts {
                let node = zip(runtime.starts, model.starts).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                result.divergence =
                    "factory of node \(node) ran \(runtime.starts[node]) times, model says \(model.starts[node])"
            } else if runtime.constructions != model.constructions {
                result.divergence = "constructions \(runtime.constructions), model says \(model.constructions)"
            }
            return result
        }

        @Test(.heavy) func randomGraphsResolveAsTheReferenceModelPredicts() {
            let seeds = environmentCount("FUZZ_SEEDS") ?? Budget.count(10_000, minimum: 500)
            let start = now()
            var divergences: [String] = []
            var services = 0
            var requests = 0
            var failures: [String: Int] = [:]
            for seed in Self.firstSeed..<(Self.firstSeed + UInt64(seeds)) {
                let result = Self.check(FuzzGraph.generate(seed: seed))
                services += result.services
                requests += result.requests
                failures.merge(result.failures, uniquingKeysWith: +)
                if let divergence = result.divergence {
                    print(
                        "[fuzz] DIVERGENCE at seed \(seed) (replay: FUZZ_FIRST_SEED=\(seed) FUZZ_SEEDS=1): \(divergence)"
                    )
                    divergences.append("seed \(seed): \(divergence)")
                    if divergences.count >= 10 { break }
                }
            }
            let seconds = milliseconds(since: start) / 1_000
            Figure.report(
                "fuzz",
                "\(seeds) seeds (\(services) services, \(requests) requests; failures "
                    + failures.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    + ") in \(format(seconds)) s, \(divergences.count) divergences")
            #expect(divergences.isEmpty, "\(divergences.joined(separator: "\n"))")
            #expect(
                failures["notRegistered", default: 0] > 0 && failures["cycle", default: 0] > 0,
                "the seeds must exercise both kinds of failure")
            if environmentCount("FUZZ_SEEDS") == nil, !Budget.underThreadSanitizer, Budget.scale == 1 {
                #expect(seconds < 60, "10,000 seeds took \(seconds) s")
            }
        }

        @Test func checkerReportsADivergenceWhenTheContainerDoesNotMatchTheModel() {
            // The oracle must be able to fail: give the model a graph whose scopes differ from the container's.
            var caught = 0
            var tried = 0
            for seed in UInt64(1)...200 {
                let graph = FuzzGraph.generate(seed: seed)
                guard let node = graph.requests.first(where: { graph.nodes[$0].scope == .transient }) else { continue }
                var truth = graph
                truth.requests = [node, node]
                var truthModel = FuzzModel(graph: truth)
                guard case .success = truthModel.resolveTopLevel(node, arguments: truth.topLevelArguments(0)) else {
                    continue
                }
                tried += 1
                // A transient request resolved twice gives two objects; a model that thinks it is a singleton
                // predicts one.
                var wrong = truth
                wrong.nodes[node].scope = .singleton
                let runtime = FuzzRuntime(graph: truth)
                let (child, parent) = truth.makeContainers(runtime: runtime)
                var model = FuzzModel(graph: wrong)
                var matcher = IdentityMatcher()
                var keep: [FuzzInstance] = []
                var diverged = false
                for request in 0..<2 {
                    let arguments = truth.topLevelArguments(request)
                    guard case .success(let expected) = model.resolveTopLevel(node, arguments: arguments),
                        let instance = try? FuzzRuntime.resolve(truth.nodes[node], arguments, from: child)
                    else {
                        Issue.record("seed \(seed): node \(node) failed although the true model resolves it")
                        break
                    }
                    keep.append(instance)
                    if matcher.divergence(instance, expected) != nil { diverged = true }
                }
                withExtendedLifetime(parent) {}
                if diverged { caught += 1 }
            }
            #expect(tried > 20)
            #expect(caught == tried)
        }

        @Test(.heavy) func concurrentResolutionOfOneGraphAgreesWithTheModel() async {
            let seeds = environmentCount("FUZZ_CONCURRENT_SEEDS") ?? Budget.count(300, minimum: 60)
            let threads = 4
            var divergences: [String] = []
            var resolves = 0
            var timeouts = 0
            for seed in Self.firstSeed..<(Self.firstSeed + UInt64(seeds)) {
                let graph = FuzzGraph.generate(seed: seed &* 7_919)
                // The sequential model: outcomes do not depend on what was resolved before (caches only skip
                // subtrees that succeeded), so one pass gives the expected outcome of every request.
                var model = FuzzModel(graph: graph)
                let expected = graph.requests.enumerated().map { request, node in
                    model.resolveTopLevel(node, arguments: graph.topLevelArguments(request))
                }
                let reachesCycle = Self.nodesReachingACycle(graph)
                let runtime = FuzzRuntime(graph: graph)
                let (child, parent) = graph.makeContainers(runtime: runtime)
                let outcomes = Bag<(request: Int, result: Result<FuzzInstance, ResolutionError>)>()
                let gate = StartGate()
                let finished = Latch(count: threads)
                for thread in 0..<threads {
                    startThread {
                        var random = SeededGenerator(seed: seed &+ UInt64(thread))
                        let order = Array(graph.requests.indices).shuffled(using: &random)
                        gate.arriveAndWait()
                        for request in order {
                            let node = graph.requests[request]
                            let result = Result<FuzzInstance, ResolutionError> { () throws(ResolutionError) in
                                try FuzzRuntime.resolve(
                                    graph.nodes[node], graph.topLevelArguments(request), from: child)
                            }
                            outcomes.append((request, result))
                        }
                        finished.countDown()
                    }
                }
                let arrived = await offThePool { gate.waitForArrivals(threads, timeout: Budget.seconds(10)) }
                gate.open()
                guard arrived, await finished.wait(timeout: Budget.seconds(30)) else {
                    timeouts += 1
                    divergences.append("seed \(seed): threads did not finish in time")
                    break
                }
                var sharedObject: [Int: ObjectIdentifier] = [:]
                var visited = Set<ObjectIdentifier>()
                func visit(_ instance: FuzzInstance) -> String? {
                    guard visited.insert(ObjectIdentifier(instance)).inserted else { return nil }
                    if graph.nodes[instance.node].scope.isShared {
                        if let known = sharedObject[instance.node], known != ObjectIdentifier(instance) {
                            return "node \(instance.node) (\(graph.nodes[instance.node].scope)) is two objects"
                        }
                        sharedObject[instance.node] = ObjectIdentifier(instance)
                    }
                    for dependency in instance.dependencies {
                        if let problem = visit(dependency) { return problem }
                    }
                    return nil
                }
                for (request, result) in outcomes.all {
                    resolves += 1
                    let node = graph.requests[request]
                    var problem: String?
                    switch (expected[request], result) {
                    case (.success, .success(let instance)):
                        problem = visit(instance)
                    case (.failure(let failure), .failure(let error)):
                        if error.code == .cycle, reachesCycle.contains(node) { break }  // found early, across threads
                        problem =
                            failure.code == .cycle
                            ? (error.code == .cycle ? nil : "\(error.code), expected cycle")
                            : failure.divergence(from: error).map { "\($0)" }
                    case (.success, .failure(let error)):
                        problem = "failed, the model resolves it: \(error)"
                    case (.failure(let failure), .success):
                        problem = "resolved, the model fails it: \(failure)"
                    }
                    if let problem {
                        divergences.append("seed \(seed) request \(request) (node \(node)): \(problem)")
                        break
                    }
                }
                let constructions = runtime.constructions
                for node in graph.nodes.indices where graph.nodes[node].scope.isShared && graph.nodes[node].registered {
                    let made = constructions[node]
                    let predicted = model.constructions[node]
                    if made > 1 || (reachesCycle.isEmpty && made != predicted) {
                        divergences.append(
                            "seed \(seed): shared node \(node) made \(made) times, model says \(predicted)")
                        break
                    }
                }
                withExtendedLifetime(parent) {}
                if divergences.count >= 10 { break }
            }
            for divergence in divergences { print("[fuzz] concurrent DIVERGENCE \(divergence)") }
            Figure.report(
                "concurrent fuzz",
                "\(seeds) seeds × \(threads) threads, \(resolves) resolves, \(divergences.count) divergences, "
                    + "\(timeouts) timeouts")
            #expect(divergences.isEmpty, "\(divergences.prefix(5).joined(separator: "\n"))")
            #expect(timeouts == 0)
        }

        /// Nodes from which some path leads into a cycle.
        static func nodesReachingACycle(_ graph: FuzzGraph) -> Set<Int> {
            var result = Set<Int>()
            for start in graph.nodes.indices where graph.nodes[start].registered {
                // Depth-first search with colours: meeting a grey node means a cycle below `start`.
                var colour = [Int: Int]()
                var found = false
                func walk(_ node: Int) {
                    if found || !graph.nodes[node].registered { return }
                    if colour[node] == 1 {
                        found = true
                        return
                    }
                    if colour[node] == 2 { return }
                    colour[node] = 1
                    for dependency in graph.nodes[node].dependencies { walk(dependency) }
                    colour[node] = 2
                }
                walk(start)
                if found { result.insert(start) }
            }
            return result
        }
    }
}
