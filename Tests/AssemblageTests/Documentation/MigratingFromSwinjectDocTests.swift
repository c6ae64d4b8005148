import Assemblage
import AssemblageProperties
import Foundation
import Synchronization
import Testing

// The code of the "Migrating from Swinject" article, compiled and run (see GettingStartedDocTests.swift).
// The article's Swinject code ("before") is Swinject's, and is not compiled here; nor is the code of "Porting to
// Swift 6" that does not compile (its messages were captured from Swift 6.3.1, building against Assemblage).

enum SwinjectMigrationDoc {
    protocol Pet: AnyObject {
        var name: String { get }
    }

    final class Kitten: Pet {
        let name: String
        init(name: String) { self.name = name }
    }

    final class PetOwner {
        let pet: Pet
        init(pet: Pet) { self.pet = pet }
    }

    /// Not Sendable: a mutable class.
    final class ReportStyle {
        var fontSize = 12
    }

    final class ReportPrinter {
        let style: ReportStyle
        init(style: ReportStyle) { self.style = style }
    }

    protocol Plugin: Sendable {
        var id: String { get }
    }

    struct SearchPlugin: Plugin { let id = "search" }
    struct SyncPlugin: Plugin { let id = "sync" }

    protocol Storage: Sendable {
        var layers: [String] { get }
    }

    struct DiskStorage: Storage {
        var layers: [String] { ["disk"] }
    }

    struct LoggingStorage: Storage {
        let inner: Storage
        var layers: [String] { ["logging"] + inner.layers }
    }

    final class Connection: Sendable {
        let host: String
        init(host: String) { self.host = host }
    }

    final class Owner: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    final class Walk {
        let owner: PetOwner
        let pet: Pet
        init(owner: PetOwner, pet: Pet) {
            self.owner = owner
            self.pet = pet
        }
    }

    final class Document: Sendable {}

    final class Editor: Sendable {
        let graph: GraphIdentifier
        let document: Document
        init(graph: GraphIdentifier, document: Document) {
            self.graph = graph
            self.document = document
        }
    }

    @MainActor
    final class PetViewModel {
        let owner: Owner
        init(owner: Owner) { self.owner = owner }  // isolated to the main actor
    }

    actor PetStore {
        let owner: Owner
        init(owner: Owner) async { self.owner = owner }
    }

    // snippet: swinject-own-resolver
    /// A test double, written as for Swinject: answers from stubs and records what it was asked.
    final class StubResolver: Resolver, @unchecked Sendable {  // @unchecked: state only touched under `lock`
        private let lock = NSLock()
        private var stubs: [String: Any] = [:]
        private var asked: [String] = []

        func stub<Service>(_ type: Service.Type, name: String? = nil, _ value: Service) {
            lock.withLock { stubs["\(Service.self)|\(name ?? "")"] = value }
        }

        var calls: [String] { lock.withLock { asked } }

        func resolve<Service>(_ serviceType: Service.Type) -> Service? {
            resolve(Service.self, name: nil)
        }

        func resolve<Service>(_ serviceType: Service.Type, name: String?) -> Service? {
            lock.withLock {
                asked.append("\(Service.self)")
                return stubs["\(Service.self)|\(name ?? "")"] as? Service
            }
        }
    }
    // end-snippet

    /// Implements only the unnamed form: `require` without a name goes through it too.
    final class PlainOnlyResolver: Resolver, Sendable {
        func resolve<Service>(_ serviceType: Service.Type) -> Service? { Kitten(name: "Plain") as? Service }
    }

    /// Code under test that knows only the protocol.
    static func makeOwner(_ resolver: any Resolver) -> PetOwner? {
        resolver.resolve(Pet.self).map { PetOwner(pet: $0) }
    }

    final class Settings {
        var theme = "dark"
    }

    final class ThemeService: Sendable {
        let theme: String
        init(theme: String) { self.theme = theme }
    }

    // snippet: swift6-capture-self-after
    final class AppComposition {
        let container = Container()
        var settings = Settings()

        func setUp() {
            container.register(ThemeService.self) { [theme = settings.theme] _ in
                ThemeService(theme: theme)
            }
        }
    }
    // end-snippet

    final class Router: Sendable {
        let depth: Int
        init(depth: Int) { self.depth = depth }
    }

    // snippet: swift6-main-actor-state-after
    @MainActor
    final class SceneDelegate {
        let container = Container()
        var navigationDepth = 0

        func setUp() {
            container.register(
                Router.self,
                mainActorFactory: { _ in
                    Router(depth: self.navigationDepth)
                })
            container.register(
                Router.self, name: "counting",
                mainActorFactory: { _ in
                    self.navigationDepth += 1
                    return Router(depth: self.navigationDepth)
                })
        }
    }
    // end-snippet

