import AssemblageVapor
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import Vapor
import VaporTesting
import VaporTodoCore

/// Runs the configured app on 127.0.0.1 (an ephemeral port) until `body` returns, then stops it as `vapor-todo`
/// does: the server, then `asyncShutdown()`, which shuts the container down.
func serve<R>(
    _ recorder: RecordingDisposalObserver, _ body: (HTTPClient, Int) async throws -> R,
    connections: Int = 8
) async throws -> R {
    try await withApp { app in
        app.logger.logLevel = .critical
        try configure(app, observer: recorder)
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            guard let port = app.http.server.shared.localAddress?.port else { throw Abort(.internalServerError) }
            let result = try await body(client, port)
            try await client.shutdown()
            await app.server.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            await app.server.shutdown()
            throw error
        }
    }
}

struct Answer: Sendable {
    var status: UInt
    var headers: HTTPHeaders
    var body: String
}

func send(
    _ client: HTTPClient, port: Int, _ path: String, method: HTTPMethod = .GET, user: String?,
    requestID: String? = nil, json: String? = nil, timeout: TimeAmount = .seconds(30)
) async throws -> Answer {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
    request.method = method
    if let user { request.headers.add(name: "X-User", value: user) }
    if let requestID { request.headers.add(name: "X-Request-ID", value: requestID) }
    if let json {
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: json))
    }
    let response = try await client.execute(request, timeout: timeout)
    let body = try await response.body.collect(upTo: 1 << 20)
    return Answer(status: response.status.code, headers: response.headers, body: String(buffer: body))
}

@Suite struct VaporTodoTests {
    @Test func twoHundredConcurrentRequestsSeeOnlyTheirOwnUserAndRequestID() async throws {
        let recorder = RecordingDisposalObserver()
        let count = 200
        let start = ContinuousClock.now
        let answers = try await serve(
            recorder,
            { client, port in
                try await withThrowingTaskGroup(of: (Int, Answer).self) { tasks in
                    for index in 0..<count {
                        tasks.addTask {
                            (
                                index,
                                try await send(
                                    client, port: port, "/todos", method: .POST, user: "user-\(index)",
                                    requestID: "iso-\(index)", json: #"{"title":"t\#(index)"}"#)
                            )
                        }
                    }
                    return try await tasks.reduce(into: []) { $0.append($1) }
                }
            }, connections: count)
        let elapsed = start.duration(to: .now)
        for (index, answer) in answers {
            #expect(answer.status == 201)
            #expect(answer.headers.first(name: "X-Request-ID") == "iso-\(index)")
            #expect(answer.headers.first(name: "X-User") == "user-\(index)")
            #expect(answer.headers.first(name: "X-Served-For") == "user-\(index)")
            #expect(answer.body.contains(#""title":"t\#(index)""#))
        }
        let traces = recorder.disposals.filter { $0.hasPrefix("RequestTrace ") }
        #expect(traces.count == count)
        #expect(Set(traces) == Set((0..<count).map { "RequestTrace iso-\($0)" }))
        print(
            "[figure] vapor-todo: \(answers.count) concurrent requests, each its own user and request id; "
                + "\(traces.count) request traces disposed once each, in \(elapsed)")
    }

    @Test func aThousandRequestsAt32ConcurrencyHaveNoErrors() async throws {
        let recorder = RecordingDisposalObserver()
        let total = 1_000
        let concurrency = 32
        let start = ContinuousClock.now
        let failures = try await serve(
            recorder,
            { client, port in
                try await withThrowingTaskGroup(of: Int.self) { tasks in
                    var next = 0
                    var failures = 0
                    func add(_ index: Int) {
                        tasks.addTask {
                            let user = "user-\(index % 64)"
                            let answer =
                                index.isMultiple(of: 2)
                                ? try? await send(
                                    client, port: port, "/todos", method: .POST, user: user, requestID: "load-\(index)",
                                    json: #"{"title":"load \#(index)"}"#)
                                : try? await send(client, port: port, "/todos", user: user, requestID: "load-\(index)")
                            guard let answer, answer.status == (index.isMultiple(of: 2) ? 201 : 200),
                                answer.headers.first(name: "X-Served-For") == user,
                                answer.headers.first(name: "X-Request-ID") == "load-\(index)"
                            else { return 1 }
                            return 0
                        }
                    }
                    while next < concurrency {
                        add(next)
                        next += 1
                    }
                    while let failed = try await tasks.next() {
                        failures += failed
                        if next < total {
                            add(next)
                            next += 1
                        }
                    }
                    return failures
                }
            }, connections: concurrency)
        let elapsed = start.duration(to: .now)
        #expect(failures == 0)
        let traces = recorder.disposals.filter { $0.hasPrefix("RequestTrace ") }
        #expect(traces.count == total && Set(traces).count == total)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "[figure] vapor-todo: \(total) requests at concurrency \(concurrency): \(failures) errors, "
                + "\(traces.count) request scopes disposed once each, \(Int(Double(total) / seconds)) requests/s "
                + "(debug build, in \(elapsed))")
    }

    @Test func shutdownDisposesTheRequestsThenTheAuditLogThenTheStore() async throws {
        let recorder = RecordingDisposalObserver()
        let ids = (0..<6).map { "s-\($0)" }
        try await serve(recorder) { client, port in
            for id in ids {
                _ = try await send(
                    client, port: port, "/todos", method: .POST, user: "ada", requestID: id, json: #"{"title":"t"}"#)
            }
            #expect(recorder.disposals == ids.map { "RequestTrace \($0)" })
        }
        #expect(recorder.disposals == ids.map { "RequestTrace \($0)" } + ["AuditLog", "TodoStore"])
    }

    @Test func everyResponseCarriesTheRequestIDErrorsIncluded() async throws {
        let recorder = RecordingDisposalObserver()
        try await serve(recorder) { client, port in
            let cases: [(HTTPMethod, String, String?, String?, UInt)] = [
                (.GET, "/health", nil, nil, 200),
                (.GET, "/todos", nil, nil, 401),  // no user: refused before any route
                (.GET, "/todos", "not a user", nil, 400),
                (.POST, "/todos", "ada", #"{"title":""}"#, 400),  // the route throws
                (.POST, "/todos", "ada", "{", 400),  // the body does not decode
                (.GET, "/nowhere", nil, nil, 404),
            ]
            for (index, item) in cases.enumerated() {
                let answer = try await send(
                    client, port: port, item.1, method: item.0, user: item.2, requestID: "e-\(index)",
                    json: item.3)
                #expect(answer.status == item.4, "\(item)")
                #expect(answer.headers.first(name: "X-Request-ID") == "e-\(index)", "\(item)")
            }
            let generated = try await send(client, port: port, "/todos", user: nil)
            #expect(generated.headers.first(name: "X-Request-ID").flatMap(UUID.init(uuidString:)) != nil)
        }
        // Only the requests that got past the user check made a trace, each disposed once; nothing made the store.
        #expect(recorder.disposals == ["RequestTrace e-3", "RequestTrace e-4"])
    }

    @Test func usersSeeOnlyTheirOwnTodos() async throws {
        let recorder = RecordingDisposalObserver()
        try await serve(recorder) { client, port in
            _ = try await send(client, port: port, "/todos", method: .POST, user: "ada", json: #"{"title":"ada's"}"#)
            _ = try await send(
                client, port: port, "/todos", method: .POST, user: "grace", json: #"{"title":"grace's"}"#)
            let ada = try await send(client, port: port, "/todos", user: "ada")
            #expect(ada.body.contains("ada's") && !ada.body.contains("grace's"))
        }
    }
}
