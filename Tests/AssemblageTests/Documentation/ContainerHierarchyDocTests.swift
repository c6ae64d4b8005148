import Assemblage
import Testing

// The code of the "Container Hierarchy" article, compiled and run (see GettingStartedDocTests.swift).

enum HierarchyDoc {
    // snippet: hierarchy-types
    protocol Session: Sendable {
        var name: String { get }
    }

    struct LiveSession: Session { let name = "live" }
    struct MockSession: Session { let name = "mock" }

    final class NetworkService: Sendable {
        let session: Session
        init(session: Session) { self.session = session }
    }
    // end-snippet

    protocol Analytics: Sendable {}
    final class Renderer: Sendable {}
    final class Coordinator: Sendable {}

    // snippet: hierarchy-wrappers
    final class ProfileModel {
        @Injected var network: NetworkService  // resolved when the model is created
        @OptionalInjected var analytics: Analytics?  // nil when not registered
        @LazyInjected var renderer: Renderer  // resolved on first read, then kept
        @WeakLazyInjected var coordinator: Coordinator?  // resolved on first read, held weakly
    }
    // end-snippet

    @Suite("Docs: Container Hierarchy") struct Samples {
        @Test func overlay() throws {
            // snippet: hierarchy-overlay
            let app = Container(label: "app")
            app.register(Session.self) { _ in LiveSession() }
            app.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }

            let mock = Container(parent: app, label: "mock")  // searched first, then app
            mock.register(Session.self) { _ in MockSession() }

            let fromMock = try mock.require(NetworkService.self)  // app's factory, mock's session
            let fromApp = try app.require(NetworkService.self)  // live session: app never sees mock
            // end-snippet
            #expect(fromMock.session.name == "mock")
            #expect(fromApp.session.name == "live")
        }

        @Test func fallbacks() throws {
            // snippet: hierarchy-fallbacks
            let main = Container(label: "main")
            let payments = Container(label: "payments")
            let search = Container(label: "search")
            try main.addFallback(payments)  // searched after main's own registrations
            try main.addFallback(search)  // then this one

            do {
                try payments.addFallback(main)  // main already reaches payments: lookup would loop
            } catch {
                print(error)  // Adding main as a fallback of payments would make lookup loop: …
            }
            // end-snippet
            #expect(main.fallbacks.map(\.label) == ["payments", "search"])
            #expect(throws: ContainerError.self) { try payments.addFallback(main) }
            #expect(payments.fallbacks.isEmpty)
        }

        @Test func withRootForOneSection() throws {
            let app = Container(label: "app")
            app.register(Session.self) { _ in LiveSession() }
            app.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
            app.register(Renderer.self) { _ in Renderer() }
            app.register(Coordinator.self) { _ in Coordinator() }.inObjectScope(.container)
            // snippet: hierarchy-with-root
            let mock = Container(parent: app, label: "mock")
            mock.register(Session.self) { _ in MockSession() }

            let service = try Container.withRoot(mock) {
                try Container.root.require(NetworkService.self)  // mock's session
            }
            // end-snippet
            #expect(service.session.name == "mock")

            let coordinator = try app.require(Coordinator.self)
            Container.withRoot(mock) {
                // snippet: hierarchy-wrappers-use
                let model = ProfileModel()
                print(model.network.session.name)  // "mock" inside Container.withRoot(mock)
                print(model.analytics == nil)  // true: nothing registers Analytics
                print(model.$renderer.isResolved)  // false until first read
                // end-snippet
                #expect(model.network.session.name == "mock")
                #expect(model.analytics == nil)
                #expect(!model.$renderer.isResolved)
                _ = model.renderer
                #expect(model.$renderer.isResolved)
                #expect(model.coordinator === coordinator)
            }
        }
    }
}

// The globals are process-wide: these samples run inside the serialized suite of the global-container tests.
extension GlobalContainerTests {
    @Suite("Docs: Container Hierarchy (globals)") struct HierarchyDocGlobals {
        typealias Session = HierarchyDoc.Session
        typealias LiveSession = HierarchyDoc.LiveSession
        typealias MockSession = HierarchyDoc.MockSession
        typealias NetworkService = HierarchyDoc.NetworkService

        @Test func bootstrapAndRoot() throws {
            Container.bootstrap(nil)
            Container.resetGlobals()
            defer {
                Container.bootstrap(nil)
                Container.resetGlobals()
            }
            // snippet: hierarchy-bootstrap
            Container.bootstrap { main in
                main.register(Session.self) { _ in LiveSession() }
                main.register(NetworkService.self) { r in NetworkService(session: try r.require(Session.self)) }
            }

            let network = try Container.root.require(NetworkService.self)  // runs the hook first, once
            // end-snippet
            #expect(network.session.name == "live")

            // snippet: hierarchy-assign-root
            let mock = Container(parent: Container.main, label: "mock")
            mock.register(Session.self) { _ in MockSession() }

            Container.root = mock  // every resolution through root sees the mock first
            let mocked = try Container.root.require(NetworkService.self)
            Container.root = Container.main  // back to normal
            // end-snippet
            #expect(mocked.session.name == "mock")
            #expect(try Container.root.require(NetworkService.self).session.name == "live")

            // snippet: hierarchy-reset-globals
            Container.resetGlobals()  // a fresh main, root following it, the hook armed again
            // end-snippet
            #expect(Container.main !== mock.fallbacks.first)
            #expect(try Container.root.require(NetworkService.self).session.name == "live")
        }
    }
}
