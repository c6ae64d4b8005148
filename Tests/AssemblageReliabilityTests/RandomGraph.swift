import Assemblage
import Foundation

// A seeded generator of random service graphs, a container built from one, and a reference model that predicts
// what resolving it must do. Used by the missing-registration tests and the fuzzer.

/// SplitMix64: small, fast, and the same sequence for the same seed on every platform.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    /// `true` with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The scopes the fuzzer chooses from.
enum FuzzScope: Int, CaseIterable, Sendable {
    case transient, graph, container, singleton

    var objectScope: ObjectScope {
        switch self {
        case .transient: .transient
        case .graph: .graph
        case .container: .container
        case .singleton: .singleton
        }
    }

    var isShared: Bool { self == .container || self == .singleton }
}

/// What every generated service is: which node made it, with which arguments, from which dependencies.
class FuzzInstance: @unchecked Sendable {  // @unchecked: immutable.
    let node: Int
    let arguments: [Int]
    let dependencies: [FuzzInstance]
    required init(node: Int, arguments: [Int], dependencies: [FuzzInstance]) {
        self.node = node
        self.arguments = arguments
        self.dependencies = dependencies
    }
}

/// Three service types, so that keys differ by type as well as by name and argument list.
final class FuzzA: FuzzInstance, @unchecked Sendable {}  // @unchecked: immutable.
final class FuzzB: FuzzInstance, @unchecked Sendable {}  // @unchecked: immutable.
final class FuzzC: FuzzInstance, @unchecked Sendable {}  // @unchecked: immutable.

/// One service of a generated graph.
struct FuzzNode: Sendable {
    var type: Int
    var name: String?
    var arity: Int
    var scope: FuzzScope
    /// Dependencies, resolved in this order (indices into the graph's nodes; may repeat).
    var dependencies: [Int]
    /// Whether the node is registered at all (planted missing nodes are not).
    var registered: Bool
    /// Registered in the parent container rather than the child.
    var inParent: Bool
}

/// What to plant in a generated graph.
struct FuzzOptions: Sendable {
    var maxServices = 200
    var plantCycles = true
    var plantMissing = true
    var maxRequests = 12
}

/// A random service graph, rebuilt identically from its seed.
struct FuzzGraph: Sendable {
    let seed: UInt64
    var nodes: [FuzzNode] = []
    /// Registered nodes in the order they are registered (each into its own container).
    var registrationOrder: [Int] = []
    /// Top-level requests, in order.
    var requests: [Int] = []
    /// Whether a parent container takes part (the child is resolved from and falls back to it).
    var usesParent = false

    var registeredCount: Int { nodes.filter(\.registered).count }

    static let serviceTypes: [FuzzInstance.Type] = [FuzzA.self, FuzzB.self, FuzzC.self]

    /// The key of node `index`.
    func key(_ index: Int) -> ServiceKey {
        let node = nodes[index]
        let argumentsType: Any.Type =
            switch node.arity {
            case 0: Void.self
            case 1: Int.self
            case 2: (Int, Int).self
            default: (Int, Int, Int).self
            }
        return ServiceKey(
            serviceType: Self.serviceTypes[node.type], argumentsType: argumentsType, name: node.name,
            argumentCount: node.arity)
    }

    /// The arguments node `parent` passes to its `position`-th dependency.
    func arguments(for dependency: Int, of parent: Int, at position: Int) -> [Int] {
        (0..<nodes[dependency].arity).map { parent * 1_000 + position * 10 + $0 }
    }

    /// The arguments of the `request`-th top-level request.
    func topLevelArguments(_ request: Int) -> [Int] {
        (0..<nodes[requests[request]].arity).map { -(request * 10 + $0) - 1 }
    }

    // MARK: Generation

