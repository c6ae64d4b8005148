import Assemblage
import Testing

// The code of the "Diagnostics" article, compiled and run (see GettingStartedDocTests.swift).

enum DiagnosticsDoc {
    // snippet: diagnostics-types
    final class Database: Sendable {}

    final class Repository: Sendable {
        let database: Database
        init(database: Database) { self.database = database }
    }

    final class App: Sendable {
        let repository: Repository
        init(repository: Repository) { self.repository = repository }
    }
    // end-snippet

    // snippet: diagnostics-cycle-types
    final class Chicken: Sendable {
        init(egg: Egg) {}
    }

    final class Egg: Sendable {
        init(chicken: Chicken) {}
    }
    // end-snippet

    // snippet: diagnostics-captive-types
    final class RequestContext: Sendable {}

    final class ResponseCache: Sendable {
        let context: RequestContext
        init(context: RequestContext) { self.context = context }
    }
    // end-snippet

    final class ProfileViewModel: Sendable {
        let userID: Int
        init(userID: Int) { self.userID = userID }
    }

    // snippet: diagnostics-isolation-types
    actor SessionStore {
        init() async {}
    }

    final class SessionReporter: Sendable {
        let store: SessionStore
        init(store: SessionStore) { self.store = store }
    }
    // end-snippet

    // snippet: diagnostics-implements-types
    protocol Storage: Sendable {}
    final class SQLStorage: Storage {}
    // end-snippet
    final class ReportService: Sendable {
        init(storage: Storage) {}
    }

