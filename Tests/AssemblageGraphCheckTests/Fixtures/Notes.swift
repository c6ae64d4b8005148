import Assemblage

// What cannot be known from source: every finding here is a note.
struct DynamicAssembly: Assembly {
    let environment: String
    func assemble(container: Container) {
        container.register(Endpoint.self, name: environment) { _ in Endpoint() }   // expect: note notChecked
        container.register(Client.self) { r in Client(endpoint: try r.require(Endpoint.self, name: "prod")) }   // expect: note notChecked
        container.register(Session.self) { r in Session(token: r.resolve(Token.self)) }   // expect: note notChecked
        let key = "dynamic"
        container.register(Settings.self) { r in Settings(value: try r.require(Value.self, name: key)) }   // expect: note notChecked
        container.decorate(Unregistered.self) { _, inner in inner }   // expect: note notChecked
        container.register(Walk.self) { r in Walk(owner: r~>) }   // expect: note notChecked
    }
}

func register<T: Sendable>(_ type: T.Type, in container: Container, make: @escaping @Sendable () -> T) {
    container.register(T.self) { _ in make() }   // expect: note notChecked
}

final class Holder<Service> {
    @Injected var service: Service   // expect: note notChecked
    @OptionalInjected var optional: Profile?   // expect: note notChecked
}

struct HelperModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        registerNetworking(in: container)
        container.register(Feed.self) { r in Feed(http: try r.require(HTTPClient.self)) }   // expect: note notChecked
    }
}

struct ComputedModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { isTesting ? [] : [HelperModule.self] }
    func assemble(container: Container) {
        container.register(Poster.self) { r in Poster(logger: try r.require(AppLogger.self)) }   // expect: note notChecked
    }
}

struct Suppressed: Assembly {
    func assemble(container: Container) {
        container.register(Broken.self) { r in Broken(missing: try r.require(Missing.self)) }   // assemblage-check: ignore
        container.register(Loop.self) { r in Loop(loop: try r.require(Loop.self)) }   /* assemblage-check: ignore */
    }
}
