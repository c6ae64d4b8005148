import Assemblage
import Foundation
import Testing

// The code of the "Concurrency" article, compiled and run (see GettingStartedDocTests.swift).

enum ConcurrencyDoc {
    // snippet: concurrency-types
    final class Database: Sendable {}

    /// Counts calls from any thread.
    final class CallCounter: @unchecked Sendable {  // @unchecked: `count` is only touched under `lock`
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
        nonisolated init() {}  // so that a (nonisolated) factory can create it
    }
    // end-snippet

    protocol UserService: Sendable {
        func name() async -> String
    }

    struct StubUserService: UserService {
        func name() async -> String { "Ada" }
    }

    // snippet: concurrency-isolated-types
    @MainActor
    final class ProfileViewModel {
        let users: UserService
        var title = ""
        init(users: UserService) { self.users = users }  // isolated to the main actor
    }

    /// A connection whose opening awaits.
    final class Connection: Sendable {
        let path: String
        private init(path: String) { self.path = path }

        static func open(path: String) async throws -> Connection {
            try await Task.sleep(nanoseconds: 1_000_000)  // stands in for real I/O
            return Connection(path: path)
        }
    }

    actor SessionStore {
        let connection: Connection
        init(connection: Connection) { self.connection = connection }
    }
    // end-snippet

    /// A synchronous service that needs the main-actor view model.
    final class ProfileScreen: Sendable {
        let model: ProfileViewModel
        init(model: ProfileViewModel) { self.model = model }
    }

    struct Greeter: Sendable {
        let text: String
    }

