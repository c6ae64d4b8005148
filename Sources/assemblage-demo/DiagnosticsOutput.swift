import Assemblage
import Foundation

/// What `--graph` and `--validate` print, and the exit status: standard output holds what was asked for (the graph,
/// the report), so that it can be piped to `dot` or `jq`; when only the graph was asked for and the graph is not
/// valid, the report goes to standard error, so that a failing run never fails in silence.
struct DemoDiagnostics: Equatable {
    var standardOutput: String
    var standardError: String
    var status: Int32
}

// In an extension, so that the struct keeps its memberwise initializer (the tests compare against it).
extension DemoDiagnostics {
    /// Validates the demo app (a broken copy with `options.broken`) and renders what `options` ask for.
    init(_ options: DemoOptions) {
        self.init(report: validateDemoApp(broken: options.broken), graph: options.graph, validate: options.validate)
    }

    /// Renders `report`: its graph in `graph`'s format when one is given, the report itself when `validate` is set.
    init(report: ValidationReport, graph: DemoOptions.GraphFormat?, validate: Bool) {
        var output: [String] = []
        if let graph { output.append(DemoGraph(report: report).text(graph)) }
        if validate { output.append(report.description) }
        standardOutput = output.joined(separator: "\n\n")
        standardError =
            !validate && !report.isValid
            ? "assemblage-demo: the app's graph is not valid (--validate prints this report on standard output):\n"
                + report.description
            : ""
        status = report.isValid ? 0 : 1
    }
}

/// The graph that validation recorded, with a node for every dependency that nothing registers.
///
/// ``DependencyGraph`` has a node per registration, so a dependency that validation found missing has none, and
/// the edge to it is not there either. `--graph` draws it: a dashed red node in DOT and Mermaid, a node with
/// `"missing": true` in JSON, reached from the registration whose factory asked for it.
struct DemoGraph {
    /// A dependency nothing registers.
    struct Missing: Equatable {
        /// The node's id in the drawn graph: `missing0`, `missing1`, … (registrations are `n0`, `n1`, …).
        let id: String
        /// What was asked for.
        let key: ServiceKey
        /// The ids of the registrations whose factories asked for it; empty when validation asked for it directly.
        var dependents: [String]
    }

    let graph: DependencyGraph
    let missing: [Missing]

    /// The report's graph and the missing registrations of its errors.
    init(report: ValidationReport) {
        let graph = report.graph
        var missing: [Missing] = []
        for issue in report.errors where issue.kind == .missingRegistration {
            guard let key = issue.key else { continue }
            // The path ends with the missing key; the key before it is the registration that asked for it.
            let dependent = issue.path.count >= 2 ? issue.path[issue.path.count - 2] : nil
            let dependentID = dependent.flatMap { dependent in graph.nodes.first { $0.key == dependent }?.id }
            if let index = missing.firstIndex(where: { $0.key == key }) {
                if let dependentID, !missing[index].dependents.contains(dependentID) {
                    missing[index].dependents.append(dependentID)
                }
            } else {
                missing.append(
                    Missing(
                        id: "missing\(missing.count)", key: key,
                        dependents: dependentID.map { [$0] } ?? []))
            }
        }
        self.graph = graph
        self.missing = missing
    }

    /// The graph as text in `format`.
    func text(_ format: DemoOptions.GraphFormat) -> String {
        switch format {
        case .mermaid: mermaid
        case .dot: dot
        case .json: json
        }
    }

    var mermaid: String {
        guard !missing.isEmpty else { return graph.mermaid }
        var lines = [graph.mermaid]
        for node in missing {
            let text = "\(node.key.description)<br/>missing: nothing registers it"
            lines.append("  \(node.id)[\"\(text.replacingOccurrences(of: "\"", with: "#quot;"))\"]:::missing")
            lines += node.dependents.map { "  \($0) -.-> \(node.id)" }
        }
        lines.append("  classDef missing stroke:#c00,stroke-width:2px,stroke-dasharray:5 5,color:#c00")
        return lines.joined(separator: "\n")
    }

    var dot: String {
        guard !missing.isEmpty else { return graph.dot }
        var lines = graph.dot.components(separatedBy: "\n")
        let closing = lines.last == "}" ? lines.removeLast() : "}"
        for node in missing {
            let label = "\(Self.escape(node.key.description))\\nmissing: nothing registers it"
            lines.append("  \(node.id) [label=\"\(label)\", style=dashed, color=red, fontcolor=red];")
            lines += node.dependents.map { "  \($0) -> \(node.id) [style=dashed, color=red];" }
        }
        lines.append(closing)
        return lines.joined(separator: "\n")
    }

    /// The library's JSON, with the missing nodes added to `nodes` (`"missing": true`, the type, name and argument
    /// types of what was asked for) and their edges to `edges`. Unchanged when nothing is missing.
    var json: String {
        guard !missing.isEmpty,
            var object = (try? JSONSerialization.jsonObject(with: Data(graph.json.utf8))) as? [String: Any],
            var nodes = object["nodes"] as? [Any], var edges = object["edges"] as? [Any]
        else { return graph.json }
        for node in missing {
            nodes.append(
                [
                    "id": node.id,
                    "missing": true,
                    "type": _typeName(node.key.serviceType, qualified: false),
                    "name": node.key.name.map { $0 as Any } ?? NSNull(),
                    "arguments": node.key.hasArguments ? "\(node.key.argumentsType)" : "",
                ] as [String: Any])
            edges += node.dependents.map { ["from": $0, "to": node.id] }
        }
        object["nodes"] = nodes
        object["edges"] = edges
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return graph.json }
        return String(decoding: data, as: UTF8.self)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