    static func generate(seed: UInt64, options: FuzzOptions = FuzzOptions()) -> FuzzGraph {
        var random = SeededGenerator(seed: seed)
        var graph = FuzzGraph(seed: seed)
        let count = 1 + random.below(options.maxServices)
        var unnamedKeys = Set<[Int]>()
        for index in 0..<count {
            let type = random.below(3)
            let arity = [0, 0, 0, 0, 0, 1, 1, 2, 2, 3][random.below(10)]
            var name: String? = random.chance(30) ? nil : "s\(index)"
            if name == nil, !unnamedKeys.insert([type, arity]).inserted { name = "s\(index)" }
            var dependencies: [Int] = []
            if index > 0 {
                for _ in 0..<random.below(4) {
                    // Mostly near neighbours (long chains), sometimes anything earlier (wide fan-in).
                    let reach = random.chance(70) ? min(index, 8) : index
                    dependencies.append(index - 1 - random.below(reach))
                }
            }
            let scope = FuzzScope(rawValue: random.below(4))!
            graph.nodes.append(
                FuzzNode(
                    type: type, name: name, arity: arity, scope: scope, dependencies: dependencies,
                    registered: true, inParent: false))
        }
        // Transient nodes are made again at every use: cap how many a single use makes, so that no seed explodes.
        var transientTree = [Int](repeating: 1, count: count)
        for index in 0..<count where graph.nodes[index].scope == .transient {
            let size =
                1
                + graph.nodes[index].dependencies.reduce(0) { total, dependency in
                    total + (graph.nodes[dependency].scope == .transient ? transientTree[dependency] : 0)
                }
            if size > 8 {
                graph.nodes[index].scope = .graph
            } else {
                transientTree[index] = size
            }
        }
        if options.plantMissing, random.chance(70) {
            graph.plantMissing(count: 1 + random.below(3), &random)
        }
        if options.plantCycles, random.chance(30) {
            graph.plantCycles(count: 1 + random.below(2), registered: count, &random)
        }
        graph.usesParent = random.chance(50)
        for index in 0..<count where graph.usesParent {
            graph.nodes[index].inParent = random.chance(50)
        }
        graph.registrationOrder = Array(0..<count).shuffled(using: &random)
        let requestCount = 1 + random.below(min(count, options.maxRequests))
        let missing = graph.nodes.indices.filter { !graph.nodes[$0].registered }
        for _ in 0..<requestCount {
            if !missing.isEmpty, random.chance(10) {
                graph.requests.append(missing[random.below(missing.count)])
            } else {
                graph.requests.append(random.below(count))
            }
        }
        return graph
    }

    /// Adds unregistered nodes, each the first dependency of some registered node (so each is reported by it).
    /// Half of them share the type and name of a registered node with another argument list: a near miss.
    mutating func plantMissing(count: Int, _ random: inout SeededGenerator) {
        let registered = nodes.indices.filter { nodes[$0].registered }
        var keys = Set(nodes.indices.map(key))
        for number in 0..<count {
            // Each consumer gets one planted missing node, first in its list, so that resolving it reports that one.
            let candidates = registered.filter { consumer in
                nodes[consumer].dependencies.first.map { nodes[$0].registered } ?? true
            }
            guard !candidates.isEmpty else { break }
            var missing = FuzzNode(
                type: random.below(3), name: "missing\(number)", arity: random.below(4),
                scope: .graph, dependencies: [], registered: false, inParent: false)
            if random.chance(50) {
                let twin = nodes[registered[random.below(registered.count)]]
                missing.type = twin.type
                missing.name = twin.name
                missing.arity = (twin.arity + 1 + random.below(3)) % 4
            }
            let index = nodes.count
            nodes.append(missing)
            // The key must really be missing: another registration may already use the twin's other arity.
            if !keys.insert(key(index)).inserted {
                nodes[index].name = "missing\(number)"
                keys.insert(key(index))
            }
            let consumer = candidates[random.below(candidates.count)]
            nodes[consumer].dependencies.insert(index, at: 0)
        }
    }

    /// Adds back edges: a node reached by a walk down from a later node comes to depend on that later node.
    mutating func plantCycles(count: Int, registered: Int, _ random: inout SeededGenerator) {
        for _ in 0..<count {
            let top = random.below(registered)
            var bottom = top
            for _ in 0..<(1 + random.below(6)) {
                let next = nodes[bottom].dependencies.filter { $0 < bottom && nodes[$0].registered }
                guard !next.isEmpty else { break }
                bottom = next[random.below(next.count)]
            }
            let position = random.below(nodes[bottom].dependencies.count + 1)
            nodes[bottom].dependencies.insert(top, at: position)
        }
    }

    // MARK: Building containers

