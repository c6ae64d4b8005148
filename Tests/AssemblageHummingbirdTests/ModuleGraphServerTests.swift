#if Hummingbird
import Assemblage
import AssemblageHummingbird
import Hummingbird
import Logging
import Testing

// A server wired from a module graph (Knit-style): the integration takes the assembler's container, its request
// scopes reach every module, and the application's shutdown disposes what every module made.

/// The shared pool, in a module of its own.
private struct PoolModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let ledger: Ledger
    func assemble(container: Container) {
        let ledger = ledger
        container.register(Pool.self) { _ in Pool(component: Component("pool", ledger: ledger)) }
            .inObjectScope(.container).onDispose { await $0.component.dispose() }
    }
}

/// The request's tag and its scoped work, over the pool.
private struct WorkModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [PoolModule.self] }
    let ledger: Ledger
    func assemble(container: Container) {
        let ledger = ledger
        container.registerScopedValue(Tag.self)
        container.register(Work.self) { r in
            _ = try r.require(Pool.self)
            return Work(id: ledger.nextID(), tag: try r.require(Tag.self), ledger: ledger)
        }.inObjectScope(.scoped)
    }
}

@Suite struct ModuleGraphServerTests {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, *)
    @Test func aModuleGraphServesRequestScopesAndIsDisposedAtShutdown() async throws {
        let ledger = Ledger()
        let assembler = try ModuleAssembler([WorkModule(ledger: ledger), PoolModule(ledger: ledger)])
        let router = Router(context: BasicScopedRequestContext.self)
        router.add(
            middleware: RequestScopeMiddleware(container: assembler.container) { request, _, scope in
                try scope.provide(Tag(value: request.headers[.tag] ?? "none"))
            })
        router.get("work") { _, context in
            let work = try context.require(Work.self)
            return "\(work.tag.value) \(work === (try context.require(Work.self)))"
        }
        let application = { (onPort: @escaping @Sendable (Int) async -> Void) in
            var app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onPort($0.localAddress?.port ?? 0) },
                logger: Logger(label: "module-graph"))
            app.addContainer(assembler.container)
            return app
        }
        let answers = try await serveApplication(application) { port in
            try await withClient(connections: 2) { client in
                [
                    try await get(client, port: port, "work", tag: "a"),
                    try await get(client, port: port, "work", tag: "b"),
                ]
            }
        }
        #expect(answers.map(\.status) == [200, 200])
        #expect(answers.map(\.body) == ["a true", "b true"])
        // Each request's work was disposed with its scope; the pool, made by PoolModule, at the app's shutdown.
        #expect(ledger.count(prefix: "disposed work") == 2)
        #expect(ledger.all.last == "disposed pool")
        #expect(assembler.container.isShutDown)
        #expect(try assembler.resolver(for: PoolModule.self).resolve(Pool.self) == nil)
    }
}
#endif
