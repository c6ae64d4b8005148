import Assemblage

struct BrokenAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Clock.self) { _ in SystemClock() }
        container.register(Database.self, name: "replica") { _ in Database() }
        container.register(Greeting.self) { (r, name: String) in Greeting(name: name, clock: try r.require(Clock.self)) }
        container.register(UserService.self) { r in
            UserService(http: try r.require(HTTPClient.self))   // expect: error notRegistered
        }
        container.register(Repository.self) { r in
            Repository(database: r.resolve(Database.self, name: "primary")!)   // expect: error notRegistered
        }
        container.register(Screen.self) { r in
            Screen(greeting: try r.require(Greeting.self))   // expect: error notRegistered
        }
        container.register(Report.self) { r in Report(renderer: try r.require(Lazy<Renderer>.self)) }   // expect: error notRegistered
        container.register(Cache.self) { r in Cache(store: r.resolve(Store.self)) }   // expect: note notChecked
        container.register(Feed.self) { r in Feed(store: try r.require(Store?.self)) }
        container.registerScopedValue(User.self, name: "caller")
        container.register(Audit.self) { r in Audit(user: try r.require(User.self)) }.inObjectScope(.scoped)   // expect: error notRegistered
        container.register(Owner.self) { r in Owner(pet: r ~> Pet.self, clock: r ~> (Clock.self)) }   // expect: error notRegistered
        container.register(scene: OrdersScene.self) { r in OrdersScene(orders: try r.require(OrderService.self)) }   // expect: error notRegistered
    }
}

final class ProfileModel {
    @Injected var session: Session   // expect: error notRegistered
    @OptionalInjected var analytics: Analytics?   // expect: note notChecked
}

func start(container: Container) throws {
    let app = try container.require(App.self)   // expect: error notRegistered
    let greeting = try container.require(Greeting.self, argument: "Ada")
    let twice = container ~> (Greeting.self, arguments: "Ada", "Grace")   // expect: error notRegistered
    print(app, greeting, twice)
}
