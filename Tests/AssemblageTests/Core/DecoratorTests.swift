import Assemblage
import Testing

protocol Storage: Sendable { func describe() -> String }
struct DiskStorage: Storage { func describe() -> String { "disk" } }
struct Wrapped: Storage {
    let tag: String
    let inner: Storage
    func describe() -> String { "\(tag)(\(inner.describe()))" }
}

@Suite struct DecoratorTests {
    @Test func wrapsTheResolvedService() {
        let container = Container()
        container.register(Storage.self) { _ in DiskStorage() }
        container.decorate(Storage.self) { _, inner in Wrapped(tag: "log", inner: inner) }
        #expect(container.resolve(Storage.self)?.describe() == "log(disk)")
    }

    @Test func appliesInRegistrationOrderLastOutermost() {
        let container = Container()
        container.decorate(Storage.self) { _, inner in Wrapped(tag: "first", inner: inner) }
        container.register(Storage.self) { _ in DiskStorage() }
        container.decorate(Storage.self) { _, inner in Wrapped(tag: "second", inner: inner) }
        #expect(container.resolve(Storage.self)?.describe() == "second(first(disk))")
    }

    @Test func overlayDecoratorWrapsBaseDecorators() {
        let base = Container()
        base.register(Storage.self) { _ in DiskStorage() }
        base.decorate(Storage.self) { _, inner in Wrapped(tag: "base", inner: inner) }
        let overlay = Container(parent: base)
        overlay.decorate(Storage.self) { _, inner in Wrapped(tag: "overlay", inner: inner) }
        #expect(overlay.resolve(Storage.self)?.describe() == "overlay(base(disk))")
        #expect(base.resolve(Storage.self)?.describe() == "base(disk)")
    }

    @Test func appliesToServicesRegisteredByAnotherAssembly() {
        struct StorageAssembly: Assembly {
            func assemble(container: Container) { container.register(Storage.self) { _ in DiskStorage() } }
        }
        struct AuditAssembly: Assembly {
            func assemble(container: Container) {
                container.decorate(Storage.self) { _, inner in Wrapped(tag: "audit", inner: inner) }
            }
        }
        let assembler = Assembler([AuditAssembly(), StorageAssembly()])
        #expect(assembler.resolver.resolve(Storage.self)?.describe() == "audit(disk)")
    }

    @Test func namedDecoratorAppliesOnlyToThatName() {
        let container = Container()
        container.register(Storage.self) { _ in DiskStorage() }
        container.register(Storage.self, name: "remote") { _ in DiskStorage() }
        container.decorate(Storage.self, name: "remote") { _, inner in Wrapped(tag: "net", inner: inner) }
        #expect(container.resolve(Storage.self)?.describe() == "disk")
        #expect(container.resolve(Storage.self, name: "remote")?.describe() == "net(disk)")
    }

    @Test func decoratesCollectionElements() throws {
        let container = Container()
        container.registerIntoCollection(Storage.self) { _ in DiskStorage() }
        container.registerIntoCollection(Storage.self, name: "b") { _ in DiskStorage() }
        container.decorate(Storage.self) { _, inner in Wrapped(tag: "all", inner: inner) }
        container.decorate(Storage.self, name: "b") { _, inner in Wrapped(tag: "b", inner: inner) }
        #expect(try container.resolveAll(Storage.self).map { $0.describe() } == ["all(disk)", "b(all(disk))"])
    }

    @Test func sharedInstanceIsDecoratedOnce() {
        let counter = Counter()
        let container = Container()
        container.register(Storage.self) { _ in DiskStorage() }.inObjectScope(.container)
        container.decorate(Storage.self) { _, inner in
            counter.increment()
            return Wrapped(tag: "once", inner: inner)
        }
        _ = container.resolve(Storage.self)
        _ = container.resolve(Storage.self)
        #expect(counter.count == 1)
        #expect(container.resolve(Storage.self)?.describe() == "once(disk)")
    }

    @Test func decoratedInstanceIsWhatTheGraphShares() throws {
        final class Box: @unchecked Sendable {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        final class Pair {
            let a: Box
            let b: Box
            init(a: Box, b: Box) {
                self.a = a
                self.b = b
            }
        }
        let container = Container()
        container.register(Box.self) { _ in Box(1) }
        container.decorate(Box.self) { _, inner in Box(inner.value + 100) }
        container.register(Pair.self) { r in Pair(a: r.resolve(Box.self)!, b: r.resolve(Box.self)!) }
        let pair = try #require(container.resolve(Pair.self))
        #expect(pair.a === pair.b)
        #expect(pair.a.value == 101)
    }

    @Test func throwingDecoratorFailsTheResolution() {
        let container = Container()
        container.register(Storage.self) { _ in DiskStorage() }
        container.decorate(Storage.self) { _, _ in throw Boom() }
        #expect(container.resolve(Storage.self) == nil)
        do {
            _ = try container.require(Storage.self)
        } catch {
            #expect(error.code == .factoryFailed)
            #expect(error.underlying is Boom)
        }
    }

    @Test func decoratorForAnUnregisteredServiceIsReported() {
        let container = Container(label: "app")
        container.register(Storage.self) { _ in DiskStorage() }
        container.decorate(Storage.self) { _, inner in inner }
        #expect(container.unmatchedDecorators().isEmpty)
        container.decorate(Animal.self) { _, inner in inner }
        container.decorate(Storage.self, name: "missing") { _, inner in inner }
        let problems = container.unmatchedDecorators()
        #expect(problems.count == 2)
        #expect(problems.allSatisfy { $0.code == .decoratorWithoutService })
        #expect(problems.contains { $0.description.contains("The decorator for Animal registered at") })
        #expect(problems.contains { $0.description.contains("Storage (name: \"missing\")") })
    }
}
