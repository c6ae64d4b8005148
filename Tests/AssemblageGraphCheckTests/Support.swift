import AssemblageGraphCheckKit
import Foundation
import Testing

/// Runs the checker on fixture files and on inline sources, and reads the `// expect:` markers of fixtures.
enum Check {
    /// The text of `Fixtures/<name>.swift`.
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/\(name).swift")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The findings for `sources` (all of them the target's own files unless listed in `dependencies`).
    static func run(
        _ sources: [String: String], dependencies: [String: String] = [:],
        closedWorld: Bool = true
    ) -> [Finding] {
        let inputs =
            sources.sorted { $0.key < $1.key }.map { GraphCheck.Input(path: $0.key, text: $0.value, own: true) }
            + dependencies.sorted { $0.key < $1.key }.map { GraphCheck.Input(path: $0.key, text: $0.value, own: false) }
        return GraphCheck.run(inputs, options: GraphChecker.Options(closedWorld: closedWorld)).findings
    }

    /// The findings for one inline source named `App.swift`.
    static func run(_ source: String, closedWorld: Bool = true) -> [Finding] {
        run(["App.swift": source], closedWorld: closedWorld)
    }

    /// The findings for a fixture, as `line severity code` strings.
    static func summary(ofFixture name: String, closedWorld: Bool = true) throws -> Set<String> {
        Set(run(["\(name).swift": try fixture(name)], closedWorld: closedWorld).map(summary))
    }

    /// `line severity code`.
    static func summary(_ finding: Finding) -> String {
        "\(finding.location.line) \(finding.severity.rawValue) \(finding.code.rawValue)"
    }

    /// The `// expect: severity code` markers of a fixture, as `line severity code` strings.
    static func expectations(ofFixture name: String) throws -> Set<String> {
        var result = Set<String>()
        for (offset, line) in try fixture(name).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let range = line.range(of: "// expect: ") else { continue }
            result.insert("\(offset + 1) " + line[range.upperBound...].trimmingCharacters(in: .whitespaces))
        }
        return result
    }
}
