import Assemblage
import Testing

protocol Plugin: AnyObject, Sendable { var id: String { get } }
final class NamedPlugin: Plugin, @unchecked Sendable {
    let id: String
    init(_ id: String) { self.id = id }
}

@Suite struct CollectionTests {
    @Test func resolvesEveryContributionInRegistrationOrder() throws {
        let container = Container()
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("a") }
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("b") }
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("c") }
        #expect(try container.resolveAll(Plugin.self).map(\.id) == ["a", "b", "c"])
    }

    @Test func emptyCollectionIsAValidResult() throws {
        let container = Container()
        #expect(try container.resolveAll(Plugin.self).isEmpty)
        #expect(container.resolve([Plugin].self)?.isEmpty == true)
        #expect(try container.resolveAllNamed(Plugin.self).isEmpty)
    }

    @Test func priorityOrdersHighestFirstAndKeepsTiesStable() throws {
        let container = Container()
        container.registerIntoCollection(Plugin.self, priority: 0) { _ in NamedPlugin("low1") }
        container.registerIntoCollection(Plugin.self, priority: 10) { _ in NamedPlugin("high") }
        container.registerIntoCollection(Plugin.self, priority: 0) { _ in NamedPlugin("low2") }
        container.registerIntoCollection(Plugin.self, priority: -5) { _ in NamedPlugin("last") }
        #expect(try container.resolveAll(Plugin.self).map(\.id) == ["high", "low1", "low2", "last"])
    }

    @Test func arrayAndDictionaryResolveToTheCollection() throws {
        let container = Container()
        container.registerIntoCollection(Plugin.self, name: "x") { _ in NamedPlugin("x") }
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("unnamed") }
        container.registerIntoCollection(Plugin.self, name: "y") { _ in NamedPlugin("y") }
        #expect(container.resolve([Plugin].self)?.map(\.id) == ["x", "unnamed", "y"])
        let named = try container.require([String: Plugin].self)
        #expect(named.keys.sorted() == ["x", "y"])
        #expect(try container.resolveAllNamed(Plugin.self)["y"]?.id == "y")
    }

    @Test func explicitArrayRegistrationWins() {
        let container = Container()
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("element") }
        container.register([Plugin].self) { _ in [NamedPlugin("explicit")] }
        #expect(container.resolve([Plugin].self)?.map(\.id) == ["explicit"])
    }

    @Test func gathersFromFallbacksInLookupOrder() throws {
        let base = Container(label: "base")
        base.registerIntoCollection(Plugin.self) { _ in NamedPlugin("base") }
        let feature = Container(label: "feature")
        feature.registerIntoCollection(Plugin.self) { _ in NamedPlugin("feature") }
        let app = Container(parent: base, label: "app")
        try app.addFallback(feature)
        app.registerIntoCollection(Plugin.self) { _ in NamedPlugin("app") }
        #expect(try app.resolveAll(Plugin.self).map(\.id) == ["app", "base", "feature"])
        #expect(try base.resolveAll(Plugin.self).map(\.id) == ["base"])
    }

    @Test func sharedFallbackContributesOnce() throws {
        let shared = Container()
        shared.registerIntoCollection(Plugin.self) { _ in NamedPlugin("shared") }
        let a = Container(parent: shared)
        let b = Container(parent: shared)
        let root = Container()
        try root.addFallback(a)
        try root.addFallback(b)
        #expect(try root.resolveAll(Plugin.self).map(\.id) == ["shared"])
    }

    @Test func eachElementKeepsItsOwnScope() throws {
        let container = Container()
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("single") }.inObjectScope(.container)
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("fresh") }.inObjectScope(.transient)
        let first = try container.resolveAll(Plugin.self)
        let second = try container.resolveAll(Plugin.self)
        #expect(first[0] === second[0])
        #expect(first[1] !== second[1])
        container.resetObjectScope(.container)
        #expect(try container.resolveAll(Plugin.self)[0] !== first[0])
    }

    @Test func elementFactoriesResolveDependencies() throws {
        let container = Container()
        container.register(String.self, name: "prefix") { _ in "p-" }
        container.registerIntoCollection(Plugin.self) { r in
            NamedPlugin(try r.require(String.self, name: "prefix") + "1")
        }
        #expect(try container.resolveAll(Plugin.self).map(\.id) == ["p-1"])
    }

    @Test func failingElementFailsTheCollectionWithItsPath() {
        let container = Container()
        container.registerIntoCollection(Plugin.self, name: "broken") { r in NamedPlugin(try r.require(String.self)) }
        #expect(container.resolve([Plugin].self) == nil)
        do {
            _ = try container.resolveAll(Plugin.self)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .notRegistered)
            #expect(error.pathDescription == "Plugin (name: \"broken\") → String")
        }
    }

    @Test func removeAllDropsContributions() throws {
        let container = Container()
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("a") }
        container.removeAll()
        #expect(try container.resolveAll(Plugin.self).isEmpty)
    }

    @Test func arrayOfAPlainlyRegisteredTypeWithoutElementsFailsAndSaysSo() throws {
        let container = Container()
        container.register(Plugin.self) { _ in NamedPlugin("plain") }
        #expect(container.resolve([Plugin].self) == nil)  // as in Swinject: [T] resolves only if registered
        let error = try #require(throws: ResolutionError.self) { try container.require([Plugin].self) }
        #expect(error.code == .notRegistered)
        #expect(error.suggestions.count == 1)
        #expect(error.description.contains("Plugin has plain registrations (Plugin)"))
        #expect(error.description.contains("registerIntoCollection(Plugin.self)"))
        #expect(container.resolve([String: Plugin].self) == nil)
        // The explicit collection API still answers with the (empty) collection.
        #expect(try container.resolveAll(Plugin.self).isEmpty)
    }

    @Test func arrayResolvesToElementsAlsoWhenTheTypeHasPlainRegistrations() throws {
        let container = Container()
        container.register(Plugin.self) { _ in NamedPlugin("plain") }
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("element") }
        #expect(try container.require([Plugin].self).map(\.id) == ["element"])
    }
}
