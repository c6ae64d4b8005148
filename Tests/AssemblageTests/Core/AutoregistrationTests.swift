import Assemblage
import Testing

// A small billing domain: services whose initializers take their dependencies.

protocol BillingClock: AnyObject, Sendable { var now: Int { get } }
final class FixedBillingClock: BillingClock { let now = 42 }
final class AuditLog: Sendable {}
final class Ledger: Sendable {}
final class Mailer: Sendable {}
final class TaxTable: Sendable {}
final class CurrencyRates: Sendable {}
final class StockList: Sendable {}

final class Invoice {
    let clock: BillingClock, log: AuditLog
    init(clock: BillingClock, log: AuditLog) {
        self.clock = clock
        self.log = log
    }
}

final class Billing {
    let clock: BillingClock, log: AuditLog, ledger: Ledger, mailer: Mailer
    init(clock: BillingClock, log: AuditLog, ledger: Ledger, mailer: Mailer) {
        self.clock = clock
        self.log = log
        self.ledger = ledger
        self.mailer = mailer
    }
}

/// Seven parameters: more than the fixed-arity forms, so it takes the pack form.
final class Storefront {
    let clock: BillingClock, log: AuditLog, ledger: Ledger, mailer: Mailer, taxes: TaxTable, rates: CurrencyRates
    let stock: StockList
    init(
        clock: BillingClock, log: AuditLog, ledger: Ledger, mailer: Mailer, taxes: TaxTable, rates: CurrencyRates,
        stock: StockList
    ) {
        self.clock = clock
        self.log = log
        self.ledger = ledger
        self.mailer = mailer
        self.taxes = taxes
        self.rates = rates
        self.stock = stock
    }
}

final class Statement {
    let customer: String, year: Int, ledger: Ledger, log: AuditLog?
    init(customer: String, ledger: Ledger, year: Int, log: AuditLog?) {
        self.customer = customer
        self.year = year
        self.ledger = ledger
        self.log = log
    }
}

final class Reminder {
    let log: AuditLog?, clock: BillingClock
    init(log: AuditLog?, clock: BillingClock) {
        self.log = log
        self.clock = clock
    }
}

final class Salutation {
    let customer: String?, ledger: Ledger
    init(customer: String?, ledger: Ledger) {
        self.customer = customer
        self.ledger = ledger
    }
}

final class BillingRun {
    let invoice: Invoice, reminder: Reminder
    init(invoice: Invoice, reminder: Reminder) {
        self.invoice = invoice
        self.reminder = reminder
    }
}

final class Refund {
    init(ledger: Ledger) throws { throw Boom() }
}

final class Forecast {
    let clock: Lazy<BillingClock>, ledgers: Provider<Ledger>
    init(clock: Lazy<BillingClock>, ledgers: Provider<Ledger>) {
        self.clock = clock
        self.ledgers = ledgers
    }
}

@Suite struct AutoregistrationTests {
    /// Every dependency of the billing services, each made anew.
    func billingContainer() -> Container {
        let container = Container()
        container.register(BillingClock.self) { _ in FixedBillingClock() }
        container.register(AuditLog.self) { _ in AuditLog() }
        container.register(Ledger.self) { _ in Ledger() }
        container.register(Mailer.self) { _ in Mailer() }
        container.register(TaxTable.self) { _ in TaxTable() }
        container.register(CurrencyRates.self) { _ in CurrencyRates() }
        container.register(StockList.self) { _ in StockList() }
        return container
    }

    // MARK: Arities

    @Test func autoregistersInitializerWithoutParameters() {
        let container = Container()
        container.autoregister(BillingClock.self, initializer: FixedBillingClock.init)
        #expect(container.resolve(BillingClock.self)?.now == 42)
    }

    @Test func autoregistersInitializerWithOneResolvedParameter() {
        let container = Container()
        container.register(Animal.self) { _ in Dog(name: "Fido") }
        container.autoregister(Person.self, initializer: Person.init)
        #expect(container.resolve(Person.self)?.pet.name == "Fido")
    }

