import Assemblage
import Foundation
import Testing

@testable import assemblage_demo

/// What `--graph`, `--validate` and `--broken` print and the status they exit with (main.swift prints
/// ``DemoDiagnostics`` as it is and exits with its status).
@Suite struct DemoDiagnosticsTests {
    private func options(_ arguments: String...) throws -> DemoOptions { try DemoOptions.parse(arguments).get() }

    /// The id of the node the graph gives `type`'s unnamed registration.
    private func nodeID(of type: Any.Type, in report: ValidationReport) throws -> String {
        try #require(report.graph.nodes.first { $0.key.serviceType == type && $0.key.name == nil }).id
    }

    @Test(arguments: DemoOptions.GraphFormat.allCases)
    func theValidAppsGraphIsTheLibrarysAndExitsZeroWithNothingOnStandardError(format: DemoOptions.GraphFormat) throws {
        let diagnostics = DemoDiagnostics(try options("--graph=\(format.rawValue)"))
        let report = validateDemoApp(broken: false)
        let expected =
            switch format {
            case .mermaid: report.graph.mermaid
            case .dot: report.graph.dot
            case .json: report.graph.json
            }
        #expect(diagnostics == DemoDiagnostics(standardOutput: expected, standardError: "", status: 0))
        #expect(!diagnostics.standardOutput.contains("missing"))
    }

    @Test func brokenMermaidDrawsTheMissingStoreFromTheTrailAndReportsTheFinding() throws {
        let diagnostics = DemoDiagnostics(try options("--graph", "--broken"))
        let trail = try nodeID(of: AuditTrail.self, in: validateDemoApp(broken: true))
        #expect(diagnostics.status == 1)
        let lines = diagnostics.standardOutput.components(separatedBy: "\n")
        #expect(lines.first == "flowchart LR")
        #expect(lines.contains("  missing0[\"AuditStore<br/>missing: nothing registers it\"]:::missing"))
        #expect(lines.contains("  \(trail) -.-> missing0"))
        #expect(lines.contains { $0.hasPrefix("  classDef missing ") })
        // The finding is printed, on standard error so that standard output stays a graph.
        #expect(diagnostics.standardError.contains("1 error, 0 warnings"))
        #expect(diagnostics.standardError.contains("No registration for AuditStore"))
        #expect(diagnostics.standardError.contains("AuditTrail → AuditStore"))
        #expect(!diagnostics.standardOutput.contains("No registration"))
    }

