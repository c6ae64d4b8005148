import Assemblage
import Testing

// The code of the "Scopes" article, compiled and run (see GettingStartedDocTests.swift).

// snippet: scopes-custom-scope
extension ObjectScope {
    /// One instance per signed-in session, dropped on sign-out.
    static let session = ObjectScope(storageFactory: PermanentStorage.init, description: "session")
}
// end-snippet

enum ScopesDoc {
    // snippet: scopes-types
    final class Database: Sendable {}

    final class UserStore {
        let database: Database
        init(database: Database) { self.database = database }
    }

    final class OrderStore {
        let database: Database
        init(database: Database) { self.database = database }
    }

    final class Checkout {
        let users: UserStore
        let orders: OrderStore
        init(users: UserStore, orders: OrderStore) {
            self.users = users
            self.orders = orders
        }
    }
    // end-snippet

    final class Cart {}
    final class Connection {
        let host: String
        init(host: String) { self.host = host }
    }

    @Suite("Docs: Scopes") struct Samples {
        @Test func graphScope() throws {
            // snippet: scopes-graph
            let container = Container()
            container.register(Database.self) { _ in Database() }  // .graph, the default
            container.register(UserStore.self) { r in UserStore(database: try r.require(Database.self)) }
            container.register(OrderStore.self) { r in OrderStore(database: try r.require(Database.self)) }
            container.register(Checkout.self) { r in
                Checkout(users: try r.require(UserStore.self), orders: try r.require(OrderStore.self))
            }

            let checkout = try container.require(Checkout.self)
            // checkout.users.database === checkout.orders.database: one resolution, one Database
            let another = try container.require(Checkout.self)
            // another.users.database !== checkout.users.database: a new resolution, a new Database
            // end-snippet
            #expect(checkout.users.database === checkout.orders.database)
            #expect(another.users.database !== checkout.users.database)

            // snippet: scopes-transient
            container.register(Database.self) { _ in Database() }
                .inObjectScope(.transient)
            let separate = try container.require(Checkout.self)
            // separate.users.database !== separate.orders.database: every request, a new Database
            // end-snippet
            #expect(separate.users.database !== separate.orders.database)
        }

        @Test func containerScopeAndReset() throws {
            // snippet: scopes-container
            let app = Container()
            app.register(Database.self) { _ in Database() }
                .inObjectScope(.container)
            let screen = Container(parent: app)

            let first = try app.require(Database.self)
            let fromChild = try screen.require(Database.self)  // the same instance: children share it

            app.resetObjectScope(.container)  // the container lets go of it
            let fresh = try app.require(Database.self)  // a new instance
            // end-snippet
            #expect(first === fromChild)
            #expect(fresh !== first)
        }

        @Test func weakScope() throws {
            let container = Container()
            // snippet: scopes-weak
            container.register(Cart.self) { _ in Cart() }.inObjectScope(.weak)

            var held: Cart? = try container.require(Cart.self)
            let same = try container.require(Cart.self)  // shared while someone holds it
            // end-snippet
            #expect(held === same)
            held = nil
            _ = held
        }

        @Test func singletonSurvivesResets() throws {
            let container = Container()
            // snippet: scopes-singleton
            container.register(Database.self) { _ in Database() }.inObjectScope(.singleton)

            let database = try container.require(Database.self)
            container.resetObjectScope(.container)
            container.resetObjectScope(.singleton)  // does nothing: singletons are never reset
            // try container.require(Database.self) === database
            // end-snippet
            #expect(try container.require(Database.self) === database)
            container.removeAll()
            #expect(container.resolve(Database.self) == nil)
        }

        @Test func multiton() throws {
            let container = Container()
            // snippet: scopes-multiton
            container.register(Connection.self) { (_, host: String) in Connection(host: host) }
                .inObjectScope(.multiton)

            let a1 = try container.require(Connection.self, argument: "a.example")
            let a2 = try container.require(Connection.self, argument: "a.example")  // a1 === a2
            let b = try container.require(Connection.self, argument: "b.example")  // another instance
            // end-snippet
            #expect(a1 === a2)
            #expect(b !== a1)
        }

        @Test func customScope() throws {
            let container = Container()
            // snippet: scopes-custom
            container.register(Cart.self) { _ in Cart() }.inObjectScope(.session)

            let cart = try container.require(Cart.self)  // kept until the session ends
            // on sign-out:
            container.resetObjectScope(.session)
            // end-snippet
            #expect(try container.require(Cart.self) !== cart)
        }

        @Test func defaultScope() throws {
            // snippet: scopes-default
            let services = Container(defaultObjectScope: .container)
            services.register(Database.self) { _ in Database() }  // .container, this container's default
            // end-snippet
            #expect(try services.require(Database.self) === services.require(Database.self))
        }
    }
}
