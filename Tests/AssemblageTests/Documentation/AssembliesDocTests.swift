import Assemblage
import AssemblageProperties
import Foundation
import Testing

// The code of the "Assemblies and the Assembler" article, compiled and run (see GettingStartedDocTests.swift).

enum AssembliesDoc {
    protocol UserService: Sendable {
        func name(of userID: Int) -> String
    }

    struct RemoteUserService: UserService {
        func name(of userID: Int) -> String { "user \(userID)" }
    }

    struct StubUserService: UserService {
        func name(of userID: Int) -> String { "Ada" }
    }

    final class UserManager {
        let users: UserService
        init(users: UserService) { self.users = users }
    }

    /// A cache that the app warms up once everything is registered.
    final class AvatarCache: @unchecked Sendable {
        private(set) var isWarm = false
        func warmUp() { isWarm = true }
    }

    final class SettingsScreen {
        let users: UserManager
        init(users: UserManager) { self.users = users }
    }

    // snippet: assemblies-define
    struct ServiceAssembly: Assembly {
        func assemble(container: Container) {
            container.register(UserService.self) { _ in RemoteUserService() }
                .inObjectScope(.container)
            container.register(AvatarCache.self) { _ in AvatarCache() }
                .inObjectScope(.container)
        }

        func loaded(resolver: Resolver) {
            // Runs after every assembly of the batch has registered.
            resolver.resolve(AvatarCache.self)?.warmUp()
        }
    }

    struct ManagerAssembly: Assembly {
        func assemble(container: Container) {
            container.register(UserManager.self) { r in
                UserManager(users: try r.require(UserService.self))
            }
        }
    }
    // end-snippet

    // snippet: assemblies-mock
    struct StubServiceAssembly: Assembly {
        func assemble(container: Container) {
            container.register(UserService.self) { _ in StubUserService() }
        }
    }
    // end-snippet

    struct SettingsAssembly: Assembly {
        func assemble(container: Container) {
            container.register(SettingsScreen.self) { r in SettingsScreen(users: try r.require(UserManager.self)) }
        }
    }

    @Suite("Docs: Assemblies and the Assembler") struct Samples {
        @Test func assemble() throws {
            // snippet: assemblies-assembler
            let assembler = Assembler([ServiceAssembly(), ManagerAssembly()])
            let manager = try assembler.resolver.require(UserManager.self)
            let cache = try assembler.resolver.require(AvatarCache.self)  // cache.isWarm == true
            // end-snippet
            #expect(manager.users is RemoteUserService)
            #expect(cache.isWarm)
        }

        @Test func laterBatchesAndReplacement() throws {
            let assembler = Assembler([ServiceAssembly(), ManagerAssembly()])
            // snippet: assemblies-apply
            assembler.apply(assembly: SettingsAssembly())  // a batch of one, later
            assembler.apply(assemblies: [StubServiceAssembly()])  // replaces UserService
            // end-snippet
            #expect(try assembler.resolver.require(UserManager.self).users is StubUserService)
            #expect(try assembler.resolver.require(SettingsScreen.self).users.users is StubUserService)
        }

        @Test func parentAssembler() throws {
            // snippet: assemblies-parent
            let app = Assembler([ServiceAssembly(), ManagerAssembly()])
            let settings = Assembler([SettingsAssembly()], parent: app)

            let screen = try settings.resolver.require(SettingsScreen.self)  // UserManager comes from app
            let missing = app.resolver.resolve(SettingsScreen.self)  // nil: a parent never sees its children
            // end-snippet
            #expect(screen.users.users is RemoteUserService)
            #expect(missing == nil)
        }

        @Test func propertiesFirst() throws {
            // snippet: assemblies-properties
            let settings = JSONPropertyLoader(data: Data(#"{"api.retries": 3}"#.utf8), description: "settings")
            let assembler = try Assembler([ServiceAssembly(), ManagerAssembly()], propertyLoaders: [settings])
            let retries = assembler.resolver.property("api.retries", as: Int.self)  // 3
            // end-snippet
            #expect(retries == 3)
        }
    }
}
