import Assemblage
import Testing

// The code of the "Migrating from Resolver" article, compiled and run (see GettingStartedDocTests.swift).
// The article's Resolver code ("before") is Resolver's, and is not compiled here.

enum ResolverMigrationDoc {
    // snippet: resolver-types
    final class XYZSessionService: Sendable {
        let name: String
        init(name: String = "live") { self.name = name }
    }

    final class XYZNetworkService: Sendable {
        let session: XYZSessionService
        init(session: XYZSessionService) { self.session = session }
    }

    final class MyViewModel {
        @Injected var network: XYZNetworkService
        @OptionalInjected var analytics: XYZAnalytics?
    }
    // end-snippet

    final class XYZAnalytics: Sendable {}

    final class XYZUserCache {
        var session: XYZSessionService?
    }

    final class XYZProfile: Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    @Suite("Docs: Migrating from Resolver") struct Samples {
        @Test func mockOverlayForOneSection() throws {
            let main = Container(label: "main")
            main.register { _ in XYZSessionService() }
            main.register { r in XYZNetworkService(session: try r.require()) }
            // snippet: resolver-mock
            let mock = Container(parent: main, label: "mock")  // Resolver(child: main)
            mock.register { _ in XYZSessionService(name: "mock") }

            let model = Container.withRoot(mock) { MyViewModel() }  // root = mock … root = main, for one section
            // end-snippet
            #expect(model.network.session.name == "mock")
            #expect(model.analytics == nil)
        }

        @Test func optionsAndArguments() throws {
            let main = Container(label: "main")
            // snippet: resolver-options
            main.register { _ in XYZSessionService() }
                .inObjectScope(.singleton)  // .scope(.application)
            main.register { _ in XYZUserCache() }
                .initCompleted { r, cache in cache.session = try r.require() }  // .resolveProperties { … }
            main.register { (_, id: Int) in XYZProfile(id: id) }  // args.get() becomes a typed argument

            let profile = try main.require(XYZProfile.self, argument: 42)  // resolve(args: 42)
            let optional = main.resolve(XYZAnalytics.self)  // optional(): nil, no crash
            // end-snippet
            #expect(profile.id == 42)
            #expect(optional == nil)
            #expect(try main.require(XYZUserCache.self).session === main.require(XYZSessionService.self))
        }

        @Test func severalContainers() throws {
            // snippet: resolver-children
            let main = Container(label: "main")
            let containerA = Container(label: "containerA")
            let containerB = Container(label: "containerB")
            try main.addFallback(containerA)  // main.add(child: containerA)
            try main.addFallback(containerB)  // main.add(child: containerB)
            // end-snippet
            containerB.register { _ in XYZAnalytics() }
            #expect(main.resolve(XYZAnalytics.self) != nil)
        }
    }
}

// Bootstrapping changes the process-wide containers: run inside the serialized suite of the global-container tests.
extension GlobalContainerTests {
    @Suite("Docs: Migrating from Resolver (globals)") struct ResolverMigrationDocGlobals {
        typealias XYZSessionService = ResolverMigrationDoc.XYZSessionService
        typealias XYZNetworkService = ResolverMigrationDoc.XYZNetworkService
        typealias MyViewModel = ResolverMigrationDoc.MyViewModel

        @Test func bootstrap() throws {
            Container.bootstrap(nil)
            Container.resetGlobals()
            defer {
                Container.bootstrap(nil)
                Container.resetGlobals()
            }
            // snippet: resolver-bootstrap
            Container.bootstrap { main in
                main.register { _ in XYZSessionService() }
                main.register { r in XYZNetworkService(session: try r.require()) }
            }

            let viewModel = MyViewModel()  // @Injected resolves from Container.root
            let network: XYZNetworkService = try Container.root.require()  // Resolver.resolve()
            // end-snippet
            #expect(viewModel.network.session.name == "live")
            #expect(network.session.name == "live")
        }
    }
}
