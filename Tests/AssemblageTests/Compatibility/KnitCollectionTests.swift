import Assemblage
import Testing

// Knit's collection spellings: `resolveCollection(_:)` and its `ServiceCollection` (a container's own `entries`
// and `allEntries`), `ServiceCollector`, and `autoregisterIntoCollection` at every arity.

private protocol KnitPlugin: AnyObject { var label: String { get } }
private final class NamedKnitPlugin: KnitPlugin {
    let label: String
    init(_ label: String) { self.label = label }
}
private final class Tracker {}
private final class TrackingKnitPlugin: KnitPlugin {
    let label = "tracking"
    init(tracker: Tracker) {}
}
private final class WideKnitPlugin: KnitPlugin {
    let label: String
    init(a: Tracker, b: Tracker, c: Tracker, d: Tracker, e: Tracker, f: Tracker, g: Tracker) { label = "wide" }
}
private final class EmptyKnitPlugin: KnitPlugin {
    let label = "empty"
    init() {}
}
private struct KnitPluginFailure: Error {}

private struct CorePlugins: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("core") }
    }
}
private struct FeaturePlugins: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("feature") }
    }
}
private struct NoPlugins: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

@Suite struct KnitCollectionTests {
    private func labels(_ plugins: [KnitPlugin]) -> [String] { plugins.map(\.label) }

