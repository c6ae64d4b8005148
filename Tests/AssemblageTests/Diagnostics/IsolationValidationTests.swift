import Assemblage
import Testing

private actor DatabaseConnection {
    let url: String
    init(url: String) async { self.url = url }
}

@MainActor private final class ScreenModel {
    init() {}
}

private final class Repository2: Sendable {
    init(_ value: Any? = nil) {}
}

@Suite struct IsolationValidationTests {
    @Test func synchronousPathIntoAnAsyncFactoryIsAnError() throws {
        let container = Container()
        container.register(DatabaseConnection.self) { _ async throws in await DatabaseConnection(url: "db") }
        container.register(Repository2.self) { r in Repository2(try r.require(DatabaseConnection.self)) }
        let report = container.validate()
        let issue = try #require(report.issues(of: .isolation).first)
        #expect(issue.severity == .error)
        #expect(issue.key == ServiceKey(DatabaseConnection.self))
        #expect(issue.path.map(\.description) == ["Repository2", "DatabaseConnection"])
        #expect(issue.message.contains("Repository2 resolves DatabaseConnection synchronously"))
        #expect(report.issues(of: .resolutionFailed).isEmpty)  // reported once, as isolation
        #expect(!report.isValid)
    }

    @Test func synchronousPathIntoAMainActorFactoryIsAWarning() throws {
        let container = Container()
        container.register(ScreenModel.self, mainActorFactory: { _ in ScreenModel() })
        container.register(Repository2.self) { r in Repository2(r.resolve(ScreenModel.self)) }
        let report = container.validate()
        let issue = try #require(report.issues(of: .isolation).first)
        #expect(issue.severity == .warning)
        #expect(issue.message.contains("isolated to the main actor"))
    }

    @Test func isolatedRegistrationsAtTopLevelAreNotRunAndSaySo() {
        let container = Container()
        container.register(DatabaseConnection.self) { _ async throws in await DatabaseConnection(url: "db") }
        container.register(ScreenModel.self, mainActorFactory: { _ in ScreenModel() })
        let report = container.validate()
        #expect(report.isValid)
        #expect(report.issues(of: .isolation).isEmpty)
        #expect(report.issues(of: .notChecked).count == 2)
        #expect(report.issues(of: .notChecked).allSatisfy { $0.severity == .note })
    }

    @Test func mainActorToMainActorIsFine() {
        let container = Container()
        container.register(ScreenModel.self, mainActorFactory: { _ in ScreenModel() })
        container.register(Repository2.self, mainActorFactory: { r in Repository2(try r.require(ScreenModel.self)) })
        #expect(container.validate().issues(of: .isolation).isEmpty)
    }
}
