import Assemblage
import Foundation
import Testing

// The code of the "Concurrency" article, compiled and run (see GettingStartedDocTests.swift).

enum ConcurrencyDoc {
    // snippet: concurrency-types
    final class Database: Sendable {}

    /// Counts calls from any thread.
    final class CallCounter: @unchecked Sendable {   // @unchecked: `count` is only touched under `lock`
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
    // end-snippet

    // snippet: concurrency-main-actor-type
    @MainActor
    final class ProfileScreenModel {
        var title = ""
        nonisolated init() {}   // so that a (nonisolated) factory can create it
    }
    // end-snippet

    protocol UserService: Sendable {
        func name() async -> String
    }

    struct StubUserService: UserService {
        func name() async -> String { "Ada" }
    }

    // snippet: concurrency-loader
    struct ProfileLoader: Sendable {
        @Injected var users: UserService   // Sendable, because UserService is
        func title() async -> String { await users.name() }
    }
    // end-snippet

    @Suite("Docs: Concurrency") struct Samples {
        @Test func sharedInstanceIsMadeOnce() async {
            // snippet: concurrency-once
            let builds = CallCounter()
            let container = Container()
            container.register(Database.self) { _ in
                builds.increment()
                return Database()
            }
            .inObjectScope(.container)

            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { _ = container.resolve(Database.self) }
                }
            }
            // builds.value == 1: the other tasks waited for the first one's instance
            // end-snippet
            #expect(builds.value == 1)
        }

        @MainActor @Test func mainActorObject() throws {
            let container = Container()
            // snippet: concurrency-main-actor
            container.register(ProfileScreenModel.self) { _ in ProfileScreenModel() }

            // On the main actor:
            let model = try container.require(ProfileScreenModel.self)
            model.title = "Profile"
            // end-snippet
            #expect(model.title == "Profile")
        }

        @Test func parallelTestsWithTheirOwnRoot() async {
            // snippet: concurrency-with-root
            let mock = Container()
            mock.register(UserService.self) { _ in StubUserService() }

            let title = await Container.withRoot(mock) {
                let loader = ProfileLoader()          // @Injected var users: UserService, from `mock`
                return await loader.title()           // the switch holds across the suspension
            }
            // end-snippet
            #expect(title == "Ada")
        }
    }
}
