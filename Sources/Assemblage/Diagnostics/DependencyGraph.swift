/// The registration graph that validation records: nodes are registrations, edges are the dependencies their
/// factories (and `initCompleted` steps and decorators) resolved.
///
/// Export it to look at it:
///
/// ```swift
/// let graph = container.validate().graph
/// print(graph.mermaid)      // paste into any Markdown that renders Mermaid
/// try graph.dot.write(to: URL(fileURLWithPath: "graph.dot"), atomically: true, encoding: .utf8)
/// ```
public struct DependencyGraph: Sendable, Equatable {
    /// One registration.
    public struct Node: Sendable, Equatable, Identifiable {
        /// A stable identifier within the graph (`n0`, `n1`, …).
        public let id: String
        /// The registration's key.
        public let key: ServiceKey
        /// The label of the container (or module) that registered it.
        public let container: String
        /// The scope's description (`graph`, `container`, …).
        public let scope: String
        /// Where it was registered.
        public let site: RegistrationSite
        /// `true` for a collection element.
        public let isCollectionElement: Bool
    }

    /// A dependency: `from` resolved `to`.
    public struct Edge: Sendable, Equatable, Hashable {
        /// The dependent's node id.
        public let from: String
        /// The dependency's node id.
        public let to: String

        /// Creates an edge.
        ///
        /// - Parameters:
        ///   - from: The dependent's node id.
        ///   - to: The dependency's node id.
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// The registrations, in registration order.
    public let nodes: [Node]
    /// The dependencies seen.
    public let edges: [Edge]

    /// Graphviz DOT text.
    public var dot: String {
        var lines = ["digraph Assemblage {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for node in nodes {
            lines.append(
                "  \(node.id) [label=\"\(Self.escape(node.key.description))\\n\(node.scope) · "
                    + "\(Self.escape(node.container))\"];")
        }
        for edge in edges { lines.append("  \(edge.from) -> \(edge.to);") }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Mermaid flowchart text.
    public var mermaid: String {
        var lines = ["flowchart LR"]
        for node in nodes {
            let text = "\(node.key.description)<br/>\(node.scope) · \(node.container)"
            lines.append("  \(node.id)[\"\(text.escaped(["\"": "#quot;"]))\"]")
        }
        for edge in edges { lines.append("  \(edge.from) --> \(edge.to)") }
        return lines.joined(separator: "\n")
    }

    /// JSON text: `{"nodes": [...], "edges": [...]}`, keys sorted, stable for diffs.
    public var json: String {
        let nodeText = nodes.map { node in
            "    {\"arguments\": \(Self.quote(node.key.hasArguments ? ServiceKey.argumentList(node.key.argumentsType) : "")), "
                + "\"collectionElement\": \(node.isCollectionElement), \"container\": \(Self.quote(node.container)), "
                + "\"id\": \(Self.quote(node.id)), \"name\": \(node.key.name.map(Self.quote) ?? "null"), "
                + "\"scope\": \(Self.quote(node.scope)), \"site\": \(Self.quote(node.site.description)), "
                + "\"type\": \(Self.quote(_typeName(node.key.serviceType, qualified: false)))}"
        }
        let edgeText = edges.map { "    {\"from\": \(Self.quote($0.from)), \"to\": \(Self.quote($0.to))}" }
        return "{\n  \"edges\": [\n" + edgeText.joined(separator: ",\n") + "\n  ],\n  \"nodes\": [\n"
            + nodeText.joined(separator: ",\n") + "\n  ]\n}"
    }

    /// The text for a quoted DOT label: `\\` and `"` escaped.
    private static func escape(_ text: String) -> String {
        text.escaped(["\\": "\\\\", "\"": "\\\""])
    }

    /// A JSON string literal.
    private static func quote(_ text: String) -> String {
        text.jsonStringLiteral
    }
}
