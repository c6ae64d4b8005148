import Assemblage
import AssemblageProperties
import Dispatch
import Foundation

let usage = """
    assemblage-demo — an example app wired with Assemblage.

    Usage: swift run assemblage-demo [--help] [--mock] [--interactive] [--graph[=mermaid|dot|json]] [--validate]
                                     [--broken] [--profile PATH]

    Without flags it assembles the app (services, managers, a load-aware logger), resolves it, and prints:
      0. the settings loaded from settings.json (a resource of the demo) through a property loader;
      1. what the assembler registered, with scopes and the file:line of each registration;
      2. the resolved managers, a view model made with a runtime argument, and singleton identity;
      3. the errors Assemblage gives for a missing registration and for a constructor cycle;
      4. eight threads resolving the same graph at once, with the singleton built exactly once;
      5. a shop assembled as a module tree (--mock replaces its database module with an in-memory one);
      6. a debug overlay: a mock container in front of Container.main for one section, then back;
      7. scenes navigated by name in a terminal host (--interactive: navigate them yourself);
      8. concurrency: an actor built once by an async factory for 100 tasks, a @MainActor view model, and the
         typed errors for resolving them synchronously from the wrong place.

    Flags:
      --help, -h      this text
      --mock          section 5 assembles the shop with a fake database module (through `replaces`)
      --interactive   section 7 lets you navigate the scenes from the keyboard (numbers, b goes back,
                      q quits the demo)
      --graph[=FORMAT] print the app's dependency graph, recorded by validation, as Mermaid (the default),
                      Graphviz dot or JSON, and exit; a dependency nothing registers is drawn as a dashed
                      "missing" node ("missing": true in JSON), and when the graph is not valid the
                      validation report goes to standard error (exit status 1)
      --validate      print the validation report of the app's graph and exit (with --graph: both, on
                      standard output)
      --broken        with --validate or --graph: check a copy of the app that registers AuditTrail without the
                      AuditStore it needs, to see a real finding (exit status 1)
      --profile PATH  record the app's start (section 2, where its services are first made) as a startup
                      profile and write it to PATH: a folder gets the trace JSON (Perfetto, speedscope), the
                      flame graph SVG and the text report; a .json, .svg or .txt file gets that one
    """

let options: DemoOptions
switch DemoOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed):
    options = parsed
case .failure(let error):
    FileHandle.standardError.write(Data("assemblage-demo: \(error.message)\n\n\(usage)\n".utf8))
    exit(2)
}

if options.help {
    print(usage)
    exit(0)
}

func section(_ title: String) { print("\n== \(title)") }

// Diagnostics flags: validate the app's whole graph in a sandbox, print the recorded graph and/or the report, exit.
if options.diagnosticsOnly {
    let diagnostics = DemoDiagnostics(options)
    if !diagnostics.standardOutput.isEmpty { print(diagnostics.standardOutput) }
    if !diagnostics.standardError.isEmpty {
        FileHandle.standardError.write(Data((diagnostics.standardError + "\n").utf8))
    }
    exit(diagnostics.status)
}

print("assemblage-demo \(assemblageVersion): an example app wired with Assemblage (--help for what it shows)")

// 1. Assemble: properties first (so the loaded hooks and factories see them), then the assemblies.
// The demo keeps the container to inspect it; an app keeps only the assembler's resolver.
let appContainer = Container(label: "app")
let assembler: Assembler
do {
    assembler = try Assembler(
        [ServiceAssembly(), ManagerAssembly(), LoggerAssembly()],
        propertyLoaders: [JSONPropertyLoader(bundle: .module, name: "settings")],
        container: appContainer)
} catch {
    print("Could not load the demo's settings:\n\(error)")
    exit(1)
}
let resolver = assembler.resolver

section("Settings (settings.json, a resource of the demo)")
let server = try? resolver.decodeProperties(ServerSettings.self, forKey: "server")
print(
    "  api.baseURL = \(resolver.property("api.baseURL", as: String.self) ?? "?")",
    "| api.retries = \(resolver.property("api.retries", as: Int.self) ?? 0)",
    "| server = \(server.map { "\($0.host):\($0.port)" } ?? "?")")
section("Registrations")
print(appContainer.debugDescription)

// 2. Resolve. `userManager()` is a typed accessor that the AssemblageGraphCheck plugin generates for the
// registration of UserManager (asked for here: // assemblage-check: accessors); remove the registration and this
// line stops compiling.
section("Resolved")
recordingStartup(to: options.profile) {
    do {
        let users = try resolver.userManager()
        print("  UserManager:", users.greet(id: 7))
        let orders = try resolver.require(OrderManager.self)
        print("  OrderManager:", orders.summary(for: 7))
        let profile = try resolver.require(ProfileViewModel.self, argument: 42)
        print("  ProfileViewModel for user", profile.userID)
        let logger = try resolver.require(AppLogger.self)
        print("  AppLogger handlers (a collection, decorated):", logger.handlerLabels.joined(separator: ", "))
        print("  AppLogger is a singleton:", logger === (try resolver.require(AppLogger.self)))
        let memory = (try resolver.resolveAllNamed(LogHandler.self)["memory"] as? TimestampedLogHandler)?.inner
        print("  memory log lines:", (memory as? MemoryLogHandler)?.lines ?? [])
    } catch {
        print("  unexpected failure:\n\(error)")
        exit(1)
    }
}

// 3. Errors that teach.
section("Errors")
// Both failures in this section are deliberate, so the lines that cause them tell the build-time graph check
// (the AssemblageGraphCheck plugin, which fails the build on them otherwise) to let them pass.
let broken = Container(parent: appContainer, label: "broken")
broken.register(UserService.self) { r in
    RemoteUserService(http: try r.require(HTTPClient.self, name: "staging"))  // assemblage-check: ignore
}
do {
    _ = try broken.require(UserManager.self)
} catch {
    print(error.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
}
final class Chicken { init(egg: Egg) {} }
final class Egg { init(chicken: Chicken) {} }
broken.register(Chicken.self) { r in Chicken(egg: try r.require(Egg.self)) }
broken.register(Egg.self) { r in Egg(chicken: try r.require(Chicken.self)) }  // assemblage-check: ignore
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
let counted = Container(parent: appContainer, label: "counted")
counted.register(Clock.self) { _ in
    built.add()
    return FixedClock()
}.inObjectScope(.container)
let resolved = Tally()
DispatchQueue.concurrentPerform(iterations: 8) { _ in
    for _ in 0..<1_000 where counted.resolve(OrderManager.self) != nil { resolved.add() }
}
print("  resolved OrderManager \(resolved.count) times; its Clock singleton was built \(built.count) time(s)")

// 5. Modules.
runModulesDemo(mock: options.mock)

// 6. Debug overlay.
runOverlayDemo()

// 7. Scenes.
if runScenesDemo(interactive: options.interactive) {
    print("\nbye (q quits the demo)")
    exit(0)
}

// 8. Concurrency.
await runConcurrencyDemo()

// 9. Shutdown: the app's container disposes what it made, newest first, and then makes nothing more. (At the top
// level of a main.swift too, `try await shutdown()` is the awaiting form: the synchronous one has a name of its own.)
section("Shutdown")
try await appContainer.shutdown()
do {
    _ = try appContainer.require(OrderManager.self)
} catch {
    print("  after shutdown: \(error.description.split(separator: "\n").first ?? "")")
}
