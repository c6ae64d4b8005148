import Assemblage
import AssemblageProperties
import Foundation
import Testing

private struct APIClient: Sendable {
    let url: String
    let retries: Int
}

private struct ServerSettings: Decodable, Equatable {
    let host: String
    let port: Int
}

/// Records what the properties looked like when `loaded` ran.
private final class Seen: @unchecked Sendable {
    var url: String?
}

private struct ReadsPropertiesAssembly: Assembly {
    let seen: Seen
    func assemble(container: Container) {
        container.register(APIClient.self) { r in
            APIClient(url: r.property("url") ?? "none", retries: r.property("retries") ?? 0)
        }
    }
    func loaded(resolver: Resolver) {
        seen.url = resolver.property("url")
    }
}

@Suite struct ContainerPropertiesTests {
    let base = DictionaryPropertyLoader(["url": "https://api", "retries": 3, "server": ["host": "h", "port": 80]])

    @Test func factoriesReadProperties() throws {
        let container = Container()
        try container.applyPropertyLoader(base)
        container.register(APIClient.self) { r in
            APIClient(url: try r.requireProperty("url"), retries: r.property("retries") ?? 0)
        }
        let client = try container.require(APIClient.self)
        #expect(client.url == "https://api" && client.retries == 3)
    }

    @Test func laterLoaderWinsAndChildSeesParentUnlessOverridden() throws {
        let parent = Container()
        try parent.applyPropertyLoaders([base, DictionaryPropertyLoader(["retries": 5])])
        let child = Container(parent: parent)
        #expect(child.property("retries", as: Int.self) == 5)
        try child.applyPropertyLoader(DictionaryPropertyLoader(["url": "https://child"]))
        #expect(child.property("url", as: String.self) == "https://child")
        #expect(parent.property("url", as: String.self) == "https://api")
        #expect(child.property("retries", as: Int.self) == 5)
    }

    @Test func failedLoaderAppliesNothing() throws {
        let container = Container()
        try container.applyPropertyLoader(base)
        let missing = JSONPropertyLoader(url: URL(fileURLWithPath: "/nonexistent/settings.json"))
        #expect(throws: PropertyError.self) {
            try container.applyPropertyLoaders([DictionaryPropertyLoader(["url": "x"]), missing])
        }
        #expect(container.property("url", as: String.self) == "https://api")
    }

    @Test func requirePropertyNamesTheKeyAndTypes() {
        let container = Container()
        #expect(throws: PropertyError.self) { try container.requireProperty("absent", as: Int.self) }
        do {
            try container.applyPropertyLoader(base)
            _ = try container.requireProperty("url", as: Int.self)
            Issue.record("expected a type mismatch")
        } catch let error as PropertyError {
            #expect(error.code == .typeMismatch)
            #expect(error.description.contains("url"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func decodesAConfigurationStruct() throws {
        let container = Container()
        try container.applyPropertyLoader(base)
        #expect(
            try container.decodeProperties(ServerSettings.self, forKey: "server")
                == ServerSettings(host: "h", port: 80))
    }

    @Test func assemblerAppliesPropertiesBeforeAssembliesAndLoadedSeesThem() throws {
        let seen = Seen()
        let assembler = try Assembler([ReadsPropertiesAssembly(seen: seen)], propertyLoaders: [base])
        #expect(seen.url == "https://api")
        #expect(assembler.resolver.resolve(APIClient.self)?.retries == 3)
    }

    @Test func failingLoaderStopsTheAssemblerBeforeAnyAssembly() {
        let seen = Seen()
        let broken = JSONPropertyLoader(data: Data("{ \"url\": ".utf8), description: "broken.json")
        #expect(throws: PropertyError.self) {
            _ = try Assembler([ReadsPropertiesAssembly(seen: seen)], propertyLoaders: [broken])
        }
        #expect(seen.url == nil)
    }

    @Test func lazilyAppliedPropertiesAreSeenByLaterBatchesOnly() throws {
        let early = Seen()
        let late = Seen()
        let assembler = Assembler()
        assembler.apply(assembly: ReadsPropertiesAssembly(seen: early))
        try assembler.applyPropertyLoader(base)
        assembler.apply(assembly: ReadsPropertiesAssembly(seen: late))
        #expect(early.url == nil)
        #expect(late.url == "https://api")
    }

    @Test func seedSpellingsCompile() throws {
        let loader: JsonPropertyLoader = JsonPropertyLoader(
            data: Data("{ // comment\n \"a\": 1 }".utf8), description: "p.json")
        let assembler = try Assembler(assemblies: [ServiceAssembly()], propertyLoaders: [loader])
        #expect(assembler.resolver.property("a", as: Int.self) == 1)
    }
}