    // assemblage-check: ignore-begin (the article shows the error this module graph gives)
    // snippet: diagnostics-modules
    struct StorageModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }
        func assemble(container: Container) {
            container.register(Storage.self) { _ in SQLStorage() }.inObjectScope(.container)
        }
    }

    struct ReportsModule: AutoInitModuleAssembly {
        static var dependencies: [any ModuleAssembly.Type] { [] }  // forgot StorageModule
        func assemble(container: Container) {
            container.register(ReportService.self) { r in ReportService(storage: try r.require(Storage.self)) }
        }
    }
    // end-snippet
    // assemblage-check: ignore-end

    @Suite("Docs: Diagnostics") struct Samples {
        @Test func missingRegistration() throws {
            var message = ""
            // assemblage-check: ignore-begin (the article shows the error this missing registration gives)
            // snippet: diagnostics-missing
            let container = Container()
            container.register(App.self) { r in App(repository: try r.require(Repository.self)) }
            container.register(Repository.self) { r in
                Repository(database: try r.require(Database.self, name: "primary"))
            }
            container.register(Database.self, name: "replica") { _ in Database() }

            do {
                _ = try container.require(App.self)
            } catch {
                print(error)
            }
            // end-snippet
            // assemblage-check: ignore-end
            do {
                _ = try container.require(App.self)
            } catch {
                message = error.description
                #expect(error.code == .notRegistered)
                #expect(error.nearMisses == [ServiceKey(Database.self, name: "replica")])
            }
            #expect(
                message == """
                    No registration for Database (name: "primary").
                      Resolution path: App → Repository → Database (name: "primary")
                      Registered for Database: Database (name: "replica")
                    """)
        }

        @Test func missingProtocolNamesTheConcreteRegistration() {
            var message = ""
            // snippet: diagnostics-implements
            let container = Container()
            container.register(SQLStorage.self) { _ in SQLStorage() }  // the concrete type only

            do {
                _ = try container.require(Storage.self)
            } catch {
                print(error)
            }
            // end-snippet
            do {
                _ = try container.require(Storage.self)
            } catch {
                message = error.description
                #expect(error.code == .notRegistered)
                #expect(error.suggestions.count == 1)
            }
            #expect(
                message.hasPrefix(
                    """
                    No registration for Storage.
                      Nothing is registered for Storage under any name or argument list.
                      Fix: SQLStorage registered at AssemblageTests/DiagnosticsDocTests.swift:
                    """))
            #expect(
                message.hasSuffix(
                    """
                     is a Storage, but it is registered as SQLStorage only: add `.implements(Storage.self)` to that \
                    registration, or register it as `register(Storage.self) { … }`.
                    """))
        }

        @Test func cycle() {
            var message = ""
            // assemblage-check: ignore-begin (the article shows the error this cycle gives)
            // snippet: diagnostics-cycle
            let container = Container()
            container.register(Chicken.self) { r in Chicken(egg: try r.require(Egg.self)) }
            container.register(Egg.self) { r in Egg(chicken: try r.require(Chicken.self)) }

            do {
                _ = try container.require(Chicken.self)
            } catch {
                print(error)
            }
            // end-snippet
            // assemblage-check: ignore-end
            do {
                _ = try container.require(Chicken.self)
            } catch {
                message = error.description
                #expect(error.code == .cycle)
            }
            #expect(
                message == """
                    Circular dependency: Chicken → Egg → Chicken.
                      Break it with initCompleted (property injection) or by resolving Lazy/Provider.
                    """)
        }

        @Test func validateAndExplain() throws {
            // snippet: diagnostics-validate
            let container = Container(label: "app")
            container.register(App.self) { r in App(repository: try r.require(Repository.self)) }
            container.register(Repository.self) { r in Repository(database: try r.require(Database.self)) }
            container.register(RequestContext.self) { _ in RequestContext() }.inObjectScope(.transient)
            container.register(ResponseCache.self) { r in
                ResponseCache(context: try r.require(RequestContext.self))
            }
            .inObjectScope(.container)

            let report = container.validate()
            print(report)
            // end-snippet
            #expect(!report.isValid)
            #expect(report.errors.map(\.kind) == [.missingRegistration])
            #expect(report.warnings.map(\.kind) == [.captiveDependency])
            let lines = report.description.split(separator: "\n").map(String.init)
            #expect(lines.first == "1 error, 1 warning, 0 notes (4 registrations checked)")
            #expect(
                lines.dropFirst().first?.hasPrefix("error: missing registration: No registration for Database.") == true
            )
            #expect(
                lines.last?.hasPrefix(
                    "warning: captive dependency: ResponseCache (container) holds RequestContext (transient)") == true)

            // snippet: diagnostics-report-details
            for issue in report.errors {
                print(issue.kind, issue.key?.description ?? "", issue.path.map(\.description))
                // missing registration Database ["App", "Repository", "Database"]
            }
            // end-snippet
            #expect(report.errors.first?.path.map(\.description) == ["App", "Repository", "Database"])

            container.register(Database.self) { _ in Database() }
            container.register(Database.self) { _ in Database() }.inObjectScope(.container)
            // snippet: diagnostics-explain
            print(container.explain(Database.self))
            // end-snippet
            let explanation = container.explain(Database.self)
            #expect(explanation.winningContainer == "app")
            #expect(explanation.scope == "container")
            #expect(explanation.replaced.count == 1)
            #expect(
                explanation.description.hasPrefix(
                    "Database\n  lookup: app (found in app)\n  registration: app at AssemblageTests/"))

            // snippet: diagnostics-graph
            let graph = container.validate().graph
            print(graph.mermaid)  // paste into Markdown that renders Mermaid
            print(graph.dot)  // Graphviz
            print(graph.json)  // for your own tools; keys sorted, stable for diffs
            // end-snippet
            #expect(graph.nodes.count == 5)
            #expect(graph.mermaid.hasPrefix("flowchart"))
            #expect(graph.dot.hasPrefix("digraph"))
        }

        @Test func samples() throws {
            let container = Container()
            container.register(ProfileViewModel.self) { (_, userID: Int) in ProfileViewModel(userID: userID) }
            // snippet: diagnostics-samples
            var options = ValidationOptions()
            options.sample { r in _ = try r.require(ProfileViewModel.self, argument: 42) }
            let report = container.validate(options)  // ProfileViewModel (arguments: Int) checked too
            // end-snippet
            #expect(report.isValid)
            #expect(report.issues(of: .notChecked).isEmpty)
            #expect(container.validate().issues(of: .notChecked).count == 1)
        }

        @Test func moduleValidation() throws {
            // snippet: diagnostics-module-validate
            let assembler = try ModuleAssembler([ReportsModule(), StorageModule()])
            let report = assembler.validate()
            print(report.errors.first?.message ?? "")
            // ReportsModule resolves Storage (ReportService → Storage), which only StorageModule registers, …
            // end-snippet
            #expect(report.errors.map(\.kind) == [.undeclaredDependency])
            #expect(
                report.errors.first?.message.hasSuffix("add StorageModule.self to ReportsModule.dependencies.") == true)
        }

        @Test func inATest() throws {
            let assembler = try ModuleAssembler([StorageModule()])
            // snippet: diagnostics-in-a-test
            let report = assembler.validate()
            #expect(report.isValid, "\(report)")
            // end-snippet
        }

        @Test func isolation() throws {
            // snippet: diagnostics-isolation
            let container = Container(label: "app")
            container.register(SessionStore.self) { _ in await SessionStore() }  // an async factory
            container.register(SessionReporter.self) { r in
                SessionReporter(store: try r.require(SessionStore.self))  // a synchronous path into it
            }

            let report = container.validate()
            print(report)
            // end-snippet
            let issue = try #require(report.issues(of: .isolation).first)
            #expect(issue.severity == .error)
            #expect(issue.path == [ServiceKey(SessionReporter.self), ServiceKey(SessionStore.self)])
            #expect(!report.isValid)
            #expect(
                report.description == """
                    1 error, 0 warnings, 1 note (1 registration checked)
                    error: isolation: SessionReporter resolves SessionStore synchronously (SessionReporter → \
                    SessionStore), but SessionStore has an async factory: that resolve always fails with requiresAsync. \
                    Make SessionReporter's factory async and use `try await r.resolveAsync(…)`.
                    note: not checked: SessionStore's factory is async, so validate() does not run it; \
                    validateAsync() does.
                    """)
        }
    }
}
