import Assemblage
import Testing

// Interfaces live in a dynamic module; implementations in the modules that contribute them.

protocol PaymentsAPI: AnyObject { var transport: HTTPTransport { get } }
final class Payments: PaymentsAPI {
    let transport: HTTPTransport
    init(transport: HTTPTransport) { self.transport = transport }
}

protocol SearchAPI: AnyObject { var source: String { get } }
final class Search: SearchAPI {
    let source: String
    init(source: String) { self.source = source }
}

final class Receipt {
    let orderID: Int
    let currency: String
    init(orderID: Int, currency: String) {
        self.orderID = orderID
        self.currency = currency
    }
}

struct InterfacesModule: RecordingModule, DynamicModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func register(into container: Container) {
        container.register(SearchAPI.self) { _ in Search(source: "interfaces default") }
    }
}

/// Contributes payments; its factory needs NetworkModule, which only PaymentsContributorModule declares.
struct PaymentsContributorModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, InterfacesModule.self] }
    func register(into container: Container) {
        container.register(String.self, name: "currency") { _ in "EUR" }
        container.contribute(into: InterfacesModule.self) { interfaces in
            interfaces.register(PaymentsAPI.self) { r in Payments(transport: try r.require(HTTPTransport.self)) }
                .inObjectScope(.container)
            interfaces.register(Receipt.self) { (r: Resolver, orderID: Int) in
                Receipt(orderID: orderID, currency: try r.require(String.self, name: "currency"))
            }
        }
    }
}

struct SearchContributorModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [InterfacesModule.self] }
    func register(into container: Container) {
        container.contribute(into: InterfacesModule.self) { interfaces in
            interfaces.register(SearchAPI.self) { _ in Search(source: "search module") }
        }
    }
}

/// Depends on the interfaces only; never on the contributors.
struct CheckoutScreenModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [InterfacesModule.self] }
    func register(into container: Container) {}
}

/// A dynamic module that nobody in the test graphs depends on.
struct OrphanInterfacesModule: DynamicModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

struct OrphanContributorModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func register(into container: Container) {
        let landed = container.contribute(into: OrphanInterfacesModule.self) { interfaces in
            interfaces.register(SearchAPI.self) { _ in Search(source: "orphan") }
        }
        ModuleEventLog.current?.append("landed \(landed)")
    }
}

@Suite struct DynamicModuleTests {
    @Test func dependentsResolveContributionsThroughTheDynamicModule() throws {
        let assembler = try ModuleAssembler([CheckoutScreenModule(), PaymentsContributorModule()])
        let screen = try assembler.resolver(for: CheckoutScreenModule.self)
        let payments = try screen.require(PaymentsAPI.self)
        #expect(payments.transport.baseURL == "https://api.example.com")
        // CheckoutScreenModule does not see NetworkModule itself: only the contribution.
        #expect(screen.resolve(HTTPTransport.self) == nil)
    }

    @Test func contributedFactoryResolvesItsDependenciesInTheContributorsScope() throws {
        let assembler = try ModuleAssembler([CheckoutScreenModule(), PaymentsContributorModule()])
        let screen = try assembler.resolver(for: CheckoutScreenModule.self)
        let receipt = try screen.require(Receipt.self, argument: 42)
        #expect(receipt.orderID == 42)
        #expect(receipt.currency == "EUR")
        #expect(try assembler.resolver(for: InterfacesModule.self).resolve(String.self, name: "currency") == nil)
    }

    @Test func containerScopedContributionLivesInTheDynamicModule() throws {
        let assembler = try ModuleAssembler([CheckoutScreenModule(), PaymentsContributorModule()])
        let screen = try assembler.resolver(for: CheckoutScreenModule.self)
        let payments = try screen.require(PaymentsAPI.self)
        #expect(try assembler.resolver.require(PaymentsAPI.self) === payments)
        try assembler.reset(PaymentsContributorModule.self)
        #expect(try screen.require(PaymentsAPI.self) === payments)
        try assembler.reset(InterfacesModule.self)
        #expect(try screen.require(PaymentsAPI.self) !== payments)
    }

    @Test func contributionIsAbsentWhenItsContributorIsNotInTheGraph() throws {
        let assembler = try ModuleAssembler([CheckoutScreenModule()])
        let screen = try assembler.resolver(for: CheckoutScreenModule.self)
        #expect(screen.resolve(PaymentsAPI.self) == nil)
        #expect(throws: ResolutionError.self) { try screen.require(PaymentsAPI.self) }
        #expect(assembler.warnings.isEmpty)
    }

    @Test func contributionReplacesTheDynamicModulesOwnRegistration() throws {
        let without = try ModuleAssembler([CheckoutScreenModule()])
        #expect(try without.resolver.require(SearchAPI.self).source == "interfaces default")
        let with = try ModuleAssembler([CheckoutScreenModule(), SearchContributorModule()])
        #expect(try with.resolver(for: CheckoutScreenModule.self).require(SearchAPI.self).source == "search module")
    }

    @Test func contributionIntoADynamicModuleOutsideTheGraphIsDroppedWithAWarning() throws {
        var assembler: ModuleAssembler?
        let log = try ModuleEventLog.recording {
            assembler = try ModuleAssembler([OrphanContributorModule()])
        }
        #expect(log.events("landed") == ["false"])
        let warnings = try #require(assembler).warnings
        #expect(warnings.map(\.code) == [.contributionDropped])
        #expect(warnings.first?.module == "OrphanInterfacesModule")
        #expect(warnings.first?.related == ["OrphanContributorModule"])
        #expect(try #require(assembler).resolver.resolve(SearchAPI.self) == nil)
    }

    @Test func childAssemblerCannotContributeIntoItsParentsDynamicModule() throws {
        let parent = try ModuleAssembler([CheckoutScreenModule()])
        let child = try ModuleAssembler([SearchContributorModule()], parent: parent)
        #expect(child.warnings.map(\.code) == [.contributionDropped])
        #expect(try parent.resolver.require(SearchAPI.self).source == "interfaces default")
    }

    @Test func contributeOnAContainerThatIsNotAModuleScopeDoesNothing() {
        let container = Container()
        var called = false
        let landed = container.contribute(into: InterfacesModule.self) { _ in called = true }
        #expect(!landed)
        #expect(!called)
    }

    @Test func contributionNamesItsModules() throws {
        struct Probe: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [InterfacesModule.self] }
            func assemble(container: Container) {
                container.contribute(into: InterfacesModule.self) { interfaces in
                    ModuleEventLog.current?.append("names \(interfaces.contributorName) \(interfaces.moduleName)")
                }
            }
        }
        let log = try ModuleEventLog.recording { _ = try ModuleAssembler([Probe()]) }
        #expect(log.events("names") == ["Probe InterfacesModule"])
    }
}
