/// The build-time graph check in one call: lex and scan the files, then check the graph.
///
/// ```swift
/// let report = GraphCheck.run([.init(path: "App.swift", text: source, own: true)],
///                             options: .init(closedWorld: true))
/// report.findings.forEach { print($0) }
/// ```
package enum GraphCheck {
    /// One source file to read.
    package struct Input: Sendable {
        /// The path printed in findings.
        package var path: String
        /// The file's contents.
        package var text: String
        /// Whether it belongs to the checked target (findings are reported only there); a dependency's file
        /// only contributes registrations and modules.
        package var own: Bool
        /// For a dependency's file, the Swift module it belongs to.
        package var module: String?

        /// Creates an input.
        package init(path: String, text: String, own: Bool, module: String? = nil) {
            self.path = path
            self.text = text
            self.own = own
            self.module = module
        }
    }

    /// What a check found.
    package struct Report: Sendable {
        /// The findings in the target's own files, by location.
        package var findings: [Finding]
        /// The facts the check read.
        package var facts: Facts
        /// The number of files read.
        package var fileCount: Int
        /// Typed accessors, when a file asked for them (see ``GraphChecker/accessorSource(_:)``).
        package var accessors: String
        /// Validation tests of the root modules, when a file asked for them (see
        /// ``GraphChecker/validationTestSource(_:)``).
        package var validationTests: String

        /// The errors.
        package var errors: [Finding] { findings.filter { $0.severity == .error } }

        /// One line: what was read and what was found.
        package var summary: String {
            let modules = Set(facts.moduleLists.filter { $0.kind == .dependencies }.map(\.typeName.name)).count

            let errorCount = errors.count
            let noteCount = findings.count - errorCount
            return "assemblage-check: \(fileCount) files, \(facts.registrations.count) registrations, "
                + "\(facts.resolves.count) resolves, \(modules) modules: "
                + "\(errorCount) error\(errorCount == 1 ? "" : "s"), \(noteCount) note\(noteCount == 1 ? "" : "s")"
        }
    }

    /// Reads `inputs` and checks their graph.
    ///
    /// - Parameters:
    ///   - inputs: The target's files and its dependencies' files.
    ///   - options: How the target relates to the rest of the program.
    /// - Returns: The findings and what was read.
    package static func run(_ inputs: [Input], options: GraphChecker.Options) -> Report {
        var facts = Facts()
        for input in inputs {
            DSLScanner.scan(SourceFile(path: input.path, text: input.text), own: input.own, into: &facts)
            if let module = input.module { facts.moduleOfFile[input.path] = module }
        }
        return Report(
            findings: GraphChecker.check(facts, options: options), facts: facts, fileCount: inputs.count,
            accessors: GraphChecker.accessorSource(facts), validationTests: GraphChecker.validationTestSource(facts))
    }
}
