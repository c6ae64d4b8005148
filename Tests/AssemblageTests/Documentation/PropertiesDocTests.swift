import Assemblage
import AssemblageProperties
import Foundation
import Testing

// The code of the "Properties" article, compiled and run (see GettingStartedDocTests.swift).

enum PropertiesDoc {
    // snippet: properties-json
    static let settings = """
        {
            // Comments are allowed, outside strings.
            "api": { "baseURL": "https://api.example.com", "retries": 3 },
            "timeout": 2.5,
            "features": ["search", "sync"]
        }
        """
    // end-snippet

    // snippet: properties-client
    final class APIClient {
        let baseURL: String
        let retries: Int
        let timeout: Double
        init(baseURL: String, retries: Int, timeout: Double) {
            self.baseURL = baseURL
            self.retries = retries
            self.timeout = timeout
        }
    }

    struct APISettings: Decodable {
        let baseURL: String
        let retries: Int
    }
    // end-snippet

    /// Reads the app's settings from its bundle; compiled here, not run (the test bundle has no such file).
    static func loadFromTheAppBundle(_ container: Container) throws {
        // snippet: properties-bundle
        try container.applyPropertyLoaders([
            JSONPropertyLoader(bundle: .main, name: "settings"),  // settings.json in the app's bundle
            EnvironmentPropertyLoader(prefix: "MYAPP_"),  // MYAPP_API_RETRIES=5 wins over api.retries
        ])
        // end-snippet
    }

    // snippet: properties-source-type
    /// Values kept outside the app, asked for one key at a time (a secrets store, a remote service).
    struct SecretsSource: PropertySource {
        var secrets: [String: String]
        var sourceDescription: String { "secrets store" }

        func value(atKeyPath keyPath: [String], as kind: PropertyValueKind) throws -> PropertyValue? {
            secrets[keyPath.joined(separator: ".")].map(PropertyValue.string)
        }
    }
    // end-snippet

    @Suite("Docs: Properties") struct Samples {
        @Test func loadAndRead() throws {
            // snippet: properties-apply
            let container = Container()
            try container.applyPropertyLoader(
                JSONPropertyLoader(data: Data(settings.utf8), description: "settings.json"))

            container.register(APIClient.self) { r in
                let api = try r.decodeProperties(APISettings.self, forKey: "api")
                return APIClient(
                    baseURL: api.baseURL, retries: api.retries,
                    timeout: r.property("timeout") ?? 10)
            }
            let client = try container.require(APIClient.self)  // https://api.example.com, 3, 2.5
            // end-snippet
            #expect(client.baseURL == "https://api.example.com")
            #expect(client.retries == 3)
            #expect(client.timeout == 2.5)

            // snippet: properties-read
            let timeout = container.property("timeout", as: Double.self)  // 2.5
            let features: [String]? = container.property("features")  // ["search", "sync"]
            let wrongType = container.property("timeout", as: Bool.self)  // nil: a number is not a Bool
            do {
                _ = try container.requireProperty("port", as: Int.self)
            } catch {
                print(error)  // Missing key in properties from settings.json (key "port"): …
            }
            // end-snippet
            #expect(timeout == 2.5)
            #expect(features == ["search", "sync"])
            #expect(wrongType == nil)
            do {
                _ = try container.requireProperty("port", as: Int.self)
                Issue.record("expected an error")
            } catch let error as PropertyError {
                #expect(error.code == .missingKey)
                #expect(error.description.hasPrefix("Missing key in properties from settings.json (key \"port\")"))
            }
        }

        @Test func reading() throws {
            let container = Container()
            try container.applyPropertyLoader(
                JSONPropertyLoader(data: Data(settings.utf8), description: "settings.json"))
            #expect(container.property("timeout", as: Double.self) == 2.5)
            #expect(container.property("features", as: [String].self) == ["search", "sync"])
            #expect(container.property("timeout", as: Bool.self) == nil)
            #expect(throws: PropertyError.self) { try container.requireProperty("port", as: Int.self) }
            do {
                _ = try container.requireProperty("port", as: Int.self)
            } catch let error as PropertyError {
                #expect(error.code == .missingKey)
            }
        }