    @Test func collectionOfOneContainerHasTheSameEntriesAndAllEntries() {
        let container = Container()
        container.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("a") }
        container.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("b") }
        let collection = container.resolveCollection(KnitPlugin.self)
        #expect(labels(collection.entries) == ["a", "b"])
        #expect(labels(collection.allEntries) == ["a", "b"])
        #expect(collection.error == nil)
    }

    @Test func emptyCollectionIsNotAnError() {
        let collection = Container().resolveCollection(KnitPlugin.self)
        #expect(collection.entries.isEmpty && collection.allEntries.isEmpty && collection.error == nil)
    }

    @Test func childEntriesLeaveOutItsParentsElements() {
        let app = Container()
        app.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("app") }
        let screen = Container(parent: app)
        screen.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("screen") }
        let collection = screen.resolveCollection(KnitPlugin.self)
        #expect(labels(collection.entries) == ["screen"])
        #expect(labels(collection.allEntries) == ["screen", "app"])
        #expect(labels(app.resolveCollection(KnitPlugin.self).allEntries) == ["app"])
    }

    @Test func childThatContributedNothingHasNoEntriesOfItsOwn() {
        let app = Container()
        app.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("app") }
        let collection = Container(parent: app).resolveCollection(KnitPlugin.self)
        #expect(collection.entries.isEmpty)
        #expect(labels(collection.allEntries) == ["app"])
    }

    @Test func allEntriesAreWhatResolveAllReturns() throws {
        let app = Container()
        app.registerIntoCollection(KnitPlugin.self, priority: 5) { _ in NamedKnitPlugin("first") }
        let screen = Container(parent: app)
        screen.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("second") }
        #expect(
            labels(screen.resolveCollection(KnitPlugin.self).allEntries)
                == labels(try screen.resolveAll(KnitPlugin.self)))
    }

    @Test func eachElementIsResolvedOnceForBothLists() {
        let counter = Counter()
        let container = Container()
        container.registerIntoCollection(KnitPlugin.self) { _ in
            counter.increment()
            return NamedKnitPlugin("counted")
        }
        let collection = container.resolveCollection(KnitPlugin.self)
        #expect(counter.count == 1)
        #expect(collection.entries.first === collection.allEntries.first)
    }

    @Test func childAssemblerEntriesAreItsOwnModulesElements() throws {
        let parent = try ModuleAssembler([CorePlugins()])
        let child = try ModuleAssembler([FeaturePlugins()], parent: parent)
        let collection = child.resolver.resolveCollection(KnitPlugin.self)
        #expect(labels(collection.entries) == ["feature"])
        #expect(labels(collection.allEntries) == ["feature", "core"])
        #expect(labels(parent.resolver.resolveCollection(KnitPlugin.self).entries) == ["core"])
    }

    @Test func emptyChildAssemblerSeesItsParentsElementsOnlyInAllEntries() throws {
        let parent = try ModuleAssembler([CorePlugins()])
        let child = try ModuleAssembler([NoPlugins()], parent: parent)
        let collection = child.resolver.resolveCollection(KnitPlugin.self)
        #expect(collection.entries.isEmpty)
        #expect(labels(collection.allEntries) == ["core"])
    }

    @Test func grandchildAssemblerSeesEveryAncestorInAllEntries() throws {
        let root = try ModuleAssembler([CorePlugins()])
        let middle = try ModuleAssembler([NoPlugins()], parent: root)
        let leaf = try ModuleAssembler([FeaturePlugins()], parent: middle)
        #expect(labels(leaf.resolver.resolveCollection(KnitPlugin.self).entries) == ["feature"])
        #expect(labels(leaf.resolver.resolveCollection(KnitPlugin.self).allEntries) == ["feature", "core"])
        #expect(labels(middle.resolver.resolveCollection(KnitPlugin.self).allEntries) == ["core"])
    }

    @Test func failingElementGivesAnEmptyCollectionWithTheError() {
        let container = Container()
        container.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("fine") }
        container.registerIntoCollection(KnitPlugin.self) { _ throws -> KnitPlugin in throw KnitPluginFailure() }
        let collection = container.resolveCollection(KnitPlugin.self)
        #expect(collection.entries.isEmpty && collection.allEntries.isEmpty)
        #expect(collection.error?.code == .factoryFailed)
    }

    @Test func elementWithAMissingDependencyGivesTheNotRegisteredError() {
        let container = Container()
        container.autoregisterIntoCollection(KnitPlugin.self, initializer: TrackingKnitPlugin.init)
        let collection = container.resolveCollection(KnitPlugin.self)
        #expect(collection.allEntries.isEmpty)
        #expect(collection.error?.code == .notRegistered)
        #expect(collection.error?.key == ServiceKey(Tracker.self))
    }

    @Test func serviceCollectorChangesNothing() {
        let with = Container()
        with.addBehavior(ServiceCollector(parent: ServiceCollector()))
        with.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("a") }
        with.register(KnitPlugin.self) { _ in NamedKnitPlugin("plain") }
        #expect(labels(with.resolveCollection(KnitPlugin.self).entries) == ["a"])
        #expect(with.resolve(KnitPlugin.self)?.label == "plain")
    }

    @Test func collectionMadeFromAParentListsItsOwnEntriesFirst() {
        let parent = ServiceCollection<Int>(parent: nil, entries: [1, 2])
        let collection = ServiceCollection(parent: parent, entries: [3])
        #expect(collection.entries == [3])
        #expect(collection.allEntries == [3, 1, 2])
        #expect(collection.error == nil)
    }

    @Test func autoregisterIntoCollectionWithoutParameters() throws {
        let container = Container()
        container.autoregisterIntoCollection(KnitPlugin.self, initializer: EmptyKnitPlugin.init)
        #expect(labels(try container.resolveAll(KnitPlugin.self)) == ["empty"])
    }

    @Test func autoregisterIntoCollectionResolvesParametersAtAFixedArity() throws {
        let container = Container()
        container.register(Tracker.self) { _ in Tracker() }
        container.autoregisterIntoCollection(KnitPlugin.self, name: "tracking", initializer: TrackingKnitPlugin.init)
        #expect(try container.resolveAllNamed(KnitPlugin.self)["tracking"]?.label == "tracking")
    }

    @Test func autoregisterIntoCollectionTakesMoreParametersThroughThePackForm() throws {
        let container = Container()
        container.register(Tracker.self) { _ in Tracker() }
        container.registerIntoCollection(KnitPlugin.self) { _ in NamedKnitPlugin("plain") }
        container.autoregisterIntoCollection(KnitPlugin.self, priority: 1, initializer: WideKnitPlugin.init)
        #expect(labels(try container.resolveAll(KnitPlugin.self)) == ["wide", "plain"])
    }

    @Test func autoregisteredElementTakesItsScope() throws {
        let container = Container()
        container.autoregisterIntoCollection(KnitPlugin.self, initializer: EmptyKnitPlugin.init).inObjectScope(
            .container)
        let first = try container.resolveAll(KnitPlugin.self)
        #expect(first.first === (try container.resolveAll(KnitPlugin.self)).first)
    }
}
