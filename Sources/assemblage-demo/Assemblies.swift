import Assemblage

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
            UserManager(users: try r.require(UserService.self), logger: try r.require(AppLogger.self),
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

/// Load-aware: once every assembly has registered, it attaches the log handlers to the shared logger.
struct LoggerAssembly: Assembly {
    func assemble(container: Container) {
        container.register(AppLogger.self) { _ in AppLogger() }.inObjectScope(.singleton)
        container.register(LogHandler.self, name: "console") { _ in ConsoleLogHandler() }
        container.register(LogHandler.self, name: "memory") { _ in MemoryLogHandler() }.inObjectScope(.container)
    }

    func loaded(resolver: Resolver) {
        guard let logger = resolver.resolve(AppLogger.self) else { return }
        for name in ["console", "memory"] {
            if let handler = resolver.resolve(LogHandler.self, name: name) { logger.add(handler) }
        }
    }
}