    @Suite("Docs: Migrating from Swinject") struct Samples {
        @Test func unchanged() throws {
            // snippet: swinject-unchanged
            let container = Container()
            container.register(Pet.self) { _ in Kitten(name: "Mimi") }
            container.register(PetOwner.self) { r in
                PetOwner(pet: r.resolve(Pet.self)!)
            }
            .inObjectScope(.container)

            let owner = container.resolve(PetOwner.self)!
            // end-snippet
            #expect(owner.pet.name == "Mimi")
        }

        @Test func sendableFactories() throws {
            let container = Container()
            // snippet: swinject-sendable-after
            container.register(ReportStyle.self) { _ in ReportStyle() }
            container.register(ReportPrinter.self) { r in
                ReportPrinter(style: try r.require(ReportStyle.self))
            }
            // end-snippet
            #expect(try container.require(ReportPrinter.self).style.fontSize == 12)
        }

        @Test func throwingForm() throws {
            let container = Container()
            container.register(Pet.self) { _ in Kitten(name: "Mimi") }
            // snippet: swinject-require
            container.register(PetOwner.self) { r in
                PetOwner(pet: try r.require(Pet.self))  // instead of r.resolve(Pet.self)!
            }
            // end-snippet
            #expect(try container.require(PetOwner.self).pet.name == "Mimi")
        }

        @Test func autoregistration() throws {
            let container = Container()
            container.register(Pet.self) { _ in Kitten(name: "Tom") }
            container.register(Pet.self, name: "mimi") { _ in Kitten(name: "Mimi") }
            // snippet: swinject-autoregistration
            container.autoregister(PetOwner.self, initializer: PetOwner.init)
            container.register(Walk.self) { r in
                Walk(owner: r~>, pet: r ~> (Pet.self, name: "mimi"))
            }
            // end-snippet
            let walk = try container.require(Walk.self)
            #expect(walk.owner.pet.name == "Tom" && walk.pet.name == "Mimi")
        }

        @Test func resolverOfYourOwn() throws {
            // snippet: swinject-own-resolver-use
            let stub = StubResolver()
            stub.stub(Pet.self, Kitten(name: "Stub"))

            let owner = makeOwner(stub)  // code that takes `any Resolver` calls the stub
            let pet = try stub.require(Pet.self)  // require: through the same resolve(_:)
            // end-snippet
            #expect(owner?.pet.name == "Stub")
            #expect(pet.name == "Stub")
            #expect(stub.calls == ["Pet", "Pet"])
            do {
                _ = try stub.require(PetOwner.self)
                Issue.record("require should have thrown")
            } catch {
                #expect(error.code == .notRegistered)
                #expect(error.suggestions == ["StubResolver (a Resolver of your own) returned nil for PetOwner."])
            }
            do {
                _ = try stub.resolveAll(Plugin.self)
                Issue.record("resolveAll should have thrown")
            } catch {
                #expect(error.code == .factoryFailed)
                #expect(error.description.contains("resolveAll needs a container"))
            }
            // More than three arguments: `require` takes the parameter-pack form, which needs a container.
            // assemblage-check: ignore-begin (fails on purpose)
            #expect(throws: ResolutionError.self) { try stub.require(Pet.self, arguments: 1, 2, 3, 4) }
            // assemblage-check: ignore-end
            // Beyond Swinject's nine arguments, `resolve` has no requirement to call.
            #expect((stub as any Resolver).resolve(Pet.self, arguments: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == nil)
            // A requirement left unimplemented resolves to nil.
            #expect((stub as any Resolver).resolve(Pet.self, argument: 1) == nil)
        }

        @Test func requireGoesThroughTheFormOfItsArguments() throws {
            let plain = PlainOnlyResolver()
            #expect((plain as any Resolver).resolve(Pet.self)?.name == "Plain")
            #expect(try plain.require(Pet.self).name == "Plain")
            // The named form is not implemented: it resolves to nil, and `require` with a name throws.
            #expect(throws: ResolutionError.self) {
                try plain.require(Pet.self, name: "other")  // assemblage-check: ignore
            }
        }

        @Test func aContainerIsStillAResolver() throws {
            // snippet: swinject-resolver-stub
            let stubs = Container()
            stubs.register(Pet.self) { _ in Kitten(name: "Stub") }
            let resolver: Resolver = stubs  // pass it wherever a Resolver is expected
            // end-snippet
            #expect(resolver.resolve(Pet.self)?.name == "Stub")
        }

        @Test func synchronize() throws {
            let container = Container()
            container.register(Pet.self) { _ in Kitten(name: "Tom") }
            // snippet: swinject-synchronize
            let serial = container.synchronize()  // a child container whose resolves run one at a time
            let pet = serial.resolve(Pet.self)  // resolves from the container it was made from
            // end-snippet
            #expect(pet?.name == "Tom")
            #expect(serial !== container)
            #expect((serial as? Container)?.fallbacks.first === container)
        }

