import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServerCore

/// What an API user expects of HTTP, over a real port on 127.0.0.1: 405 with `Allow`, a request id on every
/// response, a JSON body on every error, 415 for a body that is not JSON, 400 naming a field of the wrong kind.
@Suite struct HTTPBehaviourTests {
    @Test func aWrongMethodOnAKnownPathIs405WithAllow() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            for (method, path, allow) in [
                (HTTPRequest.Method.put, "/todos/7", "GET, HEAD, PATCH, DELETE"),
                (.delete, "/todos", "GET, HEAD, POST"),
                (.post, "/health", "GET, HEAD"),
            ] {
                let response = try await client.send(method, path, user: "ada", requestID: "r-405")
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(response.headers[.requestID] == "r-405")
                #expect(response.errorMessage?.contains(method.rawValue) == true, "\(response.text)")
            }
            let unknown = try await client.send(.get, "/nothing/here", user: "ada")
            #expect(unknown.status == .notFound && unknown.headers[.allow] == nil)
            #expect(unknown.errorMessage?.contains("/nothing/here") == true, "\(unknown.text)")
        }
    }

    /// The router's routes and ``APIRoutes`` (what `Allow` lists) agree: every listed method of every path is
    /// routed, and every other method is 405 with the path's `Allow`.
    @Test func everyPathServesExactlyTheMethodsItsAllowHeaderLists() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let todo = try await client.send(.post, "/todos", user: "ada", json: #"{"title":"t"}"#).decode(Todo.self)
            let methods: [HTTPRequest.Method] = [
                .get, .head, .post, .put, .patch, .options, .delete,
                HTTPRequest.Method("PURGE")!,
            ]
            for route in APIRoutes.all {
                let path = route.path.replacingOccurrences(of: ":id", with: "\(todo.id)")
                let allow = route.methods.map(\.rawValue).joined(separator: ", ")
                for method in methods {  // DELETE is last but one: the todo exists for every other method
                    let body = method == .post ? #"{"title":"t"}"# : method == .patch ? "{}" : nil
                    let response = try await client.send(method, path, user: "ada", json: body)
                    if route.methods.contains(method) {
                        #expect(response.status.code < 300, "\(method) \(path): \(response.status) \(response.text)")
                    } else {
                        #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                        #expect(response.headers[.allow] == allow, "\(method) \(path)")
                    }
                }
            }
        }
    }

    @Test func everyResponseHasTheRequestIDAndEveryErrorAJSONMessage() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let big = #"{"title":""# + String(repeating: "x", count: 64 * 1024) + #""}"#
            let cases:
                [(
                    name: String, method: HTTPRequest.Method, path: String, user: String?, body: String?,
                    type: String?, status: HTTPResponse.Status
                )] = [
                    ("health", .get, "/health", nil, nil, nil, .ok),
                    ("created", .post, "/todos", "ada", #"{"title":"t"}"#, "application/json", .created),
                    ("unknown path", .get, "/nope", nil, nil, nil, .notFound),
                    ("wrong method", .put, "/todos", "ada", nil, nil, .methodNotAllowed),
                    ("no user", .get, "/todos", nil, nil, nil, .unauthorized),
                    ("malformed user", .get, "/todos", "a b", nil, nil, .badRequest),
                    ("no such todo", .get, "/todos/999", "ada", nil, nil, .notFound),
                    ("bad id", .get, "/todos/abc", "ada", nil, nil, .badRequest),
                    ("not JSON", .post, "/todos", "ada", "title=t", "text/plain", .unsupportedMediaType),
                    ("wrong shape", .post, "/todos", "ada", "[]", "application/json", .badRequest),
                    ("too large", .post, "/todos", "ada", big, "application/json", .contentTooLarge),
                ]
            for (index, item) in cases.enumerated() {
                let id = "r-\(index)"
                let response = try await client.send(
                    item.method, item.path, user: item.user, requestID: id,
                    body: item.body, contentType: item.type)
                #expect(response.status == item.status, "\(item.name): \(response.text)")
                #expect(response.headers[.requestID] == id, "\(item.name)")
                if item.status.code >= 400 {
                    let message = response.errorMessage
                    #expect(message?.isEmpty == false, "\(item.name): a JSON error message, got \(response.text)")
                }
            }
            // Without X-Request-ID, each response gets a new one, errors too.
            let unnamed = try await client.send(.get, "/nope", user: nil)
            #expect(unnamed.headers[.requestID].flatMap(UUID.init(uuidString:)) != nil)
        }
    }

    @Test func aBodyThatIsNotJSONIs415() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let todo = try await client.send(.post, "/todos", user: "ada", json: #"{"title":"t"}"#).decode(Todo.self)
            for type in ["text/plain", "application/x-www-form-urlencoded", "application/xml"] {
                let posted = try await client.send(
                    .post, "/todos", user: "ada", body: #"{"title":"u"}"#,
                    contentType: type)
                #expect(posted.status == .unsupportedMediaType, "\(type)")
                #expect(posted.errorMessage?.contains("application/json") == true, "\(posted.text)")
                let patched = try await client.send(
                    .patch, "/todos/\(todo.id)", user: "ada", body: #"{"title":"u"}"#,
                    contentType: type)
                #expect(patched.status == .unsupportedMediaType, "\(type)")
            }
            // JSON with parameters, a +json type, or no Content-Type at all is read as JSON.
            for type in ["application/json; charset=utf-8", "application/merge-patch+json", nil] {
                let response = try await client.send(
                    .patch, "/todos/\(todo.id)", user: "ada", body: #"{"title":"v"}"#,
                    contentType: type)
                #expect(response.status == .ok, "\(type ?? "none")")
            }
            #expect(
                try await client.send(.get, "/todos", user: "ada").decode([Todo].self).map(\.title) == ["v"],
                "nothing refused was stored")
        }
    }

    @Test func aJSONValueOfTheWrongShapeIs400NamingTheField() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let todo = try await client.send(.post, "/todos", user: "ada", json: #"{"title":"t"}"#).decode(Todo.self)
            let cases: [(method: HTTPRequest.Method, path: String, body: String, says: [String])] = [
                (.post, "/todos", "[]", ["JSON object", "an array"]),
                (.post, "/todos", #"["title"]"#, ["JSON object", "an array"]),
                (.post, "/todos", "null", ["JSON object", "null"]),
                (.post, "/todos", #"{"title": 5}"#, [#""title""#, "a string", "a number"]),
                (.post, "/todos", #"{"title": null}"#, [#""title""#, "a string", "null"]),
                (
                    .post, "/todos", #"{"title": "x", "completed": "yes"}"#,
                    [#""completed""#, "true or false", "a string"]
                ),
                (.post, "/todos", #"{"completed": true}"#, [#"no "title""#, "a string"]),
                (.post, "/todos", #"{"title": "#, ["not valid JSON"]),
                (.post, "/todos", " ", ["empty"]),
                (.patch, "/todos/\(todo.id)", #"{"completed": 1}"#, [#""completed""#, "true or false", "a number"]),
                (.patch, "/todos/\(todo.id)", #"{"title": {"text": "x"}}"#, [#""title""#, "a string", "an object"]),
            ]
            for item in cases {
                let response = try await client.send(item.method, item.path, user: "ada", json: item.body)
                #expect(response.status == .badRequest, "\(item.body)")
                let message = response.errorMessage ?? "no JSON message: \(response.text)"
                for part in item.says {
                    #expect(message.contains(part), "\(item.body) → \(message)")
                }
            }
            #expect(try await client.send(.get, "/todos/\(todo.id)", user: "ada").decode(Todo.self) == todo)
        }
    }
}
