import Assemblage
import Testing

private protocol AbPayments: Sendable { var provider: String { get } }
private struct AbStripePayments: AbPayments { let provider = "stripe" }
private struct AbCheckout: Sendable { let payments: any AbPayments }

/// Declares `AbPayments` abstract and uses it; depends on nothing.
private struct AbCheckoutModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.registerAbstract((any AbPayments).self)
        container.registerAbstract(String?.self, name: "coupon")
        container.register(AbCheckout.self) { r in AbCheckout(payments: try r.require((any AbPayments).self)) }
    }
}

/// Provides `AbPayments`; unrelated to AbCheckoutModule in the graph.
private struct AbPaymentsModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register((any AbPayments).self) { _ in AbStripePayments() }.inObjectScope(.container)
        container.register(String?.self, name: "coupon") { _ in "WELCOME" }
    }
}

/// Depends on AbCheckoutModule only: sees AbPayments through AbCheckoutModule's abstract registration.
private struct AbCartModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [AbCheckoutModule.self] }
    func assemble(container: Container) {
        container.register(Int.self) { r in try r.require((any AbPayments).self).provider.count }
    }
}

@Suite("Abstract registrations")
struct AbstractRegistrationTests {
    @Test func aProviderAnywhereInTheGraphIsResolvedFromTheDeclaringModule() throws {
        let assembler = try ModuleAssembler(
            [AbCheckoutModule(), AbPaymentsModule()],
            overrideBehavior: .disableDefaultOverrides)
        let checkout = try assembler.resolver(for: AbCheckoutModule.self).require(AbCheckout.self)
        #expect(checkout.payments.provider == "stripe")
        #expect(try assembler.resolver.require(String?.self, name: "coupon") == "WELCOME")
    }

    @Test func dependentsOfTheDeclaringModuleSeeTheProvidedService() throws {
        let assembler = try ModuleAssembler(
            [AbCartModule(), AbPaymentsModule()], overrideBehavior: .disableDefaultOverrides)
        #expect(try assembler.resolver(for: AbCartModule.self).require(Int.self) == 6)
    }

    @Test func theProvidedServiceIsTheProvidersInstance() throws {
        let assembler = try ModuleAssembler(
            [AbCheckoutModule(), AbPaymentsModule()],
            overrideBehavior: .disableDefaultOverrides)
        let viaCheckout = try assembler.resolver(for: AbCheckoutModule.self).require((any AbPayments).self)
        let viaProvider = try assembler.resolver(for: AbPaymentsModule.self).require((any AbPayments).self)
        #expect(viaCheckout.provider == viaProvider.provider)
    }

    @Test func postAssembleAndParentAssemblersCountAsProviders() throws {
        let parent = try ModuleAssembler([AbPaymentsModule()], overrideBehavior: .disableDefaultOverrides)
        let child = try ModuleAssembler(
            [AbCheckoutModule()], overrideBehavior: .disableDefaultOverrides, parent: parent)
        #expect(try child.resolver.require(AbCheckout.self).payments.provider == "stripe")

        let rooted = ModuleAssembler(
            [AbCheckoutModule()], overrideBehavior: .disableDefaultOverrides,
            postAssemble: { container in
                container.register((any AbPayments).self) { _ in AbStripePayments() }
                container.register(String?.self, name: "coupon") { _ in nil }
            })
        #expect(rooted.assemblyError == nil)
        #expect(try rooted.resolver.require(AbCheckout.self).payments.provider == "stripe")
    }

    @Test func everyUnprovidedAbstractRegistrationFailsTheAssemblyAtOnce() {
        #expect {
            _ = try ModuleAssembler([AbCheckoutModule()], overrideBehavior: .disableDefaultOverrides)
        } throws: { error in
            guard let error = error as? ModuleAssemblyError else { return false }
            return error.codes == [.abstractRegistrationNotProvided, .abstractRegistrationNotProvided]
                && error.problems.map(\.module) == ["AbCheckoutModule", "AbCheckoutModule"]
                && error.problems[0].key?.serviceType == (any AbPayments).self
                && error.problems[1].key?.name == "coupon"
                && error.problems[0].related.first?.hasPrefix("AssemblageTests/AbstractRegistrationTests.swift:")
                    == true
                && error.description.contains("Fix: add the module that registers it")
        }
    }

    @Test func placeholdersFailWithATypedErrorOnlyWhenResolved() throws {
        let behavior = OverrideBehavior(usesDefaultOverrides: false, usesAbstractPlaceholders: true)
        let assembler = try ModuleAssembler([AbCheckoutModule()], overrideBehavior: behavior)
        #expect(try assembler.resolver.require(String?.self, name: "coupon") == nil)  // optional: nil
        #expect {
            _ = try assembler.resolver.require(AbCheckout.self)
        } throws: { error in
            let failure =
                (error as? ResolutionError).flatMap { $0.code == .factoryFailed ? nil : $0 }
                ?? (error as? ResolutionError)
            guard let failure else { return false }
            return failure.code == .abstractRegistrationNotProvided
                && failure.description.contains("AbCheckoutModule declares")
        }
    }

    @Test func theOverrideBehaviorsChooseWhetherPlaceholdersAreUsed() {
        #expect(OverrideBehavior.useDefaultOverrides.usesAbstractPlaceholders)
        #expect(!OverrideBehavior.disableDefaultOverrides.usesAbstractPlaceholders)
        #expect(OverrideBehavior.whenTesting.usesAbstractPlaceholders == OverrideBehavior.isRunningTests)
        #expect(OverrideBehavior(usesDefaultOverrides: true).usesAbstractPlaceholders)
        #expect(
            OverrideBehavior(usesDefaultOverrides: true, usesAbstractPlaceholders: false).description
                == "useDefaultOverrides without abstract placeholders")
    }

    @Test func aModuleThatRegistersItsOwnAbstractServiceNeedsNoProvider() throws {
        struct SelfProvided: AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [] }
            func assemble(container: Container) {
                container.register(String.self) { _ in "own" }
                container.registerAbstract(String.self)  // assemblage-check: ignore (declared and provided here)
            }
        }
        let assembler = try ModuleAssembler([SelfProvided()], overrideBehavior: .disableDefaultOverrides)
        #expect(try assembler.resolver.require(String.self) == "own")
    }
}
