import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServerCore

/// The API end to end, over a real port on loopback.
@Suite struct TodoAPITests {
    @Test func crudWorksEndToEnd() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let created = try await client.send(.post, "/todos", user: "ada", json: #"{"title":"  Write the report "}"#)
            #expect(created.status == .created)
            let todo = try created.decode(Todo.self)
            #expect(todo.title == "Write the report" && todo.owner == "ada" && !todo.completed)
            #expect(created.headers[.location] == "/todos/\(todo.id)")

            let second = try await client.send(
                .post, "/todos", user: "ada", json: #"{"title":"Ship","completed":true}"#)
            #expect(try second.decode(Todo.self).completed)

            let list = try await client.send(.get, "/todos", user: "ada")
            #expect(list.status == .ok)
            #expect(try list.decode([Todo].self).map(\.title) == ["Write the report", "Ship"])

            let fetched = try await client.send(.get, "/todos/\(todo.id)", user: "ada")
            #expect(try fetched.decode(Todo.self) == todo)

            let patched = try await client.send(.patch, "/todos/\(todo.id)", user: "ada", json: #"{"completed":true}"#)
            #expect(patched.status == .ok)
            #expect(
                try patched.decode(Todo.self)
                    == Todo(
                        id: todo.id, owner: "ada", title: "Write the report",
                        completed: true))
            let renamed = try await client.send(.patch, "/todos/\(todo.id)", user: "ada", json: #"{"title":"Report"}"#)
            #expect(try renamed.decode(Todo.self).completed, "a patch without `completed` keeps it")

            let deleted = try await client.send(.delete, "/todos/\(todo.id)", user: "ada")
            #expect(deleted.status == .noContent)
            #expect(try await client.send(.get, "/todos/\(todo.id)", user: "ada").status == .notFound)
            #expect(try await client.send(.delete, "/todos/\(todo.id)", user: "ada").status == .notFound)
            #expect(try await client.send(.get, "/todos", user: "ada").decode([Todo].self).map(\.title) == ["Ship"])
        }
    }

    @Test func usersSeeOnlyTheirOwnTodos() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let todo = try await client.send(.post, "/todos", user: "ada", json: #"{"title":"Ada's"}"#).decode(
                Todo.self)
            _ = try await client.send(.post, "/todos", user: "bob", json: #"{"title":"Bob's"}"#)

            #expect(try await client.send(.get, "/todos", user: "bob").decode([Todo].self).map(\.owner) == ["bob"])
            #expect(try await client.send(.get, "/todos/\(todo.id)", user: "bob").status == .notFound)
            #expect(
                try await client.send(.patch, "/todos/\(todo.id)", user: "bob", json: #"{"title":"Mine"}"#)
                    .status == .notFound)
            #expect(try await client.send(.delete, "/todos/\(todo.id)", user: "bob").status == .notFound)
            #expect(try await client.send(.get, "/todos/\(todo.id)", user: "ada").decode(Todo.self).title == "Ada's")
        }
    }

    @Test func missingOrMalformedUserIsRejected() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let anonymous = try await client.send(.get, "/todos", user: nil, requestID: "r-anonymous")
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.text.contains("X-User"))
            #expect(anonymous.headers[.requestID] == "r-anonymous", "errors echo the request id too")
            #expect(anonymous.headers[.servedFor] == nil)

            let malformed = try await client.send(.get, "/todos", user: "ada lovelace")
            #expect(malformed.status == .badRequest)
            #expect(try await client.send(.get, "/health", user: nil).text == "ok")
        }
        #expect(
            server.recorder.disposals == ["AuditLog", "SQLiteConnectionPool"],
            "a rejected request opens no scope")
    }

    @Test func requestIDIsEchoedOrGenerated() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            let sent = try await client.send(.get, "/todos", user: "ada", requestID: "trace-42")
            #expect(sent.headers[.requestID] == "trace-42")
            #expect(sent.headers[.user] == "ada" && sent.headers[.servedFor] == "ada")

            let first = try #require(try await client.send(.get, "/todos", user: "ada").headers[.requestID])
            let second = try #require(try await client.send(.get, "/todos", user: "ada").headers[.requestID])
            #expect(UUID(uuidString: first) != nil && UUID(uuidString: second) != nil && first != second)

            let unusable = try await client.send(.get, "/todos", user: "ada", requestID: "has spaces")
            #expect(unusable.headers[.requestID].flatMap(UUID.init(uuidString:)) != nil, "replaced by a new id")
        }
    }

    @Test func invalidBodiesAndIdentifiersAreRejected() async throws {
        let server = try TestServer()
        defer { server.removeFiles() }
        try await server.live { client in
            // (Raw string literals inside #expect confuse the macro's expansion: the bodies are made first.)
            let bodies = [
                #"{"title":"   "}"#, #"{"title":"#, #"{"done":true}"#,
                #"{"title":""# + String(repeating: "x", count: 501) + #""}"#,
            ]
            for body in bodies {
                let response = try await client.send(.post, "/todos", user: "ada", json: body)
                #expect(response.status == .badRequest, "\(body.prefix(40))")
            }
            #expect(try await client.send(.get, "/todos/abc", user: "ada").status == .badRequest)
            #expect(
                try await client.send(.get, "/todos", user: "ada").decode([Todo].self).isEmpty,
                "nothing was stored")
        }
    }
}