    @Test func brokenDotDrawsTheMissingStoreInsideTheDigraph() throws {
        let diagnostics = DemoDiagnostics(try options("--graph=dot", "--broken"))
        let trail = try nodeID(of: AuditTrail.self, in: validateDemoApp(broken: true))
        #expect(diagnostics.status == 1)
        let lines = diagnostics.standardOutput.components(separatedBy: "\n")
        #expect(lines.first == "digraph Assemblage {")
        #expect(lines.last == "}")
        let node = try #require(
            lines.firstIndex {
                $0 == "  missing0 [label=\"AuditStore\\nmissing: nothing registers it\", "
                    + "style=dashed, color=red, fontcolor=red];"
            })
        let edge = try #require(lines.firstIndex { $0 == "  \(trail) -> missing0 [style=dashed, color=red];" })
        #expect(node < edge && edge < lines.count - 1)
        #expect(lines.filter { $0 == "}" }.count == 1)
        #expect(diagnostics.standardError.contains("No registration for AuditStore"))
    }

    @Test func brokenJSONIsValidJSONWithTheMissingNodeAndItsEdge() throws {
        let diagnostics = DemoDiagnostics(try options("--graph=json", "--broken"))
        let report = validateDemoApp(broken: true)
        let trail = try nodeID(of: AuditTrail.self, in: report)
        #expect(diagnostics.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(diagnostics.standardOutput.utf8)) as? [String: Any])
        let nodes = try #require(object["nodes"] as? [[String: Any]])
        let edges = try #require(object["edges"] as? [[String: String]])
        #expect(nodes.count == report.graph.nodes.count + 1)
        #expect(edges.count == report.graph.edges.count + 1)
        let missing = nodes.filter { $0["missing"] as? Bool == true }
        #expect(missing.count == 1)
        #expect(missing.first?["id"] as? String == "missing0")
        #expect(missing.first?["type"] as? String == "AuditStore")
        #expect(missing.first?["name"] is NSNull)
        #expect(edges.contains { $0 == ["from": trail, "to": "missing0"] })
        // Every registration is still there, with the library's fields.
        let trailNode = try #require(nodes.first { $0["id"] as? String == trail })
        #expect(trailNode["type"] as? String == "AuditTrail" && trailNode["scope"] as? String == "graph")
        #expect(diagnostics.standardError.contains("No registration for AuditStore"))
    }

    @Test func validateAloneReportsOnStandardOutput() throws {
        let broken = DemoDiagnostics(try options("--validate", "--broken"))
        #expect(broken.status == 1)
        #expect(broken.standardOutput == validateDemoApp(broken: true).description)
        #expect(broken.standardError.isEmpty)
        let valid = DemoDiagnostics(try options("--validate"))
        #expect(
            valid
                == DemoDiagnostics(
                    standardOutput: validateDemoApp(broken: false).description,
                    standardError: "", status: 0))
    }

    @Test func graphAndValidateTogetherPrintTheGraphThenTheReportOnStandardOutput() throws {
        let diagnostics = DemoDiagnostics(try options("--graph=dot", "--validate", "--broken"))
        let report = validateDemoApp(broken: true)
        #expect(diagnostics.status == 1)
        #expect(diagnostics.standardOutput == DemoGraph(report: report).dot + "\n\n" + report.description)
        #expect(diagnostics.standardOutput.contains("missing0"))
        #expect(diagnostics.standardError.isEmpty)
    }

    @Test func aMissingServiceSeveralRegistrationsNeedIsOneNodeReachedFromTheRequesterTheReportNames() throws {
        // Validation reports one missing registration once, whoever needs it (the others are its `affected`), so
        // the graph draws one node, with the edge from the registration on the issue's path.
        final class Store: Sendable {}
        final class Reader: Sendable { init(_: Store) {} }
        final class Writer: Sendable { init(_: Store) {} }
        let container = Container(label: "app")
        // Missing on purpose: the build-time graph check would fail the build on these lines otherwise.
        container.register(Reader.self) { r in Reader(try r.require(Store.self)) }  // assemblage-check: ignore
        container.register(Writer.self) { r in Writer(try r.require(Store.self)) }  // assemblage-check: ignore
        let report = container.validate()
        let issue = try #require(report.errors.first)
        #expect(report.errors.count == 1 && issue.kind == .missingRegistration)
        let requester = try #require(issue.path.dropLast().last)
        let requesterID = try #require(report.graph.nodes.first { $0.key == requester }?.id)
        let requesters = [try nodeID(of: Reader.self, in: report), try nodeID(of: Writer.self, in: report)]
        #expect(requesters.contains(requesterID))

        let graph = DemoGraph(report: report)
        #expect(
            graph.missing
                == [DemoGraph.Missing(id: "missing0", key: ServiceKey(Store.self), dependents: [requesterID])])
        #expect(
            graph.mermaid.components(separatedBy: "\n").filter { $0.contains("missing0") }
                == [
                    "  missing0[\"Store<br/>missing: nothing registers it\"]:::missing",
                    "  \(requesterID) -.-> missing0",
                ])
        #expect(
            graph.dot.components(separatedBy: "\n").filter { $0.contains("-> missing0") }
                == ["  \(requesterID) -> missing0 [style=dashed, color=red];"])
    }

    @Test func aServiceValidationAsksForDirectlyIsAMissingNodeWithoutEdges() throws {
        final class Report: Sendable {}
        let container = Container(label: "app")
        var options = ValidationOptions()
        options.sample { r in _ = try r.require(Report.self) }  // assemblage-check: ignore
        let report = container.validate(options)
        #expect(!report.isValid)
        let graph = DemoGraph(report: report)
        #expect(graph.missing == [DemoGraph.Missing(id: "missing0", key: ServiceKey(Report.self), dependents: [])])
        #expect(graph.dot.components(separatedBy: "\n").filter { $0.contains("missing0") }.count == 1)
        let diagnostics = DemoDiagnostics(report: report, graph: .mermaid, validate: false)
        #expect(diagnostics.status == 1 && diagnostics.standardError.contains("No registration for Report"))
    }

    @Test func anOptionallyResolvedMissingServiceIsNotDrawnAsMissing() {
        final class Analytics: Sendable {}
        final class Screen: Sendable { init(_: Analytics?) {} }
        let container = Container(label: "app")
        container.register(Screen.self) { r in Screen(r.resolve(Analytics.self)) }  // assemblage-check: ignore
        let report = container.validate()
        #expect(report.isValid)
        #expect(DemoGraph(report: report).missing.isEmpty)
        #expect(
            DemoDiagnostics(report: report, graph: .json, validate: false)
                == DemoDiagnostics(standardOutput: report.graph.json, standardError: "", status: 0))
    }
}