        @Test func mergeAndFailures() throws {
            let container = Container()
            // snippet: properties-merge
            try container.applyPropertyLoader(
                JSONPropertyLoader(data: Data(settings.utf8), description: "settings.json"))
            try container.applyPropertyLoader(DictionaryPropertyLoader(["timeout": 5], description: "overrides"))
            // timeout is now 5; "api" and "features" are still the file's

            let broken = JSONPropertyLoader(data: Data(#"{"timeout": 1,}"#.utf8), description: "broken.json")
            do {
                try container.applyPropertyLoader(broken)  // fails: nothing is merged
            } catch {
                print(error)  // Malformed JSON in broken.json at line 1, column 15: …
            }
            // end-snippet
            #expect(container.property("timeout", as: Int.self) == 5)
            #expect(container.property("api", as: [String: PropertyValue].self) != nil)
            do {
                try container.applyPropertyLoader(broken)
                Issue.record("expected an error")
            } catch let error as PropertyError {
                #expect(error.code == .malformedFile)
                #expect(error.description.hasPrefix("Malformed JSON in broken.json at line 1, column 15"))
            }
        }

        @Test func childSeesParent() throws {
            let app = Container()
            try app.applyPropertyLoader(JSONPropertyLoader(data: Data(settings.utf8), description: "settings.json"))
            // snippet: properties-child
            let screen = Container(parent: app)
            try screen.applyPropertyLoader(DictionaryPropertyLoader(["timeout": 30]))
            // screen sees timeout 30 and the app's "api"; app still sees timeout 2.5
            // end-snippet
            #expect(screen.property("timeout", as: Int.self) == 30)
            #expect(screen.property("api", as: [String: PropertyValue].self) != nil)
            #expect(app.property("timeout", as: Double.self) == 2.5)
        }

        @Test func environmentOverridesNestedValues() throws {
            // snippet: properties-environment
            let container = Container()
            try container.applyPropertyLoaders([
                JSONPropertyLoader(data: Data(settings.utf8), description: "settings.json"),
                EnvironmentPropertyLoader(
                    prefix: "MYAPP_",
                    environment: [
                        "MYAPP_API_RETRIES": "5",  // api.retries
                        "MYAPP_TIMEOUT": "10",  // timeout
                    ]),
            ])
            let retries = container.property("api.retries", as: Int.self)  // 5
            let api = try container.decodeProperties(APISettings.self, forKey: "api")
            // api.baseURL is still the file's; api.retries is 5
            // end-snippet
            #expect(retries == 5)
            #expect(api.baseURL == "https://api.example.com")
            #expect(api.retries == 5)
            #expect(container.property("timeout", as: Int.self) == 10)

            // snippet: properties-environment-names
            let keyPaths = ["API_BASEURL", "DB__POOL_SIZE", "DB_POOL__SIZE", "SERVER_"]
                .map(EnvironmentPropertyLoader.keyPath(forVariableName:))
            // ["api.baseurl", "db_pool.size", "db.pool_size", nil]: a single _ separates, __ keeps one _
            // end-snippet
            #expect(keyPaths == ["api.baseurl", "db_pool.size", "db.pool_size", nil])

            let clash = EnvironmentPropertyLoader(
                prefix: "MYAPP_", environment: ["MYAPP_API": "x", "MYAPP_API_RETRIES": "1"])
            let error = try #require(throws: PropertyError.self) { try container.applyPropertyLoader(clash) }
            #expect(error.code == .conflictingKeys)
            #expect(
                error.description.hasPrefix(
                    #"Conflicting keys in environment variables with prefix "MYAPP_" (key "api"): MYAPP_API sets a value"#
                ))
        }

        @Test func sourcesAskedKeyByKey() throws {
            // snippet: properties-source
            let container = Container()
            try container.applyPropertyLoader(
                JSONPropertyLoader(data: Data(settings.utf8), description: "settings.json"))
            container.addPropertySource(SecretsSource(secrets: ["api.token": "s3cr3t", "timeout": "5"]))

            container.register(String.self, name: "token") { r in try r.requireProperty("api.token") }
            let token = try container.require(String.self, name: "token")  // from the source
            let timeout = container.property("timeout", as: Double.self)  // 5: the source was added later
            // end-snippet
            #expect(token == "s3cr3t")
            #expect(timeout == 5)
            #expect(container.property("api.retries", as: Int.self) == 3)
        }

        @Test func libraryLandingPageReadsAPropertyInAFactory() throws {
            struct APIClient { let url: String }
            // snippet: properties-landing
            let container = Container()
            try container.applyPropertyLoader(DictionaryPropertyLoader(["api": ["url": "https://example.com"]]))
            container.register(APIClient.self) { r in APIClient(url: try r.requireProperty("api.url")) }
            // end-snippet
            #expect(try container.require(APIClient.self).url == "https://example.com")
        }

        @Test func bundleLoaderIsTypedWhenTheFileIsMissing() {
            #expect(throws: PropertyError.self) { try PropertiesDoc.loadFromTheAppBundle(Container()) }
        }
    }
}
