import Assemblage
import Testing

final class Cache: @unchecked Sendable { init(_ request: Request?) {} }
final class Request: @unchecked Sendable { init() {} }
final class Session2: @unchecked Sendable { init(_ cache: Cache) {} }

@Suite struct ValidationTests {
    func validApp() -> Container {
        let container = Container(label: "app")
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        container.register(Wheel.self) { r in Wheel(engine: try r.require(Engine.self)) }
        container.register(Car.self) { r in Car(engine: try r.require(Engine.self), wheel: try r.require(Wheel.self)) }
        return container
    }

    @Test func validGraphReportsNoIssue() {
        let report = validApp().validate()
        #expect(report.isValid)
        #expect(report.issues.isEmpty)
        #expect(report.checkedCount == 3)
        #expect(report.description.hasPrefix("0 errors, 0 warnings, 0 notes (3 registrations checked)"))
    }

    @Test func missingRegistrationIsReportedWithItsPath() throws {
        let container = Container()
        container.register(App.self) { r in App(repository: try r.require(Repository.self)) }
        container.register(Repository.self) { r in Repository(database: try r.require(Database.self)) }
        let report = container.validate()
        #expect(!report.isValid)
        let missing = try #require(report.issues(of: .missingRegistration).first)
        #expect(missing.severity == .error)
        #expect(missing.key == ServiceKey(Database.self))
        #expect(missing.path.map(\.description) == ["App", "Repository", "Database"])
        #expect(report.issues(of: .missingRegistration).count == 1)  // reached from App and from Repository: once
    }

    @Test func everyProblemIsReportedAtOnce() {
        let container = Container()
        container.register(CycleA.self) { r in CycleA(try r.require(CycleB.self)) }
        container.register(CycleB.self) { r in CycleB(try r.require(CycleC.self)) }
        container.register(CycleC.self) { r in CycleC(try r.require(CycleA.self)) }
        container.register(Database.self) { _ in throw Boom() }
        container.register(Repository.self) { r in Repository(database: try r.require(Database.self, name: "x")) }
        let report = container.validate()
        #expect(report.issues(of: .cycle).count == 1)
        #expect(report.issues(of: .factoryFailed).count == 1)
        #expect(report.issues(of: .missingRegistration).count == 1)
        #expect(report.errors.count == 3)
        #expect(report.issues(of: .cycle).first?.message.contains("→") == true)
    }

    @Test func captiveDependencyOnAnAcyclicPathIsReported() throws {
        let container = Container()
        container.register(Request.self) { _ in Request() }.inObjectScope(.transient)
        container.register(Cache.self) { r in Cache(try r.require(Request.self)) }.inObjectScope(.container)
        let report = container.validate()
        #expect(report.isValid)
        let captive = try #require(report.issues(of: .captiveDependency).first)
        #expect(captive.severity == .warning)
        #expect(captive.path.map(\.description) == ["Cache", "Request"])
        #expect(captive.message.contains("Cache (container) holds Request (transient)"))
    }

    @Test func captiveDependencyThroughAnIntermediateIsReported() throws {
        let container = Container()
        container.register(Request.self) { _ in Request() }  // graph
        container.register(Cache.self) { r in Cache(try r.require(Request.self)) }.inObjectScope(.transient)
        container.register(Session2.self) { r in Session2(try r.require(Cache.self)) }.inObjectScope(.singleton)
        let report = container.validate()
        let captive = report.issues(of: .captiveDependency)
        #expect(captive.count == 1)
        #expect(captive.first?.path.map(\.description) == ["Session2", "Cache"])
    }

    @Test func longLivedChainsAreNotCaptive() {
        let container = Container()
        container.register(Request.self) { _ in Request() }.inObjectScope(.singleton)
        container.register(Cache.self) { r in Cache(try r.require(Request.self)) }.inObjectScope(.container)
        #expect(container.validate().issues(of: .captiveDependency).isEmpty)
    }

