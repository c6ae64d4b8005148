import Assemblage
import Testing

// The code of the "Registering and Resolving" article, compiled and run (see GettingStartedDocTests.swift).

enum RegisteringDoc {
    // snippet: registering-services
    protocol Storage: AnyObject, Sendable {
        func save(_ note: String)
    }

    protocol Purgeable: AnyObject {
        func purge()
    }

    final class DiskStorage: Storage, Purgeable, @unchecked Sendable {
        let path: String
        init(path: String) { self.path = path }
        func save(_ note: String) {}
        func purge() {}
    }

    final class MemoryStorage: Storage, @unchecked Sendable {
        func save(_ note: String) {}
    }

    final class NoteRepository {
        let storage: Storage
        init(storage: Storage) { self.storage = storage }
    }
    // end-snippet

    // snippet: registering-cycle-types
    final class Parent {
        let child: Child
        init(child: Child) { self.child = child }
    }

    final class Child {
        weak var parent: Parent?
    }
    // end-snippet

    // snippet: registering-wrapper-types
    final class PDFRenderer {}
    final class Page {}
    protocol Analytics {}

    final class Report {
        let renderer: Lazy<PDFRenderer>  // made on first use
        let pages: Provider<Page>  // a new page each time
        init(renderer: Lazy<PDFRenderer>, pages: Provider<Page>) {
            self.renderer = renderer
            self.pages = pages
        }
    }
    // end-snippet

    // snippet: registering-throwing-types
    struct ConfigurationMissing: Error, CustomStringConvertible {
        var description: String { "no storage path configured" }
    }
    // end-snippet

    @Suite("Docs: Registering and Resolving") struct Samples {
        @Test func registerAndResolve() throws {
            // snippet: registering-register
            let container = Container()
            container.register(Storage.self) { _ in DiskStorage(path: "/var/notes") }
            container.register(Storage.self, name: "memory") { _ in MemoryStorage() }
            container.register { r in NoteRepository(storage: try r.require(Storage.self)) }  // NoteRepository
            // end-snippet

            // snippet: registering-resolve
            let repository = container.resolve(NoteRepository.self)  // NoteRepository?
            let memory = container.resolve(Storage.self, name: "memory")  // the named registration
            let checked = try container.require(NoteRepository.self)  // or a ResolutionError
            let inferred: NoteRepository = try container.require()  // the type from the context
            let cloud = container.resolve(Storage.self, name: "cloud")  // nil: no such name
            // end-snippet
            #expect(repository?.storage is DiskStorage)
            #expect(memory is MemoryStorage)
            #expect(checked.storage is DiskStorage)
            #expect(inferred.storage is DiskStorage)
            #expect(cloud == nil)

            // snippet: registering-replace
            container.register(Storage.self) { _ in MemoryStorage() }  // same key: replaces DiskStorage
            // end-snippet
            #expect(try container.require(NoteRepository.self).storage is MemoryStorage)
            #expect(container.hasAnyRegistration(of: Storage.self, name: "memory"))
        }

        @Test func throwingFactory() throws {
            let container = Container()
            // snippet: registering-throwing
            container.register(Storage.self) { _ -> Storage in
                throw ConfigurationMissing()
            }

            do {
                _ = try container.require(Storage.self)
            } catch {
                // error.code == .factoryFailed; error.underlying is the ConfigurationMissing value
                print(error)  // The factory for Storage failed: no storage path configured.
            }
            // end-snippet
            #expect(throws: ResolutionError.self) { try container.require(Storage.self) }
            do {
                _ = try container.require(Storage.self)
            } catch {
                #expect(error.code == .factoryFailed)
                #expect(error.underlying is ConfigurationMissing)
                #expect(error.description == "The factory for Storage failed: no storage path configured.")
            }
        }

        @Test func propertyInjectionCycle() throws {
            let container = Container()
            // snippet: registering-cycle
            container.register(Parent.self) { r in Parent(child: try r.require(Child.self)) }
            container.register(Child.self) { _ in Child() }
                .initCompleted { r, child in child.parent = try r.require(Parent.self) }

            let parent = try container.require(Parent.self)
            // parent.child.parent === parent
            // end-snippet
            #expect(parent.child.parent === parent)
        }

        @Test func forwarding() throws {
            let container = Container()
            // snippet: registering-implements
            container.register(DiskStorage.self) { _ in DiskStorage(path: "/var/notes") }
                .inObjectScope(.container)
                .implements(Storage.self, Purgeable.self)

            let storage = try container.require(Storage.self)
            let purgeable = try container.require(Purgeable.self)
            // storage === purgeable: one registration, one instance, three types
            // end-snippet
            #expect(storage === purgeable)
            #expect(try container.require(DiskStorage.self) === storage)
        }

        @Test func wrappers() throws {
            let container = Container()
            // snippet: registering-wrappers
            container.register(PDFRenderer.self) { _ in PDFRenderer() }
            container.register(Page.self) { _ in Page() }
            container.register(Report.self) { r in
                Report(
                    renderer: try r.require(Lazy<PDFRenderer>.self),
                    pages: try r.require(Provider<Page>.self))
            }

            let report = try container.require(Report.self)
            let renderer = report.renderer.instance  // resolved now, then kept
            let first = report.pages.instance  // a new Page…
            let second = report.pages.instance  // …and another
            let analytics = try container.require(Analytics?.self)  // nil: not registered, and that is fine
            // end-snippet
            #expect(renderer === report.renderer.instance)
            #expect(first !== second)
            #expect(analytics == nil)
        }

        @Test func inspecting() {
            let container = Container(label: "notes")
            container.register(Storage.self) { _ in MemoryStorage() }.inObjectScope(.container)
            // snippet: registering-inspect
            print(container)
            // [
            //     { Service: Storage, Factory: Resolver -> Storage, ObjectScope: container }
            // ]
            debugPrint(container)
            // notes: 1 registration
            //   Storage — scope: container — MyApp/Notes.swift:12
            // end-snippet
            #expect(
                container.description
                    == "[\n    { Service: Storage, Factory: Resolver -> Storage, ObjectScope: container }\n]")
            #expect(
                container.debugDescription.hasPrefix(
                    "notes: 1 registration\n  Storage — scope: container — AssemblageTests/"))
        }
    }
}
