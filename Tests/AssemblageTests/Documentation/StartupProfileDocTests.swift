import Assemblage
import Foundation
import Testing

// The code of the "Startup Profile" article, compiled and run (see GettingStartedDocTests.swift).

enum StartupProfileDoc {
    // snippet: profile-types
    final class Database: Sendable {
        init() { Thread.sleep(forTimeInterval: 0.01) }  // opens a connection
    }

    final class Repository: Sendable {
        let database: Database
        init(database: Database) { self.database = database }
    }

    final class Server: Sendable {
        let repository: Repository
        init(repository: Repository) { self.repository = repository }
    }

    static func makeApp() -> Container {
        let app = Container(label: "app")
        app.register(Database.self) { _ in Database() }.inObjectScope(.container)
        app.register(Repository.self) { r in Repository(database: r.resolve(Database.self)!) }
            .inObjectScope(.container)
        app.register(Server.self) { r in Server(repository: r.resolve(Repository.self)!) }
            .inObjectScope(.container)
        return app
    }
    // end-snippet
}

@Suite struct StartupProfileDocTests {
    @Test func recordingAStart() throws {
        let makeApp = StartupProfileDoc.makeApp
        typealias Server = StartupProfileDoc.Server
        typealias Database = StartupProfileDoc.Database
        // snippet: profile-record
        var app: Container!
        let profile = try StartupProfile.record {
            app = makeApp()
            _ = try app.require(Server.self)
        }
        print(profile.text)
        // end-snippet
        let database = try #require(
            profile.instances.first {
                $0.registration.serviceType == Database.self && $0.container == "app"
            })
        #expect(database.durationNanoseconds >= 10_000_000)
        #expect(app.resolve(Server.self) != nil)

        // snippet: profile-instances
        for instance in profile.instances where instance.selfNanoseconds > 5_000_000 {
            let parent = instance.parent.map { profile.instances[$0].registration.description } ?? "a resolve"
            print(
                "\(instance.registration) took \(instance.selfNanoseconds / 1_000_000) ms itself,",
                "made for \(parent), registered at \(instance.site), on thread \(instance.thread)")
        }
        // end-snippet
    }

    @Test func writingTheRenderings() throws {
        let makeApp = StartupProfileDoc.makeApp
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doc-profile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = StartupProfile.record { _ = makeApp().resolve(StartupProfileDoc.Server.self) }
        // snippet: profile-write
        try profile.write(to: folder)  // all three, in a folder
        try profile.write(to: folder.appendingPathComponent("start.svg"))  // one, by its extension
        let trace = profile.chromeTraceJSON  // or the text itself
        // end-snippet
        #expect(!trace.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("start.svg").path))

        // snippet: profile-write-error
        do throws(ContainerError) {
            try profile.write(to: URL(fileURLWithPath: "/dev/null/profile"))
        } catch {
            print(error.code)  // profileNotWritten
        }
        // end-snippet
        #expect(throws: ContainerError.self) { try profile.write(to: URL(fileURLWithPath: "/dev/null/profile")) }
    }

    @Test func recordingAnAsyncStart() async throws {
        let makeApp = StartupProfileDoc.makeApp
        typealias Server = StartupProfileDoc.Server
        // snippet: profile-record-async
        let profile = try await StartupProfile.record {
            let app = makeApp()
            _ = try await app.resolveAsync(Server.self)
        }
        // end-snippet
        #expect(profile.instances.contains { $0.registration.serviceType == StartupProfileDoc.Server.self })
    }
}