    /// Registers the graph into a child container (and its parent, when the graph uses one).
    func makeContainers(runtime: FuzzRuntime) -> (child: Container, parent: Container?) {
        let parent = usesParent ? Container(label: "parent") : nil
        let child = Container(parent: parent, label: "child")
        for index in registrationOrder {
            let node = nodes[index]
            let container = node.inParent ? parent! : child
            func register<T: FuzzInstance>(_: T.Type) {
                let scope = node.scope.objectScope
                switch node.arity {
                case 0:
                    container.register(T.self, name: node.name) { r in try runtime.make(T.self, index, r, []) }
                        .inObjectScope(scope)
                case 1:
                    container.register(T.self, name: node.name) { (r, a: Int) in try runtime.make(T.self, index, r, [a])
                    }
                    .inObjectScope(scope)
                case 2:
                    container.register(T.self, name: node.name) { (r, a: Int, b: Int) in
                        try runtime.make(T.self, index, r, [a, b])
                    }.inObjectScope(scope)
                default:
                    container.register(T.self, name: node.name) { (r, a: Int, b: Int, c: Int) in
                        try runtime.make(T.self, index, r, [a, b, c])
                    }.inObjectScope(scope)
                }
            }
            switch node.type {
            case 0: register(FuzzA.self)
            case 1: register(FuzzB.self)
            default: register(FuzzC.self)
            }
        }
        return (child, parent)
    }
}

/// What the factories of a generated graph share: the graph, and counts of what they did.
final class FuzzRuntime: @unchecked Sendable {  // @unchecked: the counts are only touched under `lock`.
    let graph: FuzzGraph
    private let lock = NSLock()
    private var startCounts: [Int]
    private var constructionCounts: [Int]

    init(graph: FuzzGraph) {
        self.graph = graph
        startCounts = Array(repeating: 0, count: graph.nodes.count)
        constructionCounts = startCounts
    }

    var starts: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return startCounts
    }
    var constructions: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return constructionCounts
    }

    /// The body of every factory: resolve the dependencies in order, then make the instance.
    func make<T: FuzzInstance>(_: T.Type, _ index: Int, _ resolver: Resolver, _ arguments: [Int]) throws -> T {
        lock.lock()
        startCounts[index] += 1
        lock.unlock()
        var dependencies: [FuzzInstance] = []
        for (position, dependency) in graph.nodes[index].dependencies.enumerated() {
            let arguments = graph.arguments(for: dependency, of: index, at: position)
            dependencies.append(try Self.resolve(graph.nodes[dependency], arguments, from: resolver))
        }
        lock.lock()
        constructionCounts[index] += 1
        lock.unlock()
        return T(node: index, arguments: arguments, dependencies: dependencies)
    }

    /// Resolves the registration of `node` with `arguments` (throwing).
    static func resolve(_ node: FuzzNode, _ arguments: [Int], from resolver: Resolver) throws(ResolutionError)
        -> FuzzInstance
    {
        func typed<T: FuzzInstance>(_: T.Type) throws(ResolutionError) -> FuzzInstance {
            switch arguments.count {
            case 0: try resolver.require(T.self, name: node.name)
            case 1: try resolver.require(T.self, name: node.name, argument: arguments[0])
            case 2: try resolver.require(T.self, name: node.name, arguments: arguments[0], arguments[1])
            default: try resolver.require(T.self, name: node.name, arguments: arguments[0], arguments[1], arguments[2])
            }
        }
        switch node.type {
        case 0: return try typed(FuzzA.self)
        case 1: return try typed(FuzzB.self)
        default: return try typed(FuzzC.self)
        }
    }
}

// MARK: - Reference model

/// An instance the model predicts: a serial number stands for its identity.
final class ModelInstance {
    let serial: Int
    let node: Int
    let arguments: [Int]
    let dependencies: [ModelInstance]
    init(serial: Int, node: Int, arguments: [Int], dependencies: [ModelInstance]) {
        self.serial = serial
        self.node = node
        self.arguments = arguments
        self.dependencies = dependencies
    }
}

/// A failure the model predicts.
struct ModelFailure: Error, CustomStringConvertible {
    let code: ResolutionError.Code
    let key: ServiceKey
    let path: [ServiceKey]
    let cycle: [ServiceKey]
    let nearMisses: [ServiceKey]

    var description: String {
        "\(code) \(key) path [\(path.map(\.description).joined(separator: " → "))]"
            + (cycle.isEmpty ? "" : " cycle [\(cycle.map(\.description).joined(separator: " → "))]")
    }

    /// Where `error` differs from this prediction, or nil.
    func divergence(from error: ResolutionError) -> String? {
        if error.code != code { return "code \(error.code), expected \(code)" }
        if error.key != key { return "key \(error.key), expected \(key)" }
        if error.path != path { return "path \(error.pathDescription), expected \(self)" }
        if error.cycle != cycle { return "cycle \(error.cycle), expected \(cycle)" }
        if error.nearMisses != nearMisses { return "near misses \(error.nearMisses), expected \(nearMisses)" }
        return nil
    }
}

