import AssemblageGraphCheckKit
import Testing

@Suite struct ModuleRuleTests {
    private let network = """
        struct NetworkModule: AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [] }
            func assemble(container: Container) {
                container.register(HTTPClient.self) { _ in URLSessionHTTPClient() }
            }
        }

        """

    private func module(_ name: String, dependencies: String = "", body: String) -> String {
        """
        struct \(name): AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [\(dependencies)] }
            func assemble(container: Container) {
                \(body)
            }
        }

        """
    }

    @Test func reportsAModuleResolvingAKeyOfAnUndeclaredDependency() throws {
        let source =
            network
            + module(
                "FeedModule",
                body: """
                    container.register(Feed.self) { r in Feed(http: try r.require(HTTPClient.self)) }
                    """)
        let finding = try #require(Check.run(source).first)
        #expect(finding.code == .outsideDependencies)
        #expect(finding.location.line == 10)
        #expect(
            finding.message == "No registration for HTTPClient visible from FeedModule. Resolution path: Feed → "
                + "HTTPClient. HTTPClient is registered in NetworkModule (App.swift:4), which FeedModule does not depend on: "
                + "add NetworkModule.self to FeedModule.dependencies.")
    }

    @Test func transitiveDependenciesAreVisible() {
        let source =
            network
            + module("ApiModule", dependencies: "NetworkModule.self", body: "")
            + module(
                "FeedModule", dependencies: "ApiModule.self",
                body: """
                    container.register(Feed.self) { r in Feed(http: try r.require(HTTPClient.self)) }
                    """)
        #expect(Check.run(source).isEmpty)
    }

    @Test func reportsAKeyRegisteredTwiceInOneModuleAtTheSecondRegistration() throws {
        let source = module(
            "StorageModule",
            body: """
                container.register(Storage.self) { _ in Disk() }
                        container.register(Storage.self) { _ in Memory() }
                """)
        let finding = try #require(Check.run(source).first)
        #expect(finding.code == .duplicateRegistration)
        #expect(finding.location.line == 5)
        #expect(finding.message.hasPrefix("StorageModule registers Storage twice: here and at App.swift:4."))
    }

    @Test func registrationsInExclusiveIfBranchesOrOnlyInLoopsAreNotDuplicates() {
        let source = module(
            "StorageModule",
            body: """
                #if DEBUG
                        container.register(Storage.self) { _ in Disk() }
                        #else
                        container.register(Storage.self) { _ in Memory() }
                        #endif
                        for name in names { container.register(Shard.self) { _ in Shard(name) } }
                """)
        #expect(Check.run(source).isEmpty)
    }

    @Test func registrationsInIfAndElseBranchesAreNotDuplicates() {
        let source = module(
            "StorageModule",
            body: """
                if useMemory {
                            container.register(Storage.self) { _ in Memory() }
                        } else {
                            container.register(Storage.self) { _ in Disk() }
                        }
                """)
        #expect(Check.run(source).isEmpty)
    }

    @Test func aContributionDoesNotDuplicateTheDynamicModulesOwnRegistration() {
        let source = """
            struct Interfaces: DynamicModuleAssembly, AutoInitModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [] }
                func assemble(container: Container) { container.register(API.self) { _ in DefaultAPI() } }
            }
            struct Contributor: AutoInitModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [Interfaces.self] }
                func assemble(container: Container) {
                    container.contribute(into: Interfaces.self) { i in i.register(API.self) { _ in BetterAPI() } }
                }
            }
            """
        #expect(Check.run(source).isEmpty)
    }

    @Test func reportsAReplacementThatMissesAKeyOfTheModuleItReplaces() throws {
        let source =
            network + """
                struct FakeNetworkModule: AutoInitModuleAssembly {
                    static var dependencies: [any ModuleAssembly.Type] { [] }
                    static var replaces: [any ModuleAssembly.Type] { [NetworkModule.self] }
                    func assemble(container: Container) {}
                }
                """
        let finding = try #require(Check.run(source).first)
        #expect(finding.code == .replacementMissingKey)
        #expect(finding.location.line == 9)
        #expect(
            finding.message == "FakeNetworkModule replaces NetworkModule but does not register HTTPClient "
                + "(App.swift:4), which NetworkModule registers: modules that depend on NetworkModule would fail to resolve it."
        )
    }

    @Test func reportsAModuleCycleAtTheDependencyThatClosesIt() throws {
        let source =
            module("AModule", dependencies: "BModule.self", body: "")
            + module("BModule", dependencies: "AModule.self", body: "")
        let finding = try #require(Check.run(source).first)
        #expect(finding.code == .moduleCycle)
        #expect(finding.location.line == 2)
        #expect(finding.message.hasPrefix("Circular module dependency: AModule → BModule → AModule."))
    }

    @Test func nestedModulesWithTheSameNameAreDistinct() {
        let source = """
            enum First {
                struct StorageModule: AutoInitModuleAssembly {
                    static var dependencies: [any ModuleAssembly.Type] { [] }
                    func assemble(container: Container) { container.register(Storage.self) { _ in Disk() } }
                }
            }
            enum Second {
                struct StorageModule: AutoInitModuleAssembly {
                    static var dependencies: [any ModuleAssembly.Type] { [] }
                    func assemble(container: Container) { container.register(Storage.self) { _ in Memory() } }
                }
                struct FeedModule: AutoInitModuleAssembly {
                    static var dependencies: [any ModuleAssembly.Type] { [StorageModule.self] }
                    func assemble(container: Container) { container.register(Feed.self) { r in Feed(try r.require(Storage.self)) } }
                }
            }
            """
        #expect(Check.run(source).isEmpty)
    }

    @Test func filePrivateModulesInDifferentFilesAreDistinct() {
        let a = "private " + module("LocalModule", body: "container.register(Storage.self) { _ in Disk() }")
        let b = "private " + module("LocalModule", body: "container.register(Storage.self) { _ in Memory() }")
        #expect(Check.run(["A.swift": a, "B.swift": b]).isEmpty)
    }

    @Test func aModuleThatCallsAnUnreadContainerMethodGetsNotesNotErrors() throws {
        let source = module(
            "HelperModule",
            body: """
                container.registerNetworking()
                        container.register(Feed.self) { r in Feed(http: try r.require(HTTPClient.self)) }
                """)
        #expect(Check.run(source).map(\.severity) == [.note])
    }

    @Test func aModuleThatHandsItsContainerToAHelperGetsNotesNotErrors() throws {
        let source = module(
            "HelperModule",
            body: """
                registerNetworking(in: container)
                        container.register(Feed.self) { r in Feed(http: try r.require(HTTPClient.self)) }
                """)
        let finding = try #require(Check.run(source).first)
        #expect(finding.severity == .note)
        #expect(finding.message.contains("HelperModule hands its container to code the check does not follow"))
    }
}
