import Assemblage
import Testing

/// Made at start-up; counts constructions in the task's event log.
final class Warehouse {
    init() { ModuleEventLog.current?.append("made Warehouse") }
}

struct WarehouseModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func register(into container: Container) {
        container.register(Warehouse.self) { _ in Warehouse() }.eager()
    }
}

/// Its eager singleton needs something no module registers.
// assemblage-check: ignore-begin (broken on purpose: the build-time graph check reports what the tests expect)
struct BrokenEagerModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func register(into container: Container) {
        container.register(FeedService.self) { r in
            FeedService(
                transport: try r.require(HTTPTransport.self), store: try r.require(KeyValueStore.self),
                analytics: try r.require(AnalyticsTracker.self))
        }.eager()
    }
}
// assemblage-check: ignore-end

struct ThrowingEagerModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func register(into container: Container) {
        container.register(Warehouse.self, name: "boom") { _ -> Warehouse in throw Boom() }.eager()
        container.register(Cat.self) { (_: Resolver, name: String) in Cat(name: name) }.eager()
    }
}

@Suite struct EagerSingletonTests {
    @Test func eagerSingletonIsCreatedWhenTheAssemblerFinishesBeforeLoadedHooks() throws {
        var assembler: ModuleAssembler?
        let log = try ModuleEventLog.recording {
            assembler = try ModuleAssembler([WarehouseModule()])
        }
        #expect(
            log.events == [
                "assemble NetworkModule", "assemble WarehouseModule", "made Warehouse",
                "loaded NetworkModule", "loaded WarehouseModule",
            ])
        let resolver = try #require(assembler).resolver
        let again = ModuleEventLog.recording {
            #expect(resolver.resolve(Warehouse.self) === resolver.resolve(Warehouse.self))
        }
        #expect(again.events.isEmpty)
    }

    @Test func eagerMakesTheRegistrationASingletonAndKeepsContainerScope() {
        let container = Container()
        #expect(container.register(Cat.self) { _ in Cat() }.eager().objectScope === ObjectScope.singleton)
        #expect(
            container.register(Dog.self) { _ in Dog() }.inObjectScope(.container).eager().objectScope
                === ObjectScope.container)
    }

    @Test func eagerSingletonSurvivesModuleReset() throws {
        let assembler = try ModuleAssembler([WarehouseModule()])
        let warehouse = try assembler.resolver.require(Warehouse.self)
        try assembler.resetAll(WarehouseModule.self)
        #expect(try assembler.resolver.require(Warehouse.self) === warehouse)
    }

    @Test func failingEagerSingletonThrowsFromTheInitializerWithKeyAndPath() throws {
        let log = ModuleEventLog.recording {
            let error = assemblyError { _ = try ModuleAssembler([BrokenEagerModule()]) }
            #expect(error?.codes == [.eagerSingletonFailed])
            let problem = error?.problems.first
            #expect(problem?.module == "BrokenEagerModule")
            #expect(problem?.key == ServiceKey(FeedService.self))
            #expect(problem?.resolutionError?.code == .notRegistered)
            #expect(problem?.resolutionError?.pathDescription == "FeedService → KeyValueStore")
            #expect(
                error?.description.contains(
                    "The eager singleton FeedService of BrokenEagerModule could not be created.") == true)
            #expect(error?.description.contains("Resolution path: FeedService → KeyValueStore") == true)
        }
        #expect(log.events("loaded").isEmpty)
    }

    @Test func everyFailingEagerSingletonIsReported() throws {
        let error = try #require(
            assemblyError { _ = try ModuleAssembler([ThrowingEagerModule(), BrokenEagerModule()]) })
        #expect(error.codes == [.eagerSingletonFailed, .eagerSingletonFailed, .eagerSingletonFailed])
        #expect(
            error.problems.map(\.key) == [
                ServiceKey(Warehouse.self, name: "boom"),
                ServiceKey(Cat.self, argumentTypes: String.self),
                ServiceKey(FeedService.self),
            ])
        #expect(error.problems[0].resolutionError?.underlyingDescription == "boom")
        #expect(error.problems[1].resolutionError?.underlyingDescription?.contains("runtime arguments") == true)
    }

    @Test func plainContainerCreatesEagerServicesOnRequest() throws {
        let container = Container()
        let made = Counter()
        container.register(Counted.self) { _ in Counted(made) }.eager()
        #expect(made.count == 0)
        try container.createEagerServices()
        #expect(made.count == 1)
        _ = container.resolve(Counted.self)
        #expect(made.count == 1)
    }

    @Test func plainContainerReportsTheFirstEagerFailure() {
        let container = Container()
        container.register(Person.self) { r in Person(pet: try r.require(Animal.self)) }.eager()
        #expect(throws: ResolutionError.self) { try container.createEagerServices() }
        #expect(throws: Never.self) { try Container().createEagerServices() }
    }
}
