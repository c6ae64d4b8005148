import Assemblage
import Testing

// The code of the catalog's landing page (Assemblage.docc/Assemblage.md), compiled and run
// (see GettingStartedDocTests.swift).

enum LandingPageDoc {
    protocol HTTPClient: Sendable {}
    struct URLSessionHTTPClient: HTTPClient {}

    final class UserService: Sendable {
        let http: HTTPClient
        init(http: HTTPClient) { self.http = http }
    }

    @Suite("Docs: landing page") struct Samples {
        @Test func quickLook() throws {
            // snippet: landing-quick-look
            let container = Container()
            container.register(HTTPClient.self) { _ in URLSessionHTTPClient() }.inObjectScope(.container)
            container.register(UserService.self) { r in UserService(http: try r.require(HTTPClient.self)) }

            let users = try container.require(UserService.self)  // or container.resolve(UserService.self)
            // end-snippet
            #expect(users.http is URLSessionHTTPClient)
        }
    }
}