/// The semantics of resolution, written as plainly as possible: a stack of nodes being made, one graph cache per
/// top-level request, one shared cache for the container and singleton scopes.
struct FuzzModel {
    let graph: FuzzGraph
    private(set) var starts: [Int]
    private(set) var constructions: [Int]
    private var shared: [Int: ModelInstance] = [:]
    private var serial = 0
    /// Near misses per service type: the child's keys in registration order, then the parent's.
    private let keysByType: [Int: [ServiceKey]]

    init(graph: FuzzGraph) {
        self.graph = graph
        starts = Array(repeating: 0, count: graph.nodes.count)
        constructions = starts
        var byType: [Int: [ServiceKey]] = [:]
        for inParent in [false, true] {
            for index in graph.registrationOrder where graph.nodes[index].inParent == inParent {
                byType[graph.nodes[index].type, default: []].append(graph.key(index))
            }
        }
        keysByType = byType
    }

    /// Whether node `index` is a created shared instance.
    func hasShared(_ index: Int) -> Bool { shared[index] != nil }

    mutating func resolveTopLevel(_ node: Int, arguments: [Int]) -> Result<ModelInstance, ModelFailure> {
        var stack: [Int] = []
        var graphCache: [Int: ModelInstance] = [:]
        do {
            return .success(try resolve(node, arguments, &stack, &graphCache))
        } catch {
            return .failure(error)
        }
    }

    private func keys(_ stack: [Int]) -> [ServiceKey] { stack.map(graph.key) }

    private mutating func resolve(
        _ index: Int, _ arguments: [Int], _ stack: inout [Int],
        _ graphCache: inout [Int: ModelInstance]
    ) throws(ModelFailure) -> ModelInstance {
        let node = graph.nodes[index]
        let key = graph.key(index)
        guard node.registered else {
            let misses = (keysByType[node.type] ?? []).filter { $0 != key }
            throw ModelFailure(code: .notRegistered, key: key, path: keys(stack) + [key], cycle: [], nearMisses: misses)
        }
        if node.scope.isShared, let instance = shared[index] { return instance }
        if node.scope == .graph, let instance = graphCache[index] { return instance }
        if let first = stack.firstIndex(of: index) {
            throw ModelFailure(
                code: .cycle, key: key, path: keys(stack) + [key],
                cycle: keys(Array(stack[first...])) + [key], nearMisses: [])
        }
        starts[index] += 1
        stack.append(index)
        var dependencies: [ModelInstance] = []
        for (position, dependency) in node.dependencies.enumerated() {
            let dependencyArguments = graph.arguments(for: dependency, of: index, at: position)
            do {
                dependencies.append(try resolve(dependency, dependencyArguments, &stack, &graphCache))
            } catch {
                stack.removeLast()
                throw error
            }
        }
        stack.removeLast()
        constructions[index] += 1
        serial += 1
        let instance = ModelInstance(serial: serial, node: index, arguments: arguments, dependencies: dependencies)
        if node.scope == .graph { graphCache[index] = instance }
        if node.scope.isShared { shared[index] = instance }
        return instance
    }
}

/// Checks that real instances have the structure and the identities the model predicts: the same model serial is
/// always the same object and the same object always the same serial (across every request of one seed).
struct IdentityMatcher {
    private var serialOf: [ObjectIdentifier: Int] = [:]
    private var objectOf: [Int: ObjectIdentifier] = [:]
    private var verified = Set<Int>()

    /// Where `actual` differs from `expected`, or nil.
    mutating func divergence(_ actual: FuzzInstance, _ expected: ModelInstance) -> String? {
        let object = ObjectIdentifier(actual)
        if let serial = serialOf[object], serial != expected.serial {
            return "node \(actual.node): one object stands for two model instances (\(serial), \(expected.serial))"
        }
        if let known = objectOf[expected.serial], known != object {
            return "node \(expected.node): one model instance is two objects"
        }
        serialOf[object] = expected.serial
        objectOf[expected.serial] = object
        guard verified.insert(expected.serial).inserted else { return nil }
        if actual.node != expected.node { return "made node \(actual.node), expected node \(expected.node)" }
        if actual.arguments != expected.arguments {
            return "node \(actual.node) made with arguments \(actual.arguments), expected \(expected.arguments)"
        }
        if actual.dependencies.count != expected.dependencies.count {
            return
                "node \(actual.node) has \(actual.dependencies.count) dependencies, expected \(expected.dependencies.count)"
        }
        for (real, model) in zip(actual.dependencies, expected.dependencies) {
            if let divergence = divergence(real, model) { return divergence }
        }
        return nil
    }
}
