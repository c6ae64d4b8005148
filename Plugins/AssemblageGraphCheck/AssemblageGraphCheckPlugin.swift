import Foundation
import PackagePlugin

/// Checks a target's dependency-injection graph when it builds: reads the target's Swift files and those of the
/// targets it depends on, and fails the build at the line of a resolve that nothing registers, a cycle, a
/// duplicate registration in a module or an incomplete `replaces` module. See the "Build-Time Graph Check"
/// article of the Assemblage documentation.
@main
struct AssemblageGraphCheckPlugin: BuildToolPlugin {
    /// Assemblage's own targets: their registrations are the library's, not the app's graph.
    static let libraryTargets: Set<String> = [
        "Assemblage", "AssemblageScenes", "AssemblageTesting", "_AssemblageShims",
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else { return [] }
        let own = module.sourceFiles(withSuffix: "swift").map(\.url)
        var dependencies: [URL] = []
        var dependencyArguments: [String] = []
        for dependency in module.recursiveTargetDependencies
        where !Self.libraryTargets.contains(dependency.name) {
            if let source = dependency as? SwiftSourceModuleTarget {
                let files = source.sourceFiles(withSuffix: "swift").map(\.url)
                dependencies += files
                // The module name, for `@testable import` in generated validation tests.
                dependencyArguments +=
                    ["--dependency-module", source.moduleName, "--dependency"]
                    + files.map { $0.path(percentEncoded: false) }
            }
        }
        let kind: String
        switch module.kind {
        case .executable: kind = "executable"
        case .test: kind = "test"
        default: kind = "library"
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "AssemblageGraphCheck.swift")
        var arguments = ["--kind", kind, "--output", output.path(percentEncoded: false), "--own"]
        arguments += own.map { $0.path(percentEncoded: false) }
        arguments += dependencyArguments
        return [
            .buildCommand(
                displayName: "Checking the dependency graph of \(target.name)",
                executable: try context.tool(named: "assemblage-graph-check").url,
                arguments: arguments,
                inputFiles: own + dependencies,
                outputFiles: [output]
            )
        ]
    }
}
