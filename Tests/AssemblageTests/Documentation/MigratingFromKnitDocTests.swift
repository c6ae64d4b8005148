import Assemblage
import Testing

// The code of the "Migrating from Knit" article, compiled and run (see GettingStartedDocTests.swift).
// The article's Knit code ("before") is Knit's, and is not compiled here.

enum KnitMigrationDoc {
    protocol NetworkClient: Sendable {}
    final class LiveNetworkClient: NetworkClient {}
    protocol Database: Sendable {}
    final class SQLDatabase: Database {}
    final class FakeDatabase: Database {}

    final class ProfileService: Sendable {
        let network: NetworkClient
        let database: Database
        init(network: NetworkClient, database: Database) {
            self.network = network
            self.database = database
        }
    }

    // snippet: knit-modules
    struct NetworkAssembly: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        func assemble(container: Container) {
            container.register(NetworkClient.self) { _ in LiveNetworkClient() }.inObjectScope(.container)
        }
    }

    struct DatabaseAssembly: AutoInitModuleAssembly, DefaultModuleAssemblyOverride {
        typealias OverrideType = FakeDatabaseAssembly
        static var dependencies: [any ModuleAssembly.Type] { [] }
        func assemble(container: Container) {
            container.register(Database.self) { _ in SQLDatabase() }.inObjectScope(.container)
        }
    }

    struct ProfileAssembly: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [NetworkAssembly.self, DatabaseAssembly.self] }
        func assemble(container: Container) {
            container.register(ProfileService.self) { r in
                ProfileService(network: try r.require(NetworkClient.self), database: try r.require(Database.self))
            }
        }
    }
    // end-snippet

    // snippet: knit-fake
    struct FakeDatabaseAssembly: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        static var replaces: [any ModuleAssembly.Type] { [DatabaseAssembly.self] }
        func assemble(container: Container) {
            container.register(Database.self) { _ in FakeDatabase() }
        }
    }
    // end-snippet

    @Suite("Docs: Migrating from Knit") struct Samples {
        @Test func assemble() throws {
            // snippet: knit-assemble
            let tests = try ModuleAssembler([ProfileAssembly()])  // in a test process: the fake, as in Knit
            let app = try ModuleAssembler([ProfileAssembly()], overrideBehavior: .disableDefaultOverrides)  // real
            // end-snippet
            #expect(try app.resolver.require(ProfileService.self).database is SQLDatabase)
            #expect(try tests.resolver.require(ProfileService.self).database is FakeDatabase)
        }

        @Test func errorsAreThrown() {
            // snippet: knit-errors
            do {
                _ = try ModuleAssembler([ProfileAssembly(), FakeDatabaseAssembly(), FakeDatabaseAssembly()])
            } catch {
                print(error.codes)  // [duplicateModule]: every problem of the graph, none fatal
            }
            // end-snippet
            do {
                _ = try ModuleAssembler([ProfileAssembly(), FakeDatabaseAssembly(), FakeDatabaseAssembly()])
                Issue.record("expected an error")
            } catch {
                #expect(error.codes == [.duplicateModule])
            }
        }

        @Test func collections() throws {
            let container = Container()
            // snippet: knit-collection
            container.registerIntoCollection(NetworkClient.self) { _ in LiveNetworkClient() }
            let clients = try container.resolveAll(NetworkClient.self)  // ServiceCollection.allEntries
            // end-snippet
            #expect(clients.count == 1)
        }
    }
}
