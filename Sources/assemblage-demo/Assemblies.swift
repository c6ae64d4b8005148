import Assemblage
import AssemblageProperties

struct ServiceAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Clock.self) { _ in FixedClock() }.inObjectScope(.container)
        container.register(HTTPClient.self) { r in FakeHTTPClient(baseURL: try r.requireProperty("api.baseURL")) }
            .inObjectScope(.container)
        container.register(UserService.self) { r in RemoteUserService(http: try r.require(HTTPClient.self)) }
        container.register(OrderService.self) { r in RemoteOrderService(http: try r.require(HTTPClient.self)) }
    }
}

struct ManagerAssembly: Assembly {
    func assemble(container: Container) {
        container.register(UserManager.self) { r in
            UserManager(
                users: try r.require(UserService.self), logger: try r.require(AppLogger.self),
                greeting: r.property("greeting") ?? "Hi")
        }
        container.register(OrderManager.self) { r in
            OrderManager(orders: try r.require(OrderService.self), clock: try r.require(Clock.self))
        }
        container.register(ProfileViewModel.self) { r, userID in
            ProfileViewModel(userID: userID, manager: try r.require(UserManager.self))
        }
    }
}

/// The logger receives its handlers as a collection: any assembly may contribute one.
/// Load-aware: once every assembly of the batch has registered, `loaded` announces the configured logger.
struct LoggerAssembly: Assembly {
    func assemble(container: Container) {
        container.register(AppLogger.self) { r in AppLogger(handlers: try r.resolveAll(LogHandler.self)) }
            .inObjectScope(.singleton)
        container.registerIntoCollection(LogHandler.self, name: "console", priority: 10) { _ in ConsoleLogHandler() }
            .inObjectScope(.container)
        container.registerIntoCollection(LogHandler.self, name: "memory") { _ in MemoryLogHandler() }
            .inObjectScope(.container)
        // Every handler gets a timestamp prefix, whoever registered it.
        container.decorate(LogHandler.self) { r, inner in
            TimestampedLogHandler(inner: inner, clock: try r.require(Clock.self))
        }
    }

    func loaded(resolver: Resolver) {
        resolver.resolve(AppLogger.self)?.log("logger ready")
    }
}
