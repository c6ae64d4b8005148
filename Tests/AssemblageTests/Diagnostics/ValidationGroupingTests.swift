import Assemblage
import Testing

/// Property injection closing a loop: `Loop` (graph) asks for `Partner` in `initCompleted`, and `Partner`'s
/// factory requires `Loop`. Both resolve at run time, from either side; validation, which records what each
/// registration resolved to, must say the same whichever it resolves first.
final class Loop: @unchecked Sendable {
    var partner: Partner?
    init() {}
}
final class Partner: @unchecked Sendable {
    let loop: Loop
    init(loop: Loop) { self.loop = loop }
}

/// Validation resolves each registration once (recording outcomes in the sandbox) and reports one issue per root
/// cause, listing the registrations that fail because of it.
@Suite struct ValidationGroupingTests {
    @Test func tenThousandRegistrationChainWithItsLastDependencyMissingIsOneIssue() throws {
        let container = Container()
        registerServiceChain(from: 0, to: 10_000, registerLast: false, in: container)  // 0…9,999 need 10,000
        let report = container.validate()

        #expect(report.checkedCount == 10_000)
        #expect(report.errors.count == 1)
        let issue = try #require(report.errors.first)
        #expect(issue.kind == .missingRegistration)
        #expect(issue.key == ServiceKey(chainNodeType(10_000)))
        #expect(issue.path.last == ServiceKey(chainNodeType(10_000)))
        #expect(issue.affected.count == 10_000)
        #expect(Set(issue.affected) == Set((0..<10_000).map { ServiceKey(chainNodeType($0)) }))
        #expect(issue.message.contains("It makes 10000 registrations fail: "))
        #expect(issue.message.contains(" and 9997 more."))
        #expect(report.graph.edges.count == 9_999)  // every recorded dependency, once
    }

    @Test func tenThousandRegistrationChainThatIsCompleteIsValid() {
        let container = Container()
        registerServiceChain(from: 0, to: 9_999, registerLast: true, in: container)
        let report = container.validate()
        #expect(report.isValid, "\(report.errors.prefix(3))")
        #expect(report.checkedCount == 10_000)
        #expect(report.graph.nodes.count == 10_000)
        #expect(report.graph.edges.count == 9_999)
    }

    @Test func oneMissingRegistrationNeededFromSeveralPlacesListsEachAffectedRegistration() throws {
        let container = Container()
        container.register(App.self) { r in App(repository: try r.require(Repository.self)) }
        container.register(Repository.self) { r in Repository(database: try r.require(Database.self)) }
        container.register(Car.self) { r in
            _ = try r.require(Database.self)
            return Car(engine: Engine(), wheel: Wheel(engine: Engine()))
        }
        let report = container.validate()
        #expect(report.errors.count == 1)
        let issue = try #require(report.errors.first)
        #expect(issue.key == ServiceKey(Database.self))
        #expect(issue.affected == [ServiceKey(App.self), ServiceKey(Repository.self), ServiceKey(Car.self)])
        #expect(issue.message.hasSuffix("It makes 3 registrations fail: App, Repository, Car."))
    }

    @Test func singleFailureKeepsItsMessageAndListsItsRegistration() throws {
        let container = Container()
        container.register(Repository.self) { r in Repository(database: try r.require(Database.self)) }
        let issue = try #require(container.validate().errors.first)
        #expect(issue.affected == [ServiceKey(Repository.self)])
        #expect(!issue.message.contains("registrations fail"))
    }

    @Test func cycleIsOneIssueListingEveryRegistrationItBreaks() throws {
        let container = Container()
        container.register(CycleA.self) { r in CycleA(try r.require(CycleB.self)) }
        container.register(CycleB.self) { r in CycleB(try r.require(CycleC.self)) }
        container.register(CycleC.self) { r in CycleC(try r.require(CycleA.self)) }
        container.register(App.self) { r in
            _ = try r.require(CycleB.self)
            return App(repository: Repository(database: Database()))
        }
        let report = container.validate()
        #expect(report.errors.count == 1)
        let issue = try #require(report.issues(of: .cycle).first)
        #expect(
            Set(issue.affected) == [
                ServiceKey(CycleA.self), ServiceKey(CycleB.self), ServiceKey(CycleC.self),
                ServiceKey(App.self),
            ])
    }

    @Test(arguments: [true, false])
    func loopClosedByPropertyInjectionValidatesAsItResolves(partnerFirst: Bool) throws {
        let container = Container()
        func registerLoop() {
            container.register(Loop.self) { _ in Loop() }
                .initCompleted { r, loop in loop.partner = try r.require(Partner.self) }
        }
        func registerPartner() {
            container.register(Partner.self) { r in Partner(loop: try r.require(Loop.self)) }
        }
        if partnerFirst {
            registerPartner()
            registerLoop()
        } else {
            registerLoop()
            registerPartner()
        }
        let report = container.validate()
        #expect(try container.require(Loop.self).partner != nil)
        #expect(try container.require(Partner.self).loop.partner != nil)
        #expect(report.isValid, "\(report)")
        #expect(report.checkedCount == 2)
        #expect(report.graph.edges.count == 2)
    }
}