    // snippet: concurrency-loader
    struct ProfileLoader: Sendable {
        @Injected var users: UserService  // Sendable, because UserService is
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
                let loader = ProfileLoader()  // @Injected var users: UserService, from `mock`
                return await loader.title()  // the switch holds across the suspension
            }
            // end-snippet
            #expect(title == "Ada")
        }

        @MainActor @Test func mainActorRegistration() async throws {
            let container = Container()
            // snippet: concurrency-main-actor-factory
            container.register(UserService.self) { _ in StubUserService() }
            container.register(
                ProfileViewModel.self,
                mainActorFactory: { r in
                    ProfileViewModel(users: try r.require(UserService.self))  // a @MainActor init, called directly
                })

            // On the main actor, a synchronous resolve runs the factory right here:
            let model = try container.require(ProfileViewModel.self)
            model.title = "Profile"
            // end-snippet
            #expect(model.title == "Profile")
            #expect(container.isolation(of: ProfileViewModel.self) == .mainActor)
            let fromTask = try await Task.detached {
                // snippet: concurrency-main-actor-async
                // From any task: resolveAsync hops to the main actor to run the factory.
                let model = try await container.resolveAsync(ProfileViewModel.self)
                // end-snippet
                return model
            }.value
            #expect(fromTask !== model)  // .graph: a new one per resolve
        }

        @Test func asyncFactories() async throws {
            let container = Container()
            // snippet: concurrency-async-factory
            let opened = CallCounter()
            container.register(Connection.self) { _ in
                opened.increment()
                return try await Connection.open(path: "app.sqlite")
            }
            .inObjectScope(.container)

            container.register(SessionStore.self) { r in
                SessionStore(connection: try await r.resolveAsync(Connection.self))
            }

            async let first = container.resolveAsync(SessionStore.self)
            async let second = container.resolveAsync(SessionStore.self)
            let (a, b) = try await (first, second)
            // opened.value == 1: both stores share the one connection, opened once
            // end-snippet
            #expect(opened.value == 1)
            #expect(a.connection === b.connection)
            #expect(a !== b)
            #expect(container.isolation(of: Connection.self) == .async)
        }

        @Test func synchronousResolvesThatCannotWork() async throws {
            let messages = await Task.detached { () -> [String] in
                // snippet: concurrency-requires-errors
                let container = Container()
                container.register(
                    ProfileViewModel.self,
                    mainActorFactory: { _ in
                        ProfileViewModel(users: StubUserService())
                    })
                container.register(Connection.self) { _ in try await Connection.open(path: "app.sqlite") }

                // Synchronously, off the main actor:
                do {
                    _ = try container.require(ProfileViewModel.self)
                } catch {
                    print(error)  // error.code == .requiresMainActor
                }
                do {
                    _ = try container.require(Connection.self)
                } catch {
                    print(error)  // error.code == .requiresAsync
                }
                let connection = container.resolve(Connection.self)  // nil, as for any failure
                // end-snippet
                // No #expect in here: a detached task does not inherit the current test.
                var messages: [String] = [connection == nil ? "nil" : "made"]
                do {
                    _ = try container.require(ProfileViewModel.self)
                } catch let error as ResolutionError {
                    messages.append("\(error.code): \(error.description)")
                } catch {
                    messages.append("unexpected: \(error)")
                }
                do {
                    _ = try container.require(Connection.self)
                } catch let error as ResolutionError {
                    messages.append("\(error.code): \(error.description)")
                } catch {
                    messages.append("unexpected: \(error)")
                }
                return messages
            }.value
            #expect(
                messages == [
                    "nil",
                    "requiresMainActor: ProfileViewModel is isolated to the main actor; resolve it on the main actor "
                        + "or with `try await resolver.resolveAsync(…)`.",
                    "requiresAsync: Connection has an async factory; resolve it with "
                        + "`try await resolver.resolveAsync(…)`.",
                ])
        }

        @Test func readingIsolation() throws {
            let container = Container(label: "app")
            container.register(UserService.self) { _ in StubUserService() }
            container.register(
                ProfileViewModel.self,
                mainActorFactory: { r in
                    ProfileViewModel(users: try r.require(UserService.self))
                })
            container.register(Connection.self) { _ in try await Connection.open(path: "app.sqlite") }
            // snippet: concurrency-isolation-query
            let service = container.isolation(of: UserService.self)  // .nonisolated
            let model = container.isolation(of: ProfileViewModel.self)  // .mainActor
            let connection = container.isolation(of: Connection.self)  // .async

            for registration in container.isolatedRegistrations {
                print(registration)  // ProfileViewModel — @MainActor — MyApp/AppContainer.swift:12 (in "app")
            }
            // end-snippet
            #expect(service == .nonisolated)
            #expect(model == .mainActor)
            #expect(connection == .async)
            let listed = container.isolatedRegistrations
            #expect(Set(listed.map(\.key)) == [ServiceKey(ProfileViewModel.self), ServiceKey(Connection.self)])
            let entry = try #require(listed.first { $0.isolation == .mainActor })
            #expect(entry.description.hasPrefix("ProfileViewModel — @MainActor — "))
            #expect(entry.description.hasSuffix(" (in \"app\")"))
        }

        @Test func validationReportsSynchronousPaths() throws {
            // snippet: concurrency-validate
            let container = Container(label: "app")
            container.register(UserService.self) { _ in StubUserService() }
            container.register(
                ProfileViewModel.self,
                mainActorFactory: { r in
                    ProfileViewModel(users: try r.require(UserService.self))
                })
            container.register(ProfileScreen.self) { r in  // nonisolated and synchronous
                ProfileScreen(model: try r.require(ProfileViewModel.self))
            }

            let report = container.validate()
            print(report.issues(of: .isolation)[0])
            // end-snippet
            let issue = try #require(report.issues(of: .isolation).first)
            #expect(issue.severity == .warning)
            #expect(issue.path == [ServiceKey(ProfileScreen.self), ServiceKey(ProfileViewModel.self)])
            #expect(
                issue.description == """
                    warning: isolation: ProfileScreen resolves ProfileViewModel synchronously (ProfileScreen → \
                    ProfileViewModel), but ProfileViewModel's factory is isolated to the main actor: it works only \
                    when the resolution runs on the main actor and fails with requiresMainActor anywhere else. \
                    Register ProfileScreen with a mainActorFactory, or resolve ProfileViewModel with \
                    `try await r.resolveAsync(…)`.
                    """)
        }

        @Test func taskLocalRoot() throws {
            // snippet: concurrency-task-root
            func greeting() throws -> String {
                try Container.root.require(Greeter.self).text  // from whatever this task switched to
            }

            let app = Container(label: "app")
            app.register(Greeter.self) { _ in Greeter(text: "Hello") }

            let text = try Container.withRoot(app) { try greeting() }  // "Hello"
            let same = Container.withRoot(app) { Container.root === app }  // true: this task's root
            // end-snippet
            #expect(text == "Hello")
            #expect(same)
            #expect(Container.withRoot(app) { Container.root === app })
        }
    }
}
