#if Configuration
import Assemblage
import AssemblageProperties
import Configuration
import Foundation
import Testing

// The code of the "Opt-in Integrations" article, compiled and run with the `Configuration` package trait (see
// GettingStartedDocTests.swift in AssemblageTests for how article code is checked).

enum IntegrationsDoc {
    // snippet: integrations-config-types
    struct HTTPSettings: Decodable {
        var host: String
        var port: Int
        var maxConnections: Int  // HTTP_MAX_CONNECTIONS in the environment
        var allowedOrigins: [String]  // a comma-separated list there
    }

    final class HTTPServer {
        let settings: HTTPSettings
        init(settings: HTTPSettings) { self.settings = settings }
    }
    // end-snippet

    @Suite("Docs: Opt-in Integrations") struct Samples {
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        @Test func configReaderReachesFactories() throws {
            // snippet: integrations-config-reader
            let reader = ConfigReader(providers: [
                EnvironmentVariablesProvider(environmentVariables: [  // the process environment in an app
                    "HTTP_PORT": "9090",
                    "HTTP_ALLOWED_ORIGINS": "https://a.example,https://b.example",
                ]),
                InMemoryProvider(values: [  // defaults, last: the lowest precedence
                    "http.host": "0.0.0.0", "http.port": 8080, "http.maxConnections": 512,
                ]),
            ])
            let container = Container()
            container.addPropertySource(reader)

            container.register(HTTPServer.self) { r in
                HTTPServer(settings: try r.decodeProperties(HTTPSettings.self, forKey: "http"))
            }
            let server = try container.require(HTTPServer.self)
            // host 0.0.0.0 and 512 connections from the defaults, port 9090 and two origins from the environment
            // end-snippet
            #expect(server.settings.host == "0.0.0.0")
            #expect(server.settings.port == 9090)
            #expect(server.settings.maxConnections == 512)
            #expect(server.settings.allowedOrigins == ["https://a.example", "https://b.example"])
        }

        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        @Test func configReaderOverAssemblageLoaders() throws {
            // snippet: integrations-config-layers
            let container = Container()
            try container.applyPropertyLoader(
                DictionaryPropertyLoader(
                    ["http": ["host": "localhost", "port": 8080, "maxConnections": 64, "allowedOrigins": []]],
                    description: "built-in defaults"))
            container.addPropertySource(
                ConfigReaderPropertySource(
                    ConfigReader(
                        provider: EnvironmentVariablesProvider(environmentVariables: ["HTTP_PORT": "eighty"])),
                    description: "environment"))

            let host = container.property("http.host", as: String.self)  // "localhost": the reader has none
            do {
                _ = try container.requireProperty("http.port", as: Int.self)
            } catch {
                print(error)  // Type mismatch in environment (key "http.port"): expected Int, found a string …
            }
            // end-snippet
            #expect(host == "localhost")
            let error = try #require(throws: PropertyError.self) {
                try container.requireProperty("http.port", as: Int.self)
            }
            #expect(
                error.description == #"Type mismatch in environment (key "http.port"): expected Int, "#
                    + "found a string that does not convert to it")
        }
    }
}
#endif
