import Assemblage
import Dispatch
import Foundation

let usage = """
    assemblage-demo — an example app wired with Assemblage.

    Usage: swift run assemblage-demo [--concurrency] [--help]

    Without flags it assembles the app (services, managers, a load-aware logger), resolves it, and prints:
      0. the settings loaded from settings.json (a resource of the demo) through a property loader;
      1. what the assembler registered, with scopes and the file:line of each registration;
      2. the resolved managers, a view model made with a runtime argument, and singleton identity;
      3. the errors Assemblage gives for a missing registration and for a constructor cycle;
      4. eight threads resolving the same graph at once, with the singleton built exactly once.
    --concurrency also shows an actor built by an async factory, a @MainActor view model, and their typed errors.
    """

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    print(usage)
    exit(0)
}

func section(_ title: String) { print("\n== \(title)") }

print("assemblage-demo \(assemblageVersion): an example app wired with Assemblage (--help for what it shows)")

// 1. Assemble: properties first (so the loaded hooks and factories see them), then the assemblies.
let assembler: Assembler
do {
    assembler = try Assembler([ServiceAssembly(), ManagerAssembly(), LoggerAssembly()],
                              propertyLoaders: [JSONPropertyLoader(bundle: .module, name: "settings")])
} catch {
    print("Could not load the demo's settings:\n\(error)")
    exit(1)
}
let resolver = assembler.resolver
section("Settings (settings.json, a resource of the demo)")
let server = try? resolver.decodeProperties(ServerSettings.self, forKey: "server")
print("  api.baseURL = \(resolver.property("api.baseURL", as: String.self) ?? "?")",
      "| api.retries = \(resolver.property("api.retries", as: Int.self) ?? 0)",
      "| server = \(server.map { "\($0.host):\($0.port)" } ?? "?")")
section("Registrations")
print(resolver._container.description)

// 2. Resolve.
section("Resolved")
do {
    let users = try resolver.require(UserManager.self)
    print("  UserManager:", users.greet(id: 7))
    let orders = try resolver.require(OrderManager.self)
    print("  OrderManager:", orders.summary(for: 7))
    let profile = try resolver.require(ProfileViewModel.self, argument: 42)
    print("  ProfileViewModel for user", profile.userID)
    let logger = try resolver.require(AppLogger.self)
    print("  AppLogger handlers (added by LoggerAssembly.loaded):", logger.handlerLabels.joined(separator: ", "))
    print("  AppLogger is a singleton:", logger === (try resolver.require(AppLogger.self)))
    let memory = try resolver.require(LogHandler.self, name: "memory") as? MemoryLogHandler
    print("  memory log lines:", memory?.lines ?? [])
} catch {
    print("  unexpected failure:\n\(error)")
    exit(1)
}

// 3. Errors that teach.
section("Errors")
let broken = Container(parent: resolver._container, label: "broken")
broken.register(UserService.self) { r in RemoteUserService(http: try r.require(HTTPClient.self, name: "staging")) }
do {
    _ = try broken.require(UserManager.self)
} catch {
    print(error.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
}
final class Chicken { init(egg: Egg) {} }
final class Egg { init(chicken: Chicken) {} }
broken.register(Chicken.self) { r in Chicken(egg: try r.require(Egg.self)) }
broken.register(Egg.self) { r in Egg(chicken: try r.require(Chicken.self)) }
do {
    _ = try broken.require(Chicken.self)
} catch {
    print(error.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
}

// 4. Threads.
section("Eight threads, one singleton")
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
let built = Tally()
let counted = Container(parent: resolver._container, label: "counted")
counted.register(Clock.self) { _ in built.add(); return FixedClock() }.inObjectScope(.container)
let resolved = Tally()
DispatchQueue.concurrentPerform(iterations: 8) { _ in
    for _ in 0..<1_000 where counted.resolve(OrderManager.self) != nil { resolved.add() }
}
print("  resolved OrderManager \(resolved.count) times; its Clock singleton was built \(built.count) time(s)")

if CommandLine.arguments.contains("--concurrency") { await runConcurrencyDemo() }
