import Assemblage
import AssemblageTestSupport
import Foundation
import Testing

extension Reliability {
    /// A missing registration is reported with the path that really led to it.
    @Suite("Missing registrations", .serialized)
    struct MissingRegistrationTests {
        @Test(.heavy) func reportedPathEqualsTheRealPathForEveryPlantedMissingNode() {
            let graphs = Budget.count(1_000, minimum: 100)
            var options = FuzzOptions()
            options.plantCycles = false
            options.plantMissing = true
            var planted = 0
            var reportedExactly = 0
            var longestPath = 0
            var divergences: [String] = []
            for seed in 0..<UInt64(graphs) {
                var graph = FuzzGraph.generate(seed: 0x6D15_5100 + seed, options: options)
                // Every graph gets missing nodes here, not only most of them.
                if graph.nodes.allSatisfy(\.registered) {
                    var random = SeededGenerator(seed: seed)
                    graph.plantMissing(count: 1 + random.below(3), &random)
                }
                let runtime = FuzzRuntime(graph: graph)
                let (child, parent) = graph.makeContainers(runtime: runtime)
                var model = FuzzModel(graph: graph)
                // For each missing node, the registered node whose resolution reaches it by the longest path.
                var deepest: [Int: (root: Int, failure: ModelFailure)] = [:]
                for root in graph.nodes.indices where graph.nodes[root].registered {
                    let arguments = (0..<graph.nodes[root].arity).map { $0 + 7 }
                    guard case .failure(let failure) = model.resolveTopLevel(root, arguments: arguments),
                        let missing = graph.nodes.indices.first(where: { graph.key($0) == failure.key })
                    else {
                        continue
                    }
                    if failure.path.count > (deepest[missing]?.failure.path.count ?? 0) {
                        deepest[missing] = (root, failure)
                    }
                }
                let missingNodes = graph.nodes.indices.filter { !graph.nodes[$0].registered }
                planted += missingNodes.count
                for missing in missingNodes {
                    guard let (root, expected) = deepest[missing] else {
                        divergences.append("seed \(seed): missing node \(missing) is reached by no registration")
                        continue
                    }
                    let arguments = (0..<graph.nodes[root].arity).map { $0 + 7 }
                    do throws(ResolutionError) {
                        _ = try FuzzRuntime.resolve(graph.nodes[root], arguments, from: child)
                        divergences.append("seed \(seed): node \(root) resolved, expected \(expected)")
                    } catch {
                        if let divergence = expected.divergence(from: error) {
                            divergences.append("seed \(seed): node \(root): \(divergence)")
                        } else {
                            reportedExactly += 1
                            longestPath = max(longestPath, error.path.count)
                        }
                    }
                }
                withExtendedLifetime(parent) {}
            }
            Figure.report(
                "missing registrations",
                "\(reportedExactly)/\(planted) planted missing nodes reported with the real path, "
                    + "near misses and code over \(graphs) random graphs (longest path \(longestPath))")
            #expect(divergences.isEmpty, "\(divergences.prefix(5).joined(separator: "\n"))")
            #expect(reportedExactly == planted)
        }

        @Test func pathThroughSharedScopesParentAndArgumentsIsTheRealPath() throws {
            // A hand-made case of each kind of step: a container-scoped parent registration, a named child
            // registration with an argument, a transient, and a missing leaf registered under another name.
            let parent = Container()
            let child = Container(parent: parent)
            parent.register(FuzzA.self) { r in
                FuzzA(node: 0, arguments: [], dependencies: [try r.require(FuzzB.self, name: "b", argument: 1)])
            }.inObjectScope(.container)
            child.register(FuzzB.self, name: "b") { (r, n: Int) in
                FuzzB(node: 1, arguments: [n], dependencies: [try r.require(FuzzC.self)])
            }
            child.register(FuzzC.self) { r in
                FuzzC(node: 2, arguments: [], dependencies: [try r.require(FuzzA.self, name: "leaf")])
            }.inObjectScope(.transient)
            parent.register(FuzzA.self, name: "other") { _ in FuzzA(node: 3, arguments: [], dependencies: []) }
            let error = try #require(throws: ResolutionError.self) { try child.require(FuzzA.self) }
            #expect(error.code == .notRegistered)
            #expect(
                error.path == [
                    ServiceKey(FuzzA.self), ServiceKey(FuzzB.self, name: "b", argumentTypes: Int.self),
                    ServiceKey(FuzzC.self), ServiceKey(FuzzA.self, name: "leaf"),
                ])
            #expect(error.nearMisses == [ServiceKey(FuzzA.self), ServiceKey(FuzzA.self, name: "other")])
            // The same failure, asked again and from another thread, has the same path: nothing was cached.
            let again = onThread(timeout: 10) { () -> [ServiceKey] in
                do throws(ResolutionError) {
                    _ = try child.require(FuzzA.self)
                    return []
                } catch {
                    return error.path
                }
            }
            #expect(again == error.path)
        }
    }
}
