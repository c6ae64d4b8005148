import Assemblage
import AssemblageTesting
import Testing
import XCTest

// The code of the "Testing" and "Diagnostics" articles that uses AssemblageTesting, compiled and run (see
// Tests/AssemblageTests/Documentation/GettingStartedDocTests.swift). At file scope, so that XCTest finds the
// XCTestCase on every platform.

// snippet: testing-library-app
protocol UserService: Sendable {
    func name(of userID: Int) -> String
}

struct DirectoryUserService: UserService {
    func name(of userID: Int) -> String { "user \(userID)" }
}

struct StubUserService: UserService {
    let name: String
    func name(of userID: Int) -> String { name }
}

final class ProfileModel: Sendable {
    let title: String
    init(users: UserService) { title = users.name(of: 42) }
}

final class GreetingCard: Sendable {
    let text: String
    init(users: UserService, userID: Int) { text = "Happy birthday, \(users.name(of: userID))!" }
}

/// The app's registrations, made once.
enum AppContainer {
    static let shared: Container = {
        let container = Container(label: "app")
        container.register(UserService.self) { _ in DirectoryUserService() }.inObjectScope(.container)
        container.register(ProfileModel.self) { r in ProfileModel(users: try r.require(UserService.self)) }
        container.register(GreetingCard.self) { (r, userID: Int) in
            GreetingCard(users: try r.require(UserService.self), userID: userID)
        }
        return container
    }()
}

/// Code that resolves from the root container.
struct ProfileScreen: Sendable {
    @Injected var model: ProfileModel
}
// end-snippet

// snippet: testing-library-trait
@Suite(.testContainer(base: AppContainer.shared))
struct ProfileTests {
    @Test func showsTheStubbedUser() throws {
        Container.root.register(UserService.self) { _ in StubUserService(name: "Ada") }
        let model = try Container.root.require(ProfileModel.self)
        #expect(model.title == "Ada")
    }

    @Test func seesTheAppRegistrationsAndNotOtherTestsStubs() throws {
        #expect(try Container.root.require(ProfileModel.self).title == "user 42")
    }

    @Test(.testContainer { $0.register(UserService.self) { _ in StubUserService(name: "Grace") } })
    func registersItsStubsInTheTrait() {
        let screen = ProfileScreen()  // @Injected var model: ProfileModel
        #expect(screen.model.title == "Grace")
    }
}
// end-snippet

// snippet: testing-library-xctest
final class ProfileXCTests: XCTestCase {
    func testShowsTheStubbedUser() throws {
        try withTestContainer(base: AppContainer.shared) { container in
            container.register(UserService.self) { _ in StubUserService(name: "Ada") }
            XCTAssertEqual(try Container.root.require(ProfileModel.self).title, "Ada")
        }
    }

    func testAppGraphIsValid() {
        var options = ValidationOptions()
        options.sample { r in _ = try r.require(GreetingCard.self, argument: 7) }
        assertValidGraph(AppContainer.shared, options: options)
    }
}
// end-snippet

@Suite("Docs: Testing library") struct TestingLibraryDocSamples {
    // snippet: testing-library-assert-valid
    @Test func appGraphIsValid() {
        assertValidGraph(AppContainer.shared)  // fails the test with the whole report
    }

    @Test func appGraphHasNoWarningsEither() {
        var options = ValidationOptions()
        options.sample { r in _ = try r.require(GreetingCard.self, argument: 7) }  // a sample argument
        assertValidGraph(AppContainer.shared, options: options, failOnWarnings: true)
    }
    // end-snippet

    @Test func withoutTheSampleTheArgumentRegistrationIsAWarning() {
        let report = AppContainer.shared.validate()
        #expect(report.isValid)
        #expect(report.warnings.map(\.kind) == [.notChecked])
        let failures = _GraphAssertionCapture.messages {
            assertValidGraph(AppContainer.shared, failOnWarnings: true)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.contains("GreetingCard (arguments: Int)") == true)
    }

    @Test func assertValidGraphReportsAnInvalidGraph() {
        let failures = _GraphAssertionCapture.messages {
            // snippet: diagnostics-assert-valid-graph
            let assembler = Assembler([ReportsAssembly()])  // forgot the storage assembly
            assertValidGraph(assembler)
            // end-snippet
        }
        #expect(failures.count == 1)
        #expect(
            failures.first?.hasPrefix(
                """
                The object graph is not valid:
                1 error, 0 warnings, 0 notes (1 registration checked)
                error: missing registration: No registration for Storage.
                  Resolution path: ReportService → Storage
                """) == true)
    }
}

protocol Storage: Sendable {}

final class ReportService: Sendable {
    init(storage: Storage) {}
}

/// Broken on purpose: the Diagnostics article's example of a graph that `assertValidGraph` rejects.
struct ReportsAssembly: Assembly {
    func assemble(container: Container) {
        // assemblage-check: ignore-begin (no assembly registers Storage, on purpose)
        container.register(ReportService.self) { r in ReportService(storage: try r.require(Storage.self)) }
        // assemblage-check: ignore-end
    }
}
