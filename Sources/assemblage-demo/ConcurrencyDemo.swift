import Assemblage
import Foundation

// Concurrency: an actor built by an async factory, a @MainActor view model, and the typed errors for
// resolving them the wrong way.

/// An actor whose initialiser awaits (it "opens" a session store): registered with an async factory.
actor SessionStore {
    private(set) var user: String
    static let opened = OpenCount()

    init(users: UserService) async {
        try? await Task.sleep(nanoseconds: 1_000_000)  // pretend to open a database
        user = users.user(id: 7)
        Self.opened.add()
    }

    func greeting() -> String { "Welcome back, \(user)" }
}

/// Counts how many session stores were opened, from any task.
final class OpenCount: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func add() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// A view model isolated to the main actor, as UI code is.
@MainActor final class DashboardViewModel {
    let title: String
    private(set) var greeting = ""
    private let store: SessionStore

    init(store: SessionStore, clock: Clock) {
        self.store = store
        title = "Dashboard at \(clock.now())"
    }

    func load() async { greeting = await store.greeting() }
}

/// Shows async factories, main-actor registrations and their typed errors; prints what happens.
func runConcurrencyDemo() async {
    print("\n== Concurrency: async factories and @MainActor registrations")
    let container = Container(label: "concurrency")
    container.register(UserService.self) { _ in
        RemoteUserService(http: FakeHTTPClient(baseURL: "https://api.example.com"))
    }
    container.register(Clock.self) { _ in FixedClock() }
    container.register(SessionStore.self) { r in await SessionStore(users: try r.require(UserService.self)) }
        .inObjectScope(.container)
    // A synchronous factory can't await the store: the view model's store is handed in as an argument.
    container.register(
        DashboardViewModel.self,
        mainActorFactory: { (r, store: SessionStore) in
            DashboardViewModel(store: store, clock: try r.require(Clock.self))
        })
    for registration in container.isolatedRegistrations { print("  registered:", registration) }

    do {
        // 1. An actor-backed service, resolved by 100 tasks at once: opened exactly once.
        let stores = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<100 { group.addTask { ObjectIdentifier(try await container.resolveAsync(SessionStore.self)) } }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        print(
            "  100 tasks resolved SessionStore with try await: \(stores.count) instance, opened",
            "\(SessionStore.opened.count) time(s)")

        // 2. The @MainActor view model, resolved synchronously on the main actor.
        let store = try await container.resolveAsync(SessionStore.self)
        let summary = try await MainActor.run {
            let model = try container.require(DashboardViewModel.self, argument: store)
            return model.title
        }
        print("  on the main actor, require(DashboardViewModel.self) ->", summary)
        let model = try await container.resolveAsync(DashboardViewModel.self, argument: store)
        await model.load()
        print("  from any task, try await resolveAsync(DashboardViewModel.self) ->", await model.greeting)

        // 3. The same registrations resolved synchronously off the main actor: typed errors, never a crash.
        let errors = await Task.detached { () -> [ResolutionError] in
            var errors: [ResolutionError] = []
            do throws(ResolutionError) { _ = try container.require(SessionStore.self) } catch { errors.append(error) }
            do throws(ResolutionError) {
                _ = try container.require(DashboardViewModel.self, argument: store)
            } catch {
                errors.append(error)
            }
            return errors
        }.value
        print("  synchronously, from a task that is not on the main actor:")
        for error in errors { print("    [\(error.code)] \(error)") }
    } catch {
        print("  unexpected failure:\n\(error)")
    }
}
