import Assemblage
import Foundation

// A shop assembled as a module tree:
//
//   ShopAppModule ─┬─ CatalogModule ──────────┬─ NetworkModule
//                  │                          ├─ DatabaseModule  (needs a path; --mock: InMemoryDatabaseModule)
//                  │                          └─ AnalyticsModule
//                  ├─ CartModule ─────────────┬─ DatabaseModule
//                  │                          ├─ AnalyticsModule
//                  │                          └─ InterfacesModule (dynamic)
//                  └─ RecommendationsModule ──┬─ NetworkModule
//                                             └─ InterfacesModule  ← contributes Recommendations into it

// MARK: Services

protocol ShopStore: Sendable { var summary: String { get } }
struct SQLiteShopStore: ShopStore {
    let path: String
    var summary: String { "SQLite at \(path)" }
}
struct InMemoryShopStore: ShopStore {
    var summary: String { "in memory (mock)" }
}

final class AnalyticsTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func track(_ event: String) { lock.withLock { events.append(event) } }
    var count: Int { lock.withLock { events.count } }
}

struct CatalogService: Sendable {
    let http: HTTPClient
    let store: ShopStore
    func products() -> [String] { ["Teapot", "Kettle", "Whisk"] }
}

protocol Recommendations: Sendable { func alongside(_ product: String) -> String }
struct HTTPRecommendations: Recommendations {
    let http: HTTPClient
    func alongside(_ product: String) -> String { product == "Teapot" ? "Cups" : "Gift card" }
}

final class Cart: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    let recommendations: Recommendations?
    let analytics: AnalyticsTracker
    init(recommendations: Recommendations?, analytics: AnalyticsTracker) {
        self.recommendations = recommendations
        self.analytics = analytics
    }
    func add(_ product: String) -> String {
        lock.withLock { items.append(product) }
        analytics.track("add \(product)")
        return recommendations.map { "added \(product); customers also buy \($0.alongside(product))" }
            ?? "added \(product)"
    }
    var count: Int { lock.withLock { items.count } }
}

struct ShopApp: Sendable {
    let catalog: CatalogService
    let cart: Cart
}

// MARK: Modules

struct NetworkModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(HTTPClient.self) { _ in FakeHTTPClient(baseURL: "https://shop.example.com") }
            .inObjectScope(.container)
    }
}

/// Needs its file path from the app, so the app passes it in; tests and `--mock` use the in-memory one.
struct DatabaseModule: DefaultModuleAssemblyOverride {
    typealias OverrideType = InMemoryDatabaseModule
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let path: String
    func assemble(container: Container) {
        let path = self.path
        container.register(ShopStore.self) { _ in SQLiteShopStore(path: path) }.eager()  // opened at start-up
    }
}

struct InMemoryDatabaseModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [DatabaseModule.self] }
    func assemble(container: Container) {
        container.register(ShopStore.self) { _ in InMemoryShopStore() }.eager()
    }
}

struct AnalyticsModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(AnalyticsTracker.self) { _ in AnalyticsTracker() }.inObjectScope(.container)
    }
}

/// A hub of interfaces whose implementations other modules contribute.
struct InterfacesModule: DynamicModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

struct CatalogModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [NetworkModule.self, DatabaseModule.self, AnalyticsModule.self]
    }
    func assemble(container: Container) {
        container.register(CatalogService.self) { r in
            CatalogService(http: try r.require(HTTPClient.self), store: try r.require(ShopStore.self))
        }
    }
}

struct CartModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [DatabaseModule.self, AnalyticsModule.self, InterfacesModule.self]
    }
    func assemble(container: Container) {
        container.register(Cart.self) { r in
            // Optional: recommendations exist only if a module in the graph contributes them.
            Cart(recommendations: r.resolve(Recommendations.self), analytics: try r.require(AnalyticsTracker.self))
        }.inObjectScope(.container)
    }
}

struct RecommendationsModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, InterfacesModule.self] }
    func assemble(container: Container) {
        container.contribute(into: InterfacesModule.self) { interfaces in
            // Runs in RecommendationsModule's scope, so it can use NetworkModule, which CartModule cannot.
            interfaces.register(Recommendations.self) { r in HTTPRecommendations(http: try r.require(HTTPClient.self)) }
        }
    }
}

struct ShopAppModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [CatalogModule.self, CartModule.self, RecommendationsModule.self]
    }
    func assemble(container: Container) {
        container.register(ShopApp.self) { r in
            ShopApp(catalog: try r.require(CatalogService.self), cart: try r.require(Cart.self))
        }
    }
}

// MARK: The demo

/// Assembles the shop as a module tree and prints the assembly order, a few resolved services, module
/// scopes, a module reset, and the error for a module that cannot be provided.
///
/// - Parameter mock: Replace `DatabaseModule` by `InMemoryDatabaseModule` through `replaces`.
func runModulesDemo(mock: Bool) {
    print("\n== Modules: a shop assembled as a module tree\(mock ? " (--mock: in-memory database)" : "")")
    let database: any ModuleAssembly = mock ? InMemoryDatabaseModule() : DatabaseModule(path: "/var/shop.db")
    do {
        let assembler = try ModuleAssembler([ShopAppModule(), database])
        print("  assembly order: " + assembler.modules.map { "\($0)" }.joined(separator: " → "))

        let shop = try assembler.resolver.require(ShopApp.self)
        print("  database (eager, opened at start-up): \(shop.catalog.store.summary)")
        print("  catalog: \(shop.catalog.products().joined(separator: ", ")) — \(shop.catalog.http.get("/products"))")
        print("  cart: \(shop.cart.add("Teapot"))")

        let cartScope = try assembler.resolver(for: CartModule.self)
        let catalogScope = try assembler.resolver(for: CatalogModule.self)
        print(
            "  scopes: CartModule sees HTTPClient: \(cartScope.resolve(HTTPClient.self) != nil) (not a dependency, "
                + "though the Recommendations contributed to it use one); "
                + "CatalogModule sees it: \(catalogScope.resolve(HTTPClient.self) != nil)")

        let analytics = try assembler.resolver.require(AnalyticsTracker.self)
        try assembler.reset(CartModule.self)
        let newCart = try assembler.resolver.require(Cart.self)
        print(
            "  after reset(CartModule): new cart \(newCart !== shop.cart) with \(newCart.count) items; "
                + "analytics kept (\(newCart.analytics === analytics), \(analytics.count) event)")
    } catch {
        print("  unexpected failure:\n\(error)")
    }

    do {
        _ = try ModuleAssembler([ShopAppModule()])
    } catch {
        print("  without a database module:")
        print(error.description.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
    }
}
