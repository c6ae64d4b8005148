import Assemblage
import Testing

// The code of the "Migrating from DITranquillity's assemblies" article, compiled and run
// (see GettingStartedDocTests.swift). The article's DITranquillity code ("before") is not compiled here.

enum DITranquillityMigrationDoc {
    protocol Database: AnyObject, Sendable {}
    final class SQLDatabase: Database {}
    protocol UserRepository: Sendable {}
    final class SQLUserRepository: UserRepository {
        init(database: Database) {}
    }
    final class Session: Sendable {}
    protocol PaymentsAPI: Sendable {}
    final class Payments: PaymentsAPI {
        init(database: Database) {}
    }

    final class ProfileScreen {
        var session: Session?
    }

    // snippet: dit-assemblies
    struct StorageAssembly: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        func assemble(container: Container) {
            container.register(Database.self) { _ in SQLDatabase() }
                .inObjectScope(.singleton)  // Single: one for the program…
                .eager()  // …created when the tree is assembled
        }
    }

    struct UserAssembly: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [StorageAssembly.self] }  // addDependencies
        func assemble(container: Container) {  // addModules
            container.register(UserRepository.self) { r in SQLUserRepository(database: try r.require(Database.self)) }
            container.register(Session.self) { _ in Session() }
                .inObjectScope(.container)  // PerScope: kept by this assembly until reset
        }
    }
    // end-snippet

    // snippet: dit-dynamic
    struct InterfacesAssembly: DynamicModuleAssembly, AutoInitModuleAssembly {  // DIDynamicAssembly
        static var dependencies: [any ModuleAssembly.Type] { [] }
        func assemble(container: Container) {}
    }

    struct PaymentsAssembly: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [StorageAssembly.self] }
        func assemble(container: Container) {
            container.contribute(into: InterfacesAssembly.self) { interfaces in  // addModule(_:Into:)
                interfaces.register(PaymentsAPI.self) { r in Payments(database: try r.require(Database.self)) }
            }
        }
    }
    // end-snippet

    struct ScreenAssembly: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [UserAssembly.self] }
        func assemble(container: Container) {
            // snippet: dit-per-request
            container.registerInjection(for: ProfileScreen.self) { r, screen in  // PerRequest
                screen.session = try r.require(Session.self)
            }
            // end-snippet
        }
    }

    @Suite("Docs: Migrating from DITranquillity") struct Samples {
        @Test func buildResolveReset() throws {
            // snippet: dit-build
            let assembler = try ModuleAssembler([UserAssembly()])  // try! YourAssembly().build()
            let users = try assembler.resolver(for: UserAssembly.self)  // yourAssembly.scope
            let repository = try users.require(UserRepository.self)  // scope.resolve()

            try assembler.reset(UserAssembly.self)  // reset()
            try assembler.resetAll(UserAssembly.self)  // resetAll()
            // end-snippet
            _ = repository
            let session = try users.require(Session.self)
            try assembler.reset(UserAssembly.self)
            #expect(try users.require(Session.self) !== session)
            let database = try users.require(Database.self)
            try assembler.resetAll(UserAssembly.self)
            #expect(try users.require(Database.self) === database)  // singletons survive
        }

        @Test func dynamicAssemblies() throws {
            // snippet: dit-dynamic-use
            let assembler = try ModuleAssembler([InterfacesAssembly(), PaymentsAssembly()])
            let payments = try assembler.resolver(for: InterfacesAssembly.self).resolve(PaymentsAPI.self)  // try?
            // end-snippet
            #expect(payments != nil)
        }

        @Test func perRequest() throws {
            let assembler = try ModuleAssembler([ScreenAssembly()])
            // snippet: dit-inject
            let screen = ProfileScreen()  // made by a storyboard
            try assembler.resolver.inject(into: screen)  // scope.resolve(object:)
            // end-snippet
            #expect(screen.session != nil)
        }

        @Test func resolveMany() throws {
            let container = Container()
            // snippet: dit-resolve-many
            container.registerIntoCollection(PaymentsAPI.self) { _ in Payments(database: SQLDatabase()) }
            let all = try container.resolveAll(PaymentsAPI.self)  // resolveMany()
            // end-snippet
            #expect(all.count == 1)
        }
    }
}
