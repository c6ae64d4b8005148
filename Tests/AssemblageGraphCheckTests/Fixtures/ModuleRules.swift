import Assemblage

struct NetworkModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(HTTPClient.self) { _ in URLSessionHTTPClient() }
    }
}

struct StorageModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(Storage.self) { _ in DiskStorage() }
        container.register(Migrator.self) { _ in Migrator() }
        container.register(Storage.self) { _ in DiskStorage() }   // expect: error duplicateRegistration
        container.register(Storage.self, name: "cache") { _ in DiskStorage() }
        #if DEBUG
        container.register(Logger.self) { _ in VerboseLogger() }
        #else
        container.register(Logger.self) { _ in QuietLogger() }
        #endif
        for name in ["a", "b"] {
            container.register(Shard.self, name: "shard") { _ in Shard(name: name) }
        }
    }
}

struct FeedModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [StorageModule.self] }
    func assemble(container: Container) {
        container.register(FeedService.self) { r in
            FeedService(http: try r.require(HTTPClient.self),   // expect: error outsideDependencies
                        storage: try r.require(Storage.self))
        }
        container.register(Poster.self) { r in Poster(logger: try r.require(AppLogger.self)) }   // expect: error outsideDependencies
    }
}

struct InMemoryStorageModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [StorageModule.self] }   // expect: error replacementMissingKey
    func assemble(container: Container) {
        container.register(Storage.self) { _ in InMemoryStorage() }
    }
}

struct AuthModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [SessionModule.self] }   // expect: error moduleCycle
    func assemble(container: Container) {}
}

struct SessionModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [AuthModule.self] }
    func assemble(container: Container) {}
}

// Outside modules: a module's container never searches here.
func registerLogging(in container: Container) {
    container.register(AppLogger.self) { _ in AppLogger() }
}