    @Test func autoregistersInitializerWithTwoResolvedParameters() throws {
        let container = billingContainer()
        container.autoregister(Invoice.self, initializer: Invoice.init)
        let invoice = try container.require(Invoice.self)
        #expect(invoice.clock.now == 42)
    }

    @Test func autoregistersInitializerWithFourResolvedParameters() throws {
        let container = billingContainer()
        let log = AuditLog()
        container.register(AuditLog.self) { _ in log }
        container.autoregister(Billing.self, initializer: Billing.init)
        let billing = try container.require(Billing.self)
        #expect(billing.log === log)
        #expect(billing.clock.now == 42)
    }

    @Test func autoregistersInitializerWithSevenResolvedParametersThroughThePackForm() throws {
        let container = billingContainer()
        let stock = StockList()
        container.register(StockList.self) { _ in stock }
        container.autoregister(Storefront.self, initializer: Storefront.init)
        let storefront = try container.require(Storefront.self)
        #expect(storefront.stock === stock)
        #expect(storefront.clock.now == 42)
    }

    @Test func autoregistersAClosureAsWellAsAnInitializerReference() throws {
        let container = billingContainer()
        container.autoregister(Invoice.self) { (clock: BillingClock, log: AuditLog) in Invoice(clock: clock, log: log) }
        #expect(try container.require(Invoice.self).clock.now == 42)
    }

    @Test func autoregisterInfersTheServiceTypeFromTheInitializer() {
        let container = billingContainer()
        container.autoregister(initializer: Invoice.init)
        #expect(container.resolve(Invoice.self) != nil)
    }

    @Test func autoregisteredServicesDependOnEachOther() throws {
        let container = billingContainer()
        container.autoregister(Invoice.self, initializer: Invoice.init)
        container.autoregister(Reminder.self, initializer: Reminder.init)
        container.autoregister(BillingRun.self, initializer: BillingRun.init)
        let run = try container.require(BillingRun.self)
        #expect(run.invoice.clock.now == 42 && run.reminder.clock.now == 42)
    }

    // MARK: Names, scopes and the entry

    @Test func autoregistersUnderAName() {
        let container = billingContainer()
        container.autoregister(Invoice.self, name: "monthly", initializer: Invoice.init)
        #expect(container.resolve(Invoice.self, name: "monthly") != nil)
        #expect(container.resolve(Invoice.self) == nil)
    }

    @Test func namedPackFormRegistersUnderTheName() {
        let container = billingContainer()
        container.autoregister(Storefront.self, name: "outlet", initializer: Storefront.init)
        #expect(container.resolve(Storefront.self, name: "outlet") != nil)
        #expect(container.resolve(Storefront.self) == nil)
    }

    @Test(arguments: [ObjectScope.transient, .graph, .container, .singleton])
    func autoregisteredEntryTakesTheScope(scope: ObjectScope) throws {
        let container = billingContainer()
        container.autoregister(Invoice.self, initializer: Invoice.init).inObjectScope(scope)
        let first = try container.require(Invoice.self)
        let second = try container.require(Invoice.self)
        #expect((first === second) == (scope === ObjectScope.container || scope === ObjectScope.singleton))
    }

    @Test func graphScopedParametersAreSharedWithinOneResolution() throws {
        let container = billingContainer()
        container.register(AuditLog.self) { _ in AuditLog() }.inObjectScope(.graph)
        container.autoregister(Invoice.self, initializer: Invoice.init)
        container.autoregister(Reminder.self, initializer: Reminder.init)
        container.autoregister(BillingRun.self, initializer: BillingRun.init)
        let first = try container.require(BillingRun.self)
        let second = try container.require(BillingRun.self)
        #expect(first.invoice.log === first.reminder.log)
        #expect(first.invoice.log !== second.invoice.log)
    }

    @Test func autoregisteredEntryChainsInitCompletedAndImplements() throws {
        let container = Container()
        let completed = Counter()
        container.autoregister(FixedBillingClock.self, initializer: FixedBillingClock.init)
            .inObjectScope(.container)
            .initCompleted { _, _ in completed.increment() }
            .implements(BillingClock.self)
        let clock = try container.require(BillingClock.self)
        #expect(clock === (try container.require(FixedBillingClock.self)))
        #expect(completed.count == 1)
    }