        @Test func objectGraph() throws {
            let container = Container()
            // snippet: swinject-object-graph
            container.register(Document.self) { _ in Document() }  // .graph, the default
            container.register(Editor.self) { r in
                Editor(graph: try r.require(GraphIdentifier.self), document: try r.require(Document.self))
            }
            let editor = try container.require(Editor.self)

            let document = try container.withObjectGraph(editor.graph) { container in
                try container.require(Document.self)  // the editor's document
            }
            // end-snippet
            #expect(document === editor.document)
            #expect(try container.require(Document.self) !== editor.document)  // a new graph
        }

        @Test func collections() throws {
            let container = Container()
            // snippet: swinject-collection-after
            container.registerIntoCollection(Plugin.self) { _ in SearchPlugin() }
            container.registerIntoCollection(Plugin.self) { _ in SyncPlugin() }

            let plugins = try container.resolveAll(Plugin.self)  // [SearchPlugin, SyncPlugin]
            // end-snippet
            #expect(plugins.map(\.id) == ["search", "sync"])
        }

        @Test func decorators() throws {
            let container = Container()
            // snippet: swinject-decorator-after
            container.register(Storage.self) { _ in DiskStorage() }
            container.decorate(Storage.self) { _, inner in LoggingStorage(inner: inner) }
            // end-snippet
            #expect(try container.require(Storage.self).layers == ["logging", "disk"])
        }

        @Test func multiton() throws {
            let container = Container()
            // snippet: swinject-multiton-after
            container.register(Connection.self) { (_, host: String) in Connection(host: host) }
                .inObjectScope(.multiton)  // one Connection per host
            // end-snippet
            #expect(
                try container.require(Connection.self, argument: "a")
                    === container.require(Connection.self, argument: "a"))
            #expect(
                try container.require(Connection.self, argument: "a")
                    !== container.require(Connection.self, argument: "b"))
        }

        @Test func propertyLoaders() throws {
            let json = Data(#"{"name": "Mimi"}"#.utf8)
            // snippet: swinject-properties
            struct PetAssembly: Assembly {
                func assemble(container: Container) {
                    container.register(Pet.self) { r in Kitten(name: r.property("name") ?? "nameless") }
                }
            }
            let assembler = try Assembler(
                [PetAssembly()],
                propertyLoaders: [JSONPropertyLoader(data: json, description: "pets.json")])
            // end-snippet
            #expect(assembler.resolver.resolve(Pet.self)?.name == "Mimi")
        }

        @MainActor @Test func isolatedRegistrations() async throws {
            let container = Container()
            container.register(Owner.self) { _ in Owner(name: "Ada") }
            // snippet: swinject-main-actor-after
            container.register(
                PetViewModel.self,
                mainActorFactory: { r in
                    PetViewModel(owner: try r.require(Owner.self))
                })
            container.register(PetStore.self) { r in
                await PetStore(owner: try r.require(Owner.self))
            }

            let model = try container.require(PetViewModel.self)  // on the main actor
            let store = try await container.resolveAsync(PetStore.self)  // anywhere
            // end-snippet
            #expect(model.owner.name == "Ada")
            #expect(store.owner.name == "Ada")
            #expect(container.isolation(of: PetViewModel.self) == .mainActor)
            #expect(container.isolation(of: PetStore.self) == .async)
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test func capturedCounters() throws {
            let container = Container()
            // snippet: swift6-captured-var-after
            let made = Mutex(0)
            let completed = Mutex(false)
            container.register(Pet.self) { _ in
                made.withLock { $0 += 1 }
                return Kitten(name: "Mimi")
            }
            .initCompleted { _, _ in completed.withLock { $0 = true } }
            // end-snippet
            _ = try container.require(Pet.self)
            _ = try container.require(Pet.self)
            #expect(made.withLock { $0 } == 2)
            #expect(completed.withLock { $0 })
        }

        @Test func captureSelf() throws {
            let app = AppComposition()
            app.settings.theme = "light"
            app.setUp()
            app.settings.theme = "dark"
            // The capture list read the theme when the factory was registered.
            #expect(try app.container.require(ThemeService.self).theme == "light")
        }

        @MainActor @Test func mainActorState() throws {
            let scene = SceneDelegate()
            scene.navigationDepth = 2
            scene.setUp()
            #expect(try scene.container.require(Router.self).depth == 2)
            #expect(try scene.container.require(Router.self, name: "counting").depth == 3)
            #expect(scene.navigationDepth == 3)
            #expect(scene.container.isolation(of: Router.self) == .mainActor)
        }
    }
}
