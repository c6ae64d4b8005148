/// One dependency between registrations: the factory of `from` requires what `to` makes.
struct CycleEdge {
    /// The registration whose factory resolves.
    var from: Int
    /// The registration that resolution finds.
    var to: Int
    /// The resolve call.
    var site: Placement
    /// Whether resolution finds exactly this registration (no other candidate in a visible scope).
    var definite: Bool
}

extension GraphChecker {
    /// Reports each circle of required edges (`require`, `resolve(…)!`, collections; not `Lazy`, `Provider`,
    /// optional `resolve` or `initCompleted`) once: as an error when every edge is certain, as a note when a
    /// key on it has several candidate registrations.
    mutating func checkCycles() {
        let definite = edges.filter(\.definite)
        var covered = Set<Int>()
        for component in stronglyConnected(definite) {
            covered.formUnion(component)
            reportCycle(in: component, edges: definite, severity: .error)
        }
        for component in stronglyConnected(edges) where !component.isSubset(of: covered) {
            reportCycle(in: component, edges: edges, severity: .note)
        }
    }

    private mutating func reportCycle(in component: Set<Int>, edges: [CycleEdge], severity: Finding.Severity) {
        let inside = edges.filter { component.contains($0.from) && component.contains($0.to) }
        guard
            let start = component.min(by: {
                facts.registrations[$0].placement.location < facts.registrations[$1].placement.location
            })
        else { return }
        // Breadth-first from `start` back to itself, inside the component.
        var previous: [Int: CycleEdge] = [:]
        var queue = [start]
        var closing: CycleEdge?
        search: while !queue.isEmpty {
            let node = queue.removeFirst()
            for edge in inside where edge.from == node {
                if edge.to == start {
                    closing = edge
                    break search
                }
                if previous[edge.to] == nil {
                    previous[edge.to] = edge
                    queue.append(edge.to)
                }
            }
        }
        guard var edge = closing else { return }
        var path = [edge]
        while edge.from != start, let before = previous[edge.from] {
            path.insert(before, at: 0)
            edge = before
        }
        if path.contains(where: { $0.site.ignored || facts.registrations[$0.from].placement.ignored }) { return }
        guard let site = path.first(where: { $0.site.own })?.site else { return }
        let keys =
            path.map { facts.registrations[$0.from].key.description } + [facts.registrations[start].key.description]
        let cycle = keys.joined(separator: " → ")
        let recursive = path.contains { (facts.registrations[$0.from].key.arity ?? 1) > 0 }
        if recursive {
            // A factory with runtime arguments may resolve itself with other values and stop: recursion.
            report(
                .note, .notChecked, at: site,
                "May be a circular dependency: \(cycle); a key on it takes runtime "
                    + "arguments, so the recursion may end on their values; validate() checks it.")
        } else if severity == .error {
            report(
                .error, .cycle, at: site,
                "Circular dependency: \(cycle). Break it with initCompleted (property "
                    + "injection) or by resolving Lazy/Provider.")
        } else {
            report(
                .note, .notChecked, at: site,
                "May be a circular dependency: \(cycle), depending on which of "
                    + "several registrations of a key wins at run time; validate() checks it.")
        }
    }

    /// Tarjan's strongly connected components that contain a cycle (more than one node, or a self-edge).
    private func stronglyConnected(_ edges: [CycleEdge]) -> [Set<Int>] {
        var adjacency: [Int: [Int]] = [:]
        for edge in edges { adjacency[edge.from, default: []].append(edge.to) }
        var index = 0
        var indices: [Int: Int] = [:]
        var lowLinks: [Int: Int] = [:]
        var onStack = Set<Int>()
        var stack: [Int] = []
        var result: [Set<Int>] = []
        func connect(_ node: Int) {
            indices[node] = index
            lowLinks[node] = index
            index += 1
            stack.append(node)
            onStack.insert(node)
            for next in adjacency[node] ?? [] {
                if indices[next] == nil {
                    connect(next)
                    lowLinks[node] = min(lowLinks[node]!, lowLinks[next]!)
                } else if onStack.contains(next) {
                    lowLinks[node] = min(lowLinks[node]!, indices[next]!)
                }
            }
            if lowLinks[node] == indices[node] {
                var component = Set<Int>()
                while let top = stack.popLast() {
                    onStack.remove(top)
                    component.insert(top)
                    if top == node { break }
                }
                if component.count > 1 || (adjacency[node] ?? []).contains(node) { result.append(component) }
            }
        }
        for node in adjacency.keys.sorted() where indices[node] == nil { connect(node) }
        return result
    }
}