    @Test func autoregistrationReplacesAnEarlierRegistrationOfTheSameKey() {
        let container = billingContainer()
        container.register(Invoice.self) { _ in Invoice(clock: FixedBillingClock(), log: AuditLog()) }
        let log = AuditLog()
        container.register(AuditLog.self) { _ in log }
        container.autoregister(Invoice.self, initializer: Invoice.init)
        #expect(container.resolve(Invoice.self)?.log === log)
    }

    // MARK: Optional and wrapped parameters

    @Test func optionalParameterIsNilWhenItsTypeIsNotRegistered() throws {
        let container = Container()
        container.register(BillingClock.self) { _ in FixedBillingClock() }
        container.autoregister(Reminder.self, initializer: Reminder.init)
        let reminder = try container.require(Reminder.self)
        #expect(reminder.log == nil)
    }

    @Test func optionalParameterResolvesWhenItsTypeIsRegistered() throws {
        let container = billingContainer()
        container.autoregister(Reminder.self, initializer: Reminder.init)
        #expect(try container.require(Reminder.self).log != nil)
    }

    @Test func lazyAndProviderParametersWrapTheirRegistrations() throws {
        let container = billingContainer()
        container.autoregister(Forecast.self, initializer: Forecast.init)
        let forecast = try container.require(Forecast.self)
        #expect(forecast.clock.instance.now == 42)
        #expect(forecast.ledgers.instance !== forecast.ledgers.instance)
    }

    // MARK: Runtime arguments

    @Test func runtimeArgumentFillsTheParameterOfItsType() throws {
        let container = billingContainer()
        container.autoregister(Statement.self, arguments: String.self, Int.self, initializer: Statement.init)
        let statement = try container.require(Statement.self, arguments: "ACME", 2026)
        #expect(statement.customer == "ACME" && statement.year == 2026)
        #expect(statement.log != nil)
    }

    @Test func runtimeArgumentsAreMatchedByTypeWhateverTheirOrder() throws {
        let container = billingContainer()
        container.autoregister(Statement.self, arguments: Int.self, String.self, initializer: Statement.init)
        let statement = try container.require(Statement.self, arguments: 2026, "ACME")
        #expect(statement.customer == "ACME" && statement.year == 2026)
        #expect(container.resolve(Statement.self, arguments: "ACME", 2026) == nil)  // the key keeps the order
    }

