import AssemblageGraphCheckKit
import Testing

@Suite struct MissingRegistrationTests {
    @Test func reportsResolveOfUnregisteredKeyAtItsLine() throws {
        let findings = Check.run(
            """
            struct ServiceAssembly: Assembly {
                func assemble(container: Container) {
                    container.register(UserService.self) { r in
                        UserService(http: try r.require(HTTPClient.self, name: "staging"))
                    }
                }
            }
            """)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.severity == .error)
        #expect(finding.code == .notRegistered)
        #expect(
            finding.description == """
                App.swift:4:37: error: No registration for HTTPClient (name: "staging"). Resolution path: UserService → \
                HTTPClient (name: "staging"). Nothing is registered for HTTPClient under any name or argument list.
                """)
    }

    @Test func nearMissesListTheOtherNamesAndArgumentLists() throws {
        let findings = Check.run(
            """
            c.register(Database.self, name: "replica") { _ in Database() }
            c.register(Database.self) { (_, url: URL) in Database(url: url) }
            let db = try c.require(Database.self, name: "primary")
            """)
        #expect(
            findings.map(\.message) == [
                #"No registration for Database (name: "primary"). Registered for Database: Database (name: "replica"), "#
                    + "Database (arguments: URL)."
            ])
    }

    @Test func argumentCountIsPartOfTheKey() {
        let source = """
            c.register(Greeting.self) { (r, name: String) in Greeting(name: name) }
            let a = try c.require(Greeting.self, argument: "Ada")
            let b = try c.require(Greeting.self)
            """
        #expect(Check.run(source).map(\.location.line) == [3])
    }

    @Test func lazyOfAMissingServiceNamesTheWrappedKey() {
        let findings = Check.run(
            "c.register(Report.self) { r in Report(renderer: try r.require(Lazy<Renderer>.self)) }")
        #expect(
            findings.first?.message.hasPrefix(
                "No registration for Lazy<Renderer>. Lazy<Renderer> resolves the registration of Renderer, and there is none."
            )
                == true)
    }

    @Test func optionalOfAMissingServiceIsNoFinding() {
        #expect(Check.run("c.register(Feed.self) { r in Feed(store: try r.require(Store?.self)) }").isEmpty)
    }

    @Test func emptyCollectionIsNoFinding() {
        let source = """
            c.register(Logger.self) { r in Logger(handlers: try r.resolveAll(Handler.self), named: try r.require([String: Handler].self)) }
            """
        #expect(Check.run(source).isEmpty)
    }

    @Test func plainResolveOfAMissingKeyIsANote() throws {
        let finding = try #require(Check.run("let s = c.resolve(Session.self)").first)
        #expect(finding.severity == .note)
        #expect(finding.message.contains("resolved with resolve(…), which gives nil"))
    }

    @Test func libraryTargetReportsMissingKeysOutsideModulesAsNotes() throws {
        let source = "c.register(Feed.self) { r in Feed(http: try r.require(HTTPClient.self)) }"
        #expect(Check.run(source, closedWorld: true).map(\.severity) == [.error])
        let finding = try #require(Check.run(source, closedWorld: false).first)
        #expect(finding.severity == .note)
        #expect(finding.message.contains("code that depends on this library may register it"))
    }

    @Test func typeAliasesNestedAndQualifiedNamesMatchTheirType() {
        let source = """
            typealias Store = KeyValueStore
            c.register(KeyValueStore.self) { _ in MemoryStore() }
            c.register(Outer.Inner.self) { _ in Outer.Inner() }
            c.register(MyApp.Clock.self) { _ in SystemClock() }
            c.register(A.self) { r in A(try r.require(Store.self), try r.require(Inner.self), try r.require(Clock.self)) }
            """
        #expect(Check.run(source).isEmpty)
    }

    @Test func registrationInADependencyTargetSatisfiesAResolve() {
        let own = ["App.swift": "let feed = try c.require(Feed.self)"]
        #expect(Check.run(own).count == 1)
        #expect(Check.run(own, dependencies: ["Feed.swift": "c.register(Feed.self) { _ in Feed() }"]).isEmpty)
    }

    @Test func findingsInADependencyTargetAreLeftToThatTarget() {
        let dependency = ["Feed.swift": "c.register(Feed.self) { r in Feed(try r.require(Missing.self)) }"]
        #expect(Check.run(["App.swift": ""], dependencies: dependency).isEmpty)
    }
}
