import AssemblageGraphCheckKit
import Foundation
import Testing

/// Each fixture marks with `// expect: severity code` every line that must produce a finding; no other line may.
@Suite struct FixtureTests {
    @Test(arguments: ["CorrectGraph", "MissingRegistration", "ModuleRules", "Cycles", "Notes", "NoFalseErrors"])
    func fixtureProducesExactlyTheFindingsItsMarkersName(_ name: String) throws {
        let found = try Check.summary(ofFixture: name)
        let expected = try Check.expectations(ofFixture: name)
        #expect(
            found.subtracting(expected).isEmpty,
            "unexpected findings in \(name): \(found.subtracting(expected).sorted())")
        #expect(
            expected.subtracting(found).isEmpty, "missing findings in \(name): \(expected.subtracting(found).sorted())")
    }

    @Test func errorsOfTheBrokenFixtureAreAtTheColumnOfTheResolve() throws {
        let text = try Check.fixture("MissingRegistration")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let errors = Check.run(["MissingRegistration.swift": text]).filter { $0.severity == .error }
        #expect(errors.count == 10)
        for error in errors {
            let line = Array(lines[error.location.line - 1].utf8)
            let at = String(decoding: line[(error.location.column - 1)...], as: UTF8.self)
            #expect(
                ["require(", "resolve(", "Injected ", "~> "].contains { at.hasPrefix($0) },
                "\(error.location): \(at)")
        }
    }

    @Test func correctGraphProducesNoFindingAtAll() throws {
        #expect(Check.run(["CorrectGraph.swift": try Check.fixture("CorrectGraph")]).isEmpty)
    }

    @Test func everyErrorKindHasAFixtureLine() throws {
        var codes = Set<String>()
        for name in ["MissingRegistration", "ModuleRules", "Cycles"] {
            for expectation in try Check.expectations(ofFixture: name) where expectation.contains(" error ") {
                codes.insert(String(expectation.split(separator: " ").last!))
            }
        }
        #expect(
            codes == [
                "notRegistered", "outsideDependencies", "duplicateRegistration", "cycle", "moduleCycle",
                "replacementMissingKey",
            ])
    }

    @Test func demoGetsTheAccessorTheArticleShows() throws {
        let inputs = try Self.demoSources().map { GraphCheck.Input(path: $0.key, text: $0.value, own: true) }
        let accessors = GraphCheck.run(inputs, options: .init(closedWorld: true)).accessors
        #expect(
            accessors.contains(
                """
                    /// UserManager, registered at Assemblies.swift:16.
                    func userManager() throws(ResolutionError) -> UserManager {
                        try require(UserManager.self)
                    }
                """))
    }

    @Test func demoTestsGetTheValidationTestTheArticleShows() throws {
        let demo = try Self.demoSources().map {
            GraphCheck.Input(path: $0.key, text: $0.value, own: false, module: "assemblage_demo")
        }
        let marker = GraphCheck.Input(path: "T.swift", text: "// assemblage-check: validation-tests", own: true)
        let tests = GraphCheck.run([marker] + demo, options: .init(closedWorld: true)).validationTests
        #expect(
            tests.contains(
                """
                @Suite struct GeneratedModuleGraphTests {
                    @Test func shopAppModuleGraphIsValid() throws {
                        _ = assertValidGraph(try ModuleAssembler([ShopAppModule()], overrideBehavior: .useDefaultOverrides))
                    }
                }
                """))
        #expect(tests.contains("@testable import assemblage_demo"))
    }

    /// The demo's Swift files, by file name.
    static func demoSources() throws -> [String: String] {
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/assemblage-demo").standardizedFileURL
        var sources: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: demo.path) where file.hasSuffix(".swift") {
            sources[file] = try String(contentsOf: demo.appendingPathComponent(file), encoding: .utf8)
        }
        return sources
    }

    /// The code of each DocC article (`Tests/*/Documentation/*.swift`), checked alone as the whole program a user
    /// who copies it would build: no error. Code broken on purpose carries `// assemblage-check: ignore`. The
    /// build checks the same files with the plugin, but target by target, where another file's registrations
    /// could hide a false error.
    @Test func everyArticlesCodeChecksAloneWithoutErrors() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var files: [URL] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: tests.path) {
            let documentation = tests.appendingPathComponent(target).appendingPathComponent("Documentation")
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: documentation.path) else { continue }
            files += names.filter { $0.hasSuffix("DocTests.swift") }.map { documentation.appendingPathComponent($0) }
        }
        #expect(files.count >= 24)
        for file in files {
            let findings = Check.run([file.lastPathComponent: try String(contentsOf: file, encoding: .utf8)])
            #expect(findings.filter { $0.severity == .error }.isEmpty, "\(file.lastPathComponent): \(findings)")
        }
    }

    @Test func demoSourcesCheckWithoutErrors() throws {
        let sources = try Self.demoSources()
        #expect(sources.count >= 5)
        let findings = Check.run(sources)
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)")
    }
}
