import Assemblage
import Testing

final class Report {
    let renderer: Lazy<Engine>
    init(renderer: Lazy<Engine>) { self.renderer = renderer }
}

@Suite struct InstanceWrapperTests {
    @Test func lazyResolvesOnFirstReadAndKeepsTheInstance() throws {
        let counter = Counter()
        let container = Container()
        container.register(Counted.self) { _ in Counted(counter) }
        let lazy = try #require(container.resolve(Lazy<Counted>.self))
        #expect(counter.count == 0)
        let first = lazy.instance
        #expect(lazy.instance === first)
        #expect(counter.count == 1)
    }

    @Test func lazyOfUnregisteredTypeIsNil() {
        #expect(Container().resolve(Lazy<Engine>.self) == nil)
    }

    @Test func lazyMadeInAGraphJoinsThatGraph() throws {
        final class Holder {
            let engine: Engine
            let lazy: Lazy<Engine>
            init(engine: Engine, lazy: Lazy<Engine>) {
                self.engine = engine
                self.lazy = lazy
            }
        }
        let container = Container()
        container.register(Engine.self) { _ in Engine() }
        container.register(Holder.self) { r in
            Holder(engine: r.resolve(Engine.self)!, lazy: r.resolve(Lazy<Engine>.self)!)
        }
        let holder = try #require(container.resolve(Holder.self))
        #expect(holder.lazy.instance === holder.engine)
    }

    @Test func lazyWithArgumentsAndNames() {
        let container = Container()
        container.register(Animal.self, name: "cat") { _, name in Cat(name: name) }
        #expect(container.resolve(Lazy<Animal>.self, name: "cat", argument: "Tom")?.instance.name == "Tom")
    }

    @Test func lazyGetThrowsWhenTheContainerIsGone() throws {
        var container: Container? = Container()
        container!.register(Engine.self) { _ in Engine() }
        let lazy = try #require(container!.resolve(Lazy<Engine>.self))
        container = nil
        #expect(throws: ResolutionError.self) { try lazy.get() }
    }

    @Test func providerMakesANewInstanceEachRead() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }
        let provider = try #require(container.resolve(Provider<Engine>.self))
        #expect(provider.instance !== provider.instance)
    }

    @Test func providerOfContainerScopeGivesTheSameInstance() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
        let provider = try #require(container.resolve(Provider<Engine>.self))
        #expect(provider.instance === provider.instance)
    }

    @Test func optionalResolvesTheWrappedRegistration() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        let resolved: Animal?? = container.resolve(Optional<Animal>.self)
        #expect(resolved??.name == "Mimi")
    }

    @Test func optionalOfUnregisteredTypeIsSomeNil() throws {
        let resolved = try #require(Container().resolve(Optional<Animal>.self))
        #expect(resolved == nil)
        #expect(try Container().require(Optional<Animal>.self) == nil)
    }

    @Test func singletonHoldingALazyDoesNotKeepTheContainerAlive() {
        weak var weakContainer: Container?
        weak var report: Report?
        do {
            let container = Container()
            container.register(Engine.self) { _ in Engine() }
            container.register(Report.self) { r in Report(renderer: r.resolve(Lazy<Engine>.self)!) }
                .inObjectScope(.container)
            report = container.resolve(Report.self)
            weakContainer = container
        }
        #expect(weakContainer == nil)
        #expect(report == nil)
    }
}