    @Test func singleRuntimeArgumentUsesTheOneArgumentKey() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.autoregister(Animal.self, argument: String.self, initializer: { (name: String) in Dog(name: name) })
        #expect(container.resolve(Animal.self, argument: "Rex")?.name == "Rex")
        #expect(container.resolve(Animal.self)?.name == "Mimi")
    }

    @Test func runtimeArgumentFillsAnOptionalParameterOfItsType() throws {
        let container = billingContainer()
        container.autoregister(Salutation.self, name: "hello", argument: String.self, initializer: Salutation.init)
        #expect(container.resolve(Salutation.self, name: "hello", argument: "ACME")?.customer == "ACME")
    }

    @Test func runtimeArgumentWinsOverARegistrationOfItsType() throws {
        let container = billingContainer()
        container.register(String.self) { _ in "registered" }
        container.autoregister(Statement.self, arguments: String.self, Int.self, initializer: Statement.init)
        #expect(container.resolve(Statement.self, arguments: "given", 1)?.customer == "given")
    }

    @Test func autoregisteredServiceWithArgumentsTakesTheMultitonScope() throws {
        let container = billingContainer()
        container.autoregister(Statement.self, arguments: String.self, Int.self, initializer: Statement.init)
            .inObjectScope(.multiton)
        let first = try container.require(Statement.self, arguments: "ACME", 2026)
        #expect(first === (try container.require(Statement.self, arguments: "ACME", 2026)))
        #expect(first !== (try container.require(Statement.self, arguments: "ACME", 2027)))
    }

    // MARK: Failures

    @Test func autoregisterFailureNamesTheMissingParameter() {
        let container = Container()
        container.register(BillingClock.self) { _ in FixedBillingClock() }
        container.register(AuditLog.self) { _ in AuditLog() }
        container.register(Mailer.self) { _ in Mailer() }
        let line = #line + 1
        container.autoregister(Billing.self, initializer: Billing.init)
        let error = #expect(throws: ResolutionError.self) { try container.require(Billing.self) }
        #expect(error?.code == .notRegistered)
        #expect(error?.key == ServiceKey(Ledger.self))
        #expect(error?.pathDescription == "Billing → Ledger")
        #expect(
            error?.description == """
                No registration for Ledger.
                  Resolution path: Billing → Ledger
                  Nothing is registered for Ledger under any name or argument list.
                  Fix: Ledger is parameter 3 of 4 of the initializer (BillingClock, AuditLog, Ledger, Mailer) \
                -> Billing autoregistered at AssemblageTests/AutoregistrationTests.swift:\(line): register Ledger, \
                make the parameter optional (Ledger?) to receive nil when it is missing, or pass it at resolve time \
                by listing Ledger.self in `autoregister(Billing.self, arguments: …)`.
                """)
        #expect(container.resolve(Billing.self) == nil)
    }

    @Test func autoregisterFailureThroughThePackFormNamesThePosition() {
        let container = Container()
        container.register(BillingClock.self) { _ in FixedBillingClock() }
        container.register(AuditLog.self) { _ in AuditLog() }
        container.register(Ledger.self) { _ in Ledger() }
        container.register(Mailer.self) { _ in Mailer() }
        container.register(TaxTable.self) { _ in TaxTable() }
        container.register(StockList.self) { _ in StockList() }
        container.autoregister(Storefront.self, initializer: Storefront.init)
        let error = #expect(throws: ResolutionError.self) { try container.require(Storefront.self) }
        #expect(error?.key == ServiceKey(CurrencyRates.self))
        #expect(
            error?.suggestions.first?.hasPrefix(
                "CurrencyRates is parameter 6 of 7 of the initializer "
                    + "(BillingClock, AuditLog, Ledger, Mailer, TaxTable, CurrencyRates, StockList) -> Storefront")
                == true)
        #expect(container.resolve(Storefront.self) == nil)
    }

    @Test func autoregisterFailureWithArgumentsNamesTheArguments() {
        let container = Container()
        container.autoregister(Statement.self, arguments: String.self, Int.self, initializer: Statement.init)
        let error = #expect(throws: ResolutionError.self) {
            try container.require(Statement.self, arguments: "ACME", 2026)
        }
        #expect(error?.key == ServiceKey(Ledger.self))
        #expect(error?.pathDescription == "Statement (arguments: String, Int) → Ledger")
        #expect(
            error?.suggestions.first?.hasPrefix(
                "Ledger is parameter 2 of 4 of the initializer "
                    + "(String, Ledger, Int, Optional<AuditLog>) -> Statement autoregistered with runtime arguments "
                    + "(String, Int) at ") == true)
    }

    @Test func autoregisterFailureForANamedOnlyParameterSuggestsAFactory() {
        let container = Container()
        container.register(BillingClock.self, name: "utc") { _ in FixedBillingClock() }
        container.register(AuditLog.self) { _ in AuditLog() }
        container.autoregister(Invoice.self, initializer: Invoice.init)
        let error = #expect(throws: ResolutionError.self) { try container.require(Invoice.self) }
        #expect(error?.nearMisses == [ServiceKey(BillingClock.self, name: "utc")])
        #expect(
            error?.description.contains(
                "autoregistration resolves only the unnamed registration without arguments; to use another, register "
                    + "Invoice with a factory and resolve it there, e.g. `r ~> (BillingClock.self, name: \"…\")`")
                == true)
    }

    @Test func autoregisterFailureDeeperThanAParameterKeepsItsOwnError() {
        let container = Container()
        container.register(AuditLog.self) { _ in AuditLog() }
        container.register(BillingClock.self) { r in
            _ = try r.require(Ledger.self)
            return FixedBillingClock()
        }
        container.autoregister(Invoice.self, initializer: Invoice.init)
        let error = #expect(throws: ResolutionError.self) { try container.require(Invoice.self) }
        #expect(error?.key == ServiceKey(Ledger.self))
        #expect(error?.pathDescription == "Invoice → BillingClock → Ledger")
        #expect(error?.suggestions.isEmpty == true)
    }

    @Test func throwingInitializerFailsTheResolution() {
        let container = billingContainer()
        container.autoregister(Refund.self, initializer: Refund.init)
        let error = #expect(throws: ResolutionError.self) { try container.require(Refund.self) }
        #expect(error?.code == .factoryFailed)
        #expect(error?.underlying is Boom)
        #expect(container.resolve(Refund.self) == nil)
    }

    @Test func validateReportsTheMissingParameter() {
        let container = Container()
        container.register(BillingClock.self) { _ in FixedBillingClock() }
        container.autoregister(Invoice.self, initializer: Invoice.init)
        let report = container.validate()
        #expect(!report.isValid)
        #expect(
            report.errors.contains { issue in
                issue.key == ServiceKey(AuditLog.self) && issue.path.first == ServiceKey(Invoice.self)
            })
    }

    // MARK: ~>

    @Test func postfixOperatorResolvesTheTypeTheContextExpects() {
        let container = billingContainer()
        container.register(Invoice.self) { r in Invoice(clock: r~>, log: r~>) }
        #expect(container.resolve(Invoice.self)?.clock.now == 42)
        let clock: BillingClock = container~>
        #expect(clock.now == 42)
    }

    @Test func infixOperatorResolvesTheGivenType() {
        let container = Container()
        container.register(Dog.self) { _ in Dog(name: "Fido") }
        container.register(Person.self) { r in Person(pet: r ~> Dog.self) }
        #expect(container.resolve(Person.self)?.pet.name == "Fido")
    }

    @Test func operatorResolvesANamedRegistration() {
        let container = Container()
        container.register(Animal.self, name: "dog") { _ in Dog(name: "Fido") }
        container.register(Person.self) { r in Person(pet: r ~> (Animal.self, name: "dog")) }
        #expect(container.resolve(Person.self)?.pet.name == "Fido")
    }

    @Test func operatorPassesOneArgument() {
        let container = Container()
        container.register(Animal.self) { _, name in Cat(name: name) }
        container.register(Animal.self, name: "dog") { _, name in Dog(name: name) }
        #expect((container ~> (Animal.self, argument: "Tom")).name == "Tom")
        #expect((container ~> (Animal.self, name: "dog", argument: "Rex")) is Dog)
    }

    @Test func operatorPassesATupleOfArguments() {
        let container = Container()
        container.register(Cat.self) { (_, name: String, age: Int) in Cat(name: name, age: age) }
        container.register(Int.self, name: "sum") { (_, a: Int, b: Int, c: Int, d: Int) in a + b + c + d }
        let cat = container ~> (Cat.self, arguments: ("Tom", 3))
        #expect(cat.name == "Tom" && cat.age == 3)
        #expect((container ~> (Int.self, name: "sum", arguments: (1, 2, 3, 4))) == 10)
    }

    @Test func operatorStopsTheProgramWithTheResolutionError() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = Container()
            container.register(Animal.self, name: "dog") { _ in Dog() }
            container.register(Person.self) { r in Person(pet: try r.require(Animal.self)) }
            let person = container ~> Person.self
            print(person.pet.name)  // not reached
        }.map { result in
            let output = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(output.contains("`~>` could not resolve Person:"))
            #expect(output.contains("No registration for Animal."))
            #expect(output.contains("Resolution path: Person → Animal"))
            #expect(output.contains(#"Registered for Animal: Animal (name: "dog")"#))
            #expect(output.contains("`try r.require(…)` throws this error instead"))
        }
    }
}
