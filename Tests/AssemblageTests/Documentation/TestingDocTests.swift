import Assemblage
import Testing

// The code of the "Testing" article, compiled and run (see GettingStartedDocTests.swift).

enum TestingDoc {
    protocol PaymentGateway: Sendable {
        func charge(cents: Int) -> Bool
    }

    struct LiveGateway: PaymentGateway {
        func charge(cents: Int) -> Bool { true }
    }

    // snippet: testing-app
    final class Checkout: Sendable {
        let gateway: PaymentGateway
        init(gateway: PaymentGateway) { self.gateway = gateway }
        func pay(cents: Int) -> Bool { gateway.charge(cents: cents) }
    }

    struct AppAssembly: Assembly {
        func assemble(container: Container) {
            container.register(PaymentGateway.self) { _ in LiveGateway() }.inObjectScope(.container)
            container.register(Checkout.self) { r in Checkout(gateway: try r.require(PaymentGateway.self)) }
        }
    }

    /// A gateway that declines everything.
    struct DecliningGateway: PaymentGateway {
        func charge(cents: Int) -> Bool { false }
    }
    // end-snippet

    // snippet: testing-stub-assembly
    struct DecliningGatewayAssembly: Assembly {
        func assemble(container: Container) {
            container.register(PaymentGateway.self) { _ in DecliningGateway() }
        }
    }
    // end-snippet

    struct CheckoutScreen: Sendable {
        @Injected var checkout: Checkout
    }

    @Suite("Docs: Testing") struct Samples {
        // snippet: testing-assembly-swap
        @Test func declinedPaymentIsReported() throws {
            let assembler = Assembler([AppAssembly()])
            assembler.apply(assembly: DecliningGatewayAssembly())  // the later registration wins
            let checkout = try assembler.resolver.require(Checkout.self)
            #expect(checkout.pay(cents: 500) == false)
        }
        // end-snippet

        // snippet: testing-overlay
        @Test func overlayReplacesOneDependency() throws {
            let app = Container()
            AppAssembly().assemble(container: app)

            let test = Container(parent: app)  // app's registrations, with the stub in front
            test.register(PaymentGateway.self) { _ in DecliningGateway() }
            #expect(try test.require(Checkout.self).pay(cents: 500) == false)
            #expect(try app.require(Checkout.self).pay(cents: 500) == true)  // app is untouched
        }
        // end-snippet

        // snippet: testing-with-root
        @Test func screenUsesTheStub() {
            let stubs = Container()
            AppAssembly().assemble(container: stubs)
            stubs.register(PaymentGateway.self) { _ in DecliningGateway() }

            Container.withRoot(stubs) {  // this test's root; parallel tests keep theirs
                let screen = CheckoutScreen()  // @Injected var checkout: Checkout
                #expect(screen.checkout.pay(cents: 500) == false)
            }
        }
        // end-snippet

        // snippet: testing-validate
        @Test func appGraphIsValid() {
            let report = Assembler([AppAssembly()]).validate()
            #expect(report.isValid, "\(report)")
        }
        // end-snippet
    }
}
