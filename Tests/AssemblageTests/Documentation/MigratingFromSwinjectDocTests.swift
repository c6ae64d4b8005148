import Assemblage
import Foundation
import Testing

// The code of the "Migrating from Swinject" article, compiled and run (see GettingStartedDocTests.swift).
// The article's Swinject code ("before") is Swinject's, and is not compiled here.

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
        init(owner: Owner) { self.owner = owner }   // isolated to the main actor
    }

    actor PetStore {
        let owner: Owner
        init(owner: Owner) async { self.owner = owner }
    }

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
                PetOwner(pet: try r.require(Pet.self))   // instead of r.resolve(Pet.self)!
            }
            // end-snippet
            #expect(try container.require(PetOwner.self).pet.name == "Mimi")
        }

        @Test func resolverInTests() throws {
            // snippet: swinject-resolver-stub
            let stubs = Container()
            stubs.register(Pet.self) { _ in Kitten(name: "Stub") }
            let resolver: Resolver = stubs            // pass it wherever a Resolver is expected
            // end-snippet
            #expect(resolver.resolve(Pet.self)?.name == "Stub")
        }

        @Test func synchronize() throws {
            let container = Container()
            // snippet: swinject-synchronize
            let threadSafe = container.synchronize()   // returns the container itself
            // end-snippet
            #expect(threadSafe === container)
        }

        @Test func objectGraph() throws {
            let container = Container()
            // snippet: swinject-object-graph
            container.register(Document.self) { _ in Document() }   // .graph, the default
            container.register(Editor.self) { r in
                Editor(graph: try r.require(GraphIdentifier.self), document: try r.require(Document.self))
            }
            let editor = try container.require(Editor.self)

            let document = try container.withObjectGraph(editor.graph) { container in
                try container.require(Document.self)                 // the editor's document
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

            let plugins = try container.resolveAll(Plugin.self)   // [SearchPlugin, SyncPlugin]
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
                .inObjectScope(.multiton)      // one Connection per host
            // end-snippet
            #expect(try container.require(Connection.self, argument: "a") === container.require(Connection.self, argument: "a"))
            #expect(try container.require(Connection.self, argument: "a") !== container.require(Connection.self, argument: "b"))
        }

        @Test func propertyLoaders() throws {
            let json = Data(#"{"name": "Mimi"}"#.utf8)
            // snippet: swinject-properties
            struct PetAssembly: Assembly {
                func assemble(container: Container) {
                    container.register(Pet.self) { r in Kitten(name: r.property("name") ?? "nameless") }
                }
            }
            let assembler = try Assembler([PetAssembly()],
                                          propertyLoaders: [JSONPropertyLoader(data: json, description: "pets.json")])
            // end-snippet
            #expect(assembler.resolver.resolve(Pet.self)?.name == "Mimi")
        }

        @MainActor @Test func isolatedRegistrations() async throws {
            let container = Container()
            container.register(Owner.self) { _ in Owner(name: "Ada") }
            // snippet: swinject-main-actor-after
            container.register(PetViewModel.self, mainActorFactory: { r in
                PetViewModel(owner: try r.require(Owner.self))
            })
            container.register(PetStore.self) { r in
                await PetStore(owner: try r.require(Owner.self))
            }

            let model = try container.require(PetViewModel.self)        // on the main actor
            let store = try await container.resolveAsync(PetStore.self)  // anywhere
            // end-snippet
            #expect(model.owner.name == "Ada")
            #expect(store.owner.name == "Ada")
            #expect(container.isolation(of: PetViewModel.self) == .mainActor)
            #expect(container.isolation(of: PetStore.self) == .async)
        }
    }
}