    @Test func replacedAndShadowedRegistrationsAreReported() {
        let base = Container(label: "base")
        base.register(Engine.self) { _ in Engine() }
        base.register(Engine.self) { _ in Engine() }
        let overlay = Container(parent: base, label: "overlay")
        overlay.register(Engine.self) { _ in Engine() }
        let report = overlay.validate()
        #expect(report.issues(of: .replacedRegistration).count == 1)
        #expect(
            report.issues(of: .shadowedRegistration).first?.message.contains("hidden by the one in overlay") == true)
        var quiet = ValidationOptions()
        quiet.reportsShadowedRegistrations = false
        #expect(overlay.validate(quiet).issues(of: .shadowedRegistration).isEmpty)
    }

    @Test func registrationsWithArgumentsAreCheckedWithSamplesOrReported() {
        let container = Container()
        container.register(Cat.self) { (_, name: String) in Cat(name: name) }
        container.register(Dog.self) { (r, name: String) in
            _ = try r.require(Database.self)
            return Dog(name: name)
        }
        let unchecked = container.validate()
        #expect(unchecked.issues(of: .notChecked).count == 2)
        #expect(unchecked.isValid)
        var options = ValidationOptions()
        options.sample { r in _ = try r.require(Cat.self, argument: "Mimi") }
        options.sample { r in _ = try r.require(Dog.self, argument: "Rex") }
        let report = container.validate(options)
        #expect(report.issues(of: .notChecked).isEmpty)
        #expect(
            report.issues(of: .missingRegistration).first?.path.map(\.description)
                == ["Dog (arguments: String)", "Database"])
    }

    @Test func validationLeavesRealInstancesUntouched() {
        let counter = Counter()
        let container = Container()
        container.register(Counted.self) { _ in Counted(counter) }.inObjectScope(.singleton)
        _ = container.validate()
        #expect(container.explain(Counted.self).isCached == false)
        let real = container.resolve(Counted.self)
        _ = container.validate()
        #expect(container.resolve(Counted.self) === real)
        #expect(counter.count == 3)  // once per validation (sandbox) and once for real
    }

    @Test func collectionsAndDecoratorsAreValidated() {
        let container = Container()
        container.registerIntoCollection(Plugin.self) { r in NamedPlugin(try r.require(String.self)) }
        container.decorate(Animal.self) { _, inner in inner }
        let report = container.validate()
        #expect(report.issues(of: .missingRegistration).first?.key == ServiceKey(String.self))
        #expect(report.issues(of: .unmatchedDecorator).count == 1)
    }

    @Test func optionalDependencyThatIsMissingIsANote() {
        let container = Container()
        container.register(Wheel.self) { r in Wheel(engine: r.resolve(Engine.self) ?? Engine()) }
        let report = container.validate()
        #expect(report.isValid)
        #expect(report.issues(of: .missingRegistration).first?.severity == .note)
    }
}

@Suite struct DependencyGraphTests {
    @Test func recordsNodesAndEdges() throws {
        let graph = ValidationTests().validApp().validate().graph
        #expect(graph.nodes.map(\.key.description) == ["Engine", "Wheel", "Car"])
        let id = { (name: String) in graph.nodes.first { $0.key.description == name }!.id }
        #expect(
            Set(graph.edges) == [
                .init(from: id("Wheel"), to: id("Engine")), .init(from: id("Car"), to: id("Engine")),
                .init(from: id("Car"), to: id("Wheel")),
            ])
        #expect(graph.nodes.first?.scope == "container")
        #expect(graph.nodes.allSatisfy { $0.container == "app" })
    }

    @Test func exportsDotMermaidAndJSON() {
        let graph = ValidationTests().validApp().validate().graph
        #expect(graph.dot.hasPrefix("digraph Assemblage {"))
        #expect(graph.dot.contains("n2 -> n1;"))
        #expect(graph.mermaid.hasPrefix("flowchart LR"))
        #expect(graph.mermaid.contains("n0[\"Engine<br/>container · app\"]"))
        #expect(graph.json.contains("\"type\": \"Car\""))
        #expect(graph.json.contains("{\"from\": \"n2\", \"to\": \"n0\"}"))
    }

    @Test func forwardedLookupsPointAtTheRealRegistration() {
        let container = Container()
        container.register(Cat.self) { _ in Cat() }.implements(Animal.self)
        container.register(Person.self) { r in Person(pet: try r.require(Animal.self)) }
        let graph = container.validate().graph
        let cat = graph.nodes.first { $0.key.description == "Cat" }!.id
        let person = graph.nodes.first { $0.key.description == "Person" }!.id
        #expect(graph.edges.contains(.init(from: person, to: cat)))
    }
}

@Suite struct ExplainTests {
    @Test func explainsWinnerLookupReplacementsAndDecorators() {
        let base = Container(label: "base")
        base.register(Storage.self) { _ in DiskStorage() }
        base.register(Storage.self) { _ in DiskStorage() }.inObjectScope(.container)
        base.decorate(Storage.self) { _, inner in inner }
        let app = Container(parent: base, label: "app")
        let explanation = app.explain(Storage.self)
        #expect(explanation.lookupPath == ["app", "base"])
        #expect(explanation.winningContainer == "base")
        #expect(explanation.scope == "container")
        #expect(explanation.replaced.count == 1)
        #expect(explanation.decorators.count == 1)
        #expect(!explanation.isCached)
        _ = app.resolve(Storage.self)
        #expect(app.explain(Storage.self).isCached)
        #expect(explanation.description.contains("lookup: app → base (found in base)"))
    }

    @Test func explainsShadowingForwardingAndMisses() {
        let base = Container(label: "base")
        base.register(Cat.self) { _ in Cat() }.implements(Animal.self)
        let app = Container(parent: base, label: "app")
        app.register(Cat.self) { _ in Cat() }
        #expect(app.explain(Cat.self).shadowed.map(\.container) == ["base"])
        #expect(app.explain(Animal.self).forwardsTo == ServiceKey(Cat.self))
        let missing = app.explain(Cat.self, name: "tom")
        #expect(missing.winningContainer == nil)
        #expect(missing.nearMisses == [ServiceKey(Cat.self)])
        #expect(missing.description.contains("registered instead: Cat"))
    }
}
