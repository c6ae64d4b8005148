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

    /// The Swift files a target compiles: not its resources, which may be Swift files that are not code of the
    /// target (a test's fixtures of broken graphs, templates).
    static func swiftSources(of module: SwiftSourceModuleTarget) -> [URL] {
        module.sourceFiles.filter { $0.type == .source && $0.url.pathExtension == "swift" }.map(\.url)
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else { return [] }
        let own = Self.swiftSources(of: module)
        var dependencies: [URL] = []
        var dependencyArguments: [String] = []
        // A target that cannot import Assemblage registers, resolves and declares no module: the targets of other
        // packages (SwiftNIO, swift-log…) and helpers are left unread, so their files cost the check nothing.
        for dependency in module.recursiveTargetDependencies
        where !Self.libraryTargets.contains(dependency.name)
            && dependency.recursiveTargetDependencies.contains(where: { Self.libraryTargets.contains($0.name) })
        {
            if let source = dependency as? SwiftSourceModuleTarget {
                let files = Self.swiftSources(of: source)
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
