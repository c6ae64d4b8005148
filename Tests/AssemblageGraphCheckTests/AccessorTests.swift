import AssemblageGraphCheckKit
import Testing

@Suite struct AccessorTests {
    private func accessors(_ sources: [String: String], dependencies: [String: String] = [:]) -> String {
        let inputs =
            sources.sorted { $0.key < $1.key }.map { GraphCheck.Input(path: $0.key, text: $0.value, own: true) }
            + dependencies.map { GraphCheck.Input(path: $0.key, text: $0.value, own: false) }
        return GraphCheck.run(inputs, options: .init(closedWorld: true)).accessors
    }

    private let types = """
        final class UserManager {}
        protocol HTTPClient {}
        enum Scenes { final class Session {} }

        """

    @Test func generatesAThrowingAccessorPerRegistrationWhenAsked() {
        let source =
            "// assemblage-check: accessors\n" + types + """
                c.register(UserManager.self) { _ in UserManager() }
                c.register(HTTPClient.self, name: "staging") { _ in Fake() }
                """
        #expect(
            accessors(["App.swift": source]) == """
                import Assemblage

                extension Resolver {
                    /// HTTPClient (name: "staging"), registered at App.swift:6.
                    func stagingHTTPClient() throws(ResolutionError) -> any HTTPClient {
                        try require((any HTTPClient).self, name: "staging")
                    }
                    /// UserManager, registered at App.swift:5.
                    func userManager() throws(ResolutionError) -> UserManager {
                        try require(UserManager.self)
                    }
                }

                """)
    }

    @Test func generatesNothingWithoutTheComment() {
        #expect(accessors(["App.swift": types + "c.register(UserManager.self) { _ in UserManager() }"]).isEmpty)
    }

    @Test func nestedTypesAreSpelledWithTheirEnclosingTypes() {
        let source =
            "// assemblage-check: accessors\n" + types + """
                extension Scenes {
                    static func assemble(c: Container) { c.register(Session.self) { _ in Session() } }
                }
                """
        let generated = accessors(["App.swift": source])
        #expect(generated.contains("func session() throws(ResolutionError) -> Scenes.Session {"))
        #expect(generated.contains("try require(Scenes.Session.self)"))
    }

    @Test func skipsWhatTheGeneratedFileCouldNotNameOrCall() {
        let source = """
            // assemblage-check: accessors
            private final class Hidden {}
            struct Box<Value> { final class Inner {} }
            func local() { final class Local {}; c.register(Local.self) { _ in Local() } }
            final class Made {}
            c.register(Hidden.self) { _ in Hidden() }
            c.register(Box<Int>.Inner.self) { _ in Box<Int>.Inner() }
            c.register(Made.self) { (_, count: Int) in Made() }
            c.register(Made.self, name: "not an identifier") { _ in Made() }
            c.register(Elsewhere.self) { _ in Elsewhere() }
            """
        #expect(accessors(["App.swift": source], dependencies: ["Lib.swift": "final class Elsewhere {}"]).isEmpty)
    }

    @Test func twoKeysWithOneMethodNameGetNeither() {
        let source = """
            // assemblage-check: accessors
            final class PrimaryClient {}
            final class Client {}
            c.register(PrimaryClient.self) { _ in PrimaryClient() }
            c.register(Client.self, name: "primary") { _ in Client() }
            """
        #expect(accessors(["App.swift": source]).isEmpty)
    }

    @Test(arguments: [("HTTPClient", "httpClient"), ("UserManager", "userManager"), ("URL", "url"), ("a", "a")])
    func methodNamesKeepAcronymsReadable(_ type: String, _ method: String) {
        #expect(GraphChecker.lowerCamel(type) == method)
    }
}
