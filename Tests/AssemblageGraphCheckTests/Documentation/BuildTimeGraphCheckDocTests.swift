import Assemblage
import AssemblageGraphCheckKit
import Foundation
import Testing

// The code of the "Build-Time Graph Check" article. The tests below run the checker on the snippets themselves
// (read from this file) and compare its output with the article's text, then check that the runtime agrees.

final class GraphCheckHTTPClient: Sendable {}
final class GraphCheckFeedService: Sendable {
    let http: GraphCheckHTTPClient
    init(http: GraphCheckHTTPClient) { self.http = http }
}

enum GraphCheckDoc {
    typealias HTTPClient = GraphCheckHTTPClient
    typealias FeedService = GraphCheckFeedService

    // assemblage-check: ignore-begin (the article's example of the error the check reports)
    // snippet: graph-check-undeclared-dependency
    struct NetworkModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        func assemble(container: Container) {
            container.register(HTTPClient.self) { _ in HTTPClient() }.inObjectScope(.container)
        }
    }

    struct FeedModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }  // forgot NetworkModule
        func assemble(container: Container) {
            container.register(FeedService.self) { r in FeedService(http: try r.require(HTTPClient.self)) }
        }
    }
    // end-snippet
    // assemblage-check: ignore-end

    protocol PaymentProvider: Sendable {}
    struct CardPayments: PaymentProvider {}

    /// Stands in for code that registers what it finds at run time (plug-ins, a configuration file).
    enum PluginLoader {
        static func registerAll(into container: Container) {
            let discovered: [@Sendable (Container) -> Void] = [
                { $0.register(PaymentProvider.self) { _ in CardPayments() } }
            ]
            for register in discovered { register(container) }
        }
    }

    static func checkout() throws -> any PaymentProvider {
        // snippet: graph-check-ignore
        let container = Container()
        PluginLoader.registerAll(into: container)  // registers PaymentProvider from the plug-ins it finds
        let payments = try container.require(PaymentProvider.self)  // assemblage-check: ignore (a plug-in's)
        // end-snippet
        return payments
    }
}

@Suite("Docs: Build-Time Graph Check") struct BuildTimeGraphCheckDocTests {
    /// The lines of a snippet region of this file, without the marker's indentation.
    static func snippet(_ name: String) throws -> String {
        let text = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// snippet: \(name)" })
        let end = try #require(
            lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// end-snippet" })
        let indent = lines[start].prefix { $0 == " " }.count
        return lines[(start + 1)..<end].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
            .joined(separator: "\n")
    }

    @Test func undeclaredDependencyFailsTheBuildAtTheResolve() throws {
        let source = try Self.snippet("graph-check-undeclared-dependency")
        let findings = GraphCheck.run(
            [.init(path: "FeedModules.swift", text: source, own: true)],
            options: .init(closedWorld: true)
        ).findings
        // The article's text block.
        #expect(
            findings.map(\.description) == [
                "FeedModules.swift:11:77: error: No registration for HTTPClient visible from FeedModule. Resolution path: "
                    + "FeedService → HTTPClient. HTTPClient is registered in NetworkModule (FeedModules.swift:4), which "
                    + "FeedModule does not depend on: add NetworkModule.self to FeedModule.dependencies."
            ])
    }

    @Test func theRuntimeAgreesWithTheBuildTimeCheck() throws {
        let assembler = try ModuleAssembler([GraphCheckDoc.FeedModule(), GraphCheckDoc.NetworkModule()])
        #expect(throws: ResolutionError.self) { try assembler.resolver.require(GraphCheckFeedService.self) }
        #expect(!assembler.validate().isValid)
    }

    @Test func ignoreCommentLetsARunTimeRegistrationPass() throws {
        let source = try Self.snippet("graph-check-ignore")
        let check = { (text: String) in
            GraphCheck.run([.init(path: "Checkout.swift", text: text, own: true)], options: .init(closedWorld: true))
                .findings
        }
        #expect(check(source).isEmpty)
        let unsilenced = source.replacingOccurrences(of: "// assemblage-check: ignore (a plug-in's)", with: "")
        #expect(check(unsilenced).map(\.code) == [.notRegistered])
        _ = try GraphCheckDoc.checkout()
    }
}
