import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A bounded HTTP load generator for a todo server on this machine.
///
/// Sends a fixed number of requests, `concurrency` at a time, half `POST /todos` and half `GET /todos`, each with
/// its own `X-Request-ID` and an `X-User` among `users` users, and checks every response for isolation: the status
/// is a success, the response echoes the request id and the user that were sent, the server's `TodoService` was
/// made for that user (`X-Served-For`), and every todo in the body belongs to that user. It stops by itself: each
/// request has a 30 s timeout, and once ``LoadTestOptions/timeLimit`` has passed the requests not yet sent are
/// counted as errors instead of sent.
///
/// ```swift
/// let report = try await LoadTest.run(LoadTestOptions(port: 8080, requests: 1_000, concurrency: 32))
/// print(report)
/// ```
public enum LoadTest {
    /// Runs the load and reports what it measured.
    ///
    /// - Parameter options: Where to send the load and how much.
    /// - Returns: The counts, the wall time and the latency percentiles.
    /// - Throws: Only when the HTTP client cannot shut down; request failures are counted in the report.
    public static func run(_ options: LoadTestOptions) async throws -> LoadTestReport {
        precondition(options.requests >= 1 && options.concurrency >= 1, "Send at least one request, one at a time.")
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(30),
            concurrentHTTP1ConnectionsPerHostSoftLimit: options.concurrency)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await withTaskGroup(of: [Outcome].self) { group in
            for worker in 0..<min(options.concurrency, options.requests) {
                group.addTask {
                    var outcomes: [Outcome] = []
                    var index = worker
                    while index < options.requests {
                        if start.duration(to: clock.now) > options.timeLimit {
                            outcomes.append(
                                Outcome(
                                    latency: .zero,
                                    failure: "request \(index): not sent, time limit "
                                        + "of \(options.timeLimit) reached", isolationViolation: false))
                        } else {
                            outcomes.append(await send(index, client: client, options: options))
                        }
                        index += options.concurrency
                    }
                    return outcomes
                }
            }
            var all: [Outcome] = []
            for await part in group { all += part }
            return all
        }
        let wallTime = start.duration(to: clock.now)
        try await client.shutdown()
        return LoadTestReport(options: options, outcomes: outcomes, wallTime: wallTime)
    }

    struct Outcome: Sendable {
        var latency: Duration
        var failure: String?
        var isolationViolation: Bool
    }

    private struct Item: Decodable {
        var id: Int
        var owner: String
        var title: String
    }

    private static func send(_ index: Int, client: HTTPClient, options: LoadTestOptions) async -> Outcome {
        let user = "user-\(index % options.users)"
        let requestID = "\(options.requestIDPrefix)-\(index)"
        let creates = index % 2 == 0
        var request = HTTPClientRequest(url: "http://\(options.host):\(options.port)/todos")
        request.headers.add(name: "X-User", value: user)
        request.headers.add(name: "X-Request-ID", value: requestID)
        if creates {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"title":"load \#(index)"}"#))
        }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
            let latency = start.duration(to: clock.now)
            let expectedStatus: HTTPResponseStatus = creates ? .created : .ok
            guard response.status == expectedStatus else {
                return Outcome(
                    latency: latency, failure: "request \(index): status \(response.status.code)",
                    isolationViolation: false)
            }
            var problems: [String] = []
            let echoedID = response.headers.first(name: "X-Request-ID")
            if echoedID != requestID { problems.append("X-Request-ID \(echoedID ?? "none") != \(requestID)") }
            let echoedUser = response.headers.first(name: "X-User")
            if echoedUser != user { problems.append("X-User \(echoedUser ?? "none") != \(user)") }
            let servedFor = response.headers.first(name: "X-Served-For")
            if servedFor != user { problems.append("X-Served-For \(servedFor ?? "none") != \(user)") }
            let decoder = JSONDecoder()
            if creates {
                let item = try decoder.decode(Item.self, from: Data(buffer: body))
                if item.owner != user || item.title != "load \(index)" {
                    problems.append("created \(item.owner)/\(item.title), expected \(user)/load \(index)")
                }
            } else {
                let items = try decoder.decode([Item].self, from: Data(buffer: body))
                if let foreign = items.first(where: { $0.owner != user }) {
                    problems.append("list for \(user) holds \(foreign.owner)'s todo \(foreign.id)")
                }
            }
            return Outcome(
                latency: latency,
                failure: problems.isEmpty ? nil : "request \(index): " + problems.joined(separator: "; "),
                isolationViolation: !problems.isEmpty)
        } catch {
            return Outcome(
                latency: start.duration(to: clock.now), failure: "request \(index): \(error)",
                isolationViolation: false)
        }
    }
}

/// Where to send the load and how much.
///
/// ```swift
/// LoadTestOptions(port: 8080, requests: 1_000, concurrency: 32, users: 64)
/// ```
public struct LoadTestOptions: Sendable {
    /// The server's address; loopback only in this project's tests.
    public var host: String
    /// The server's port.
    public var port: Int
    /// How many requests in all.
    public var requests: Int
    /// How many requests are in flight at once (also the number of pooled connections).
    public var concurrency: Int
    /// How many distinct `X-User` values, used round robin.
    public var users: Int
    /// The start of every `X-Request-ID` sent (`PREFIX-INDEX`).
    public var requestIDPrefix: String
    /// After this long, no further request is sent (each one not sent counts as an error).
    public var timeLimit: Duration

    /// Creates options.
    ///
    /// - Parameters:
    ///   - host: The server's address.
    ///   - port: The server's port.
    ///   - requests: How many requests in all.
    ///   - concurrency: How many at once.
    ///   - users: How many distinct users.
    ///   - requestIDPrefix: The start of every request id sent.
    ///   - timeLimit: After this long, no further request is sent.
    public init(
        host: String = "127.0.0.1", port: Int, requests: Int = 1_000, concurrency: Int = 32,
        users: Int = 64, requestIDPrefix: String = "load", timeLimit: Duration = .seconds(120)
    ) {
        self.host = host
        self.port = port
        self.requests = requests
        self.concurrency = concurrency
        self.users = max(1, users)
        self.requestIDPrefix = requestIDPrefix
        self.timeLimit = timeLimit
    }
}

/// What a load run measured.
///
/// ```swift
/// let report = try await LoadTest.run(options)
/// #expect(report.errors == 0 && report.isolationViolations == 0)
/// ```
public struct LoadTestReport: Sendable, CustomStringConvertible {
    /// The options of the run.
    public let options: LoadTestOptions
    /// Requests that completed with the expected status and isolated values.
    public let succeeded: Int
    /// Requests that failed: a transport error, an unexpected status or an isolation violation.
    public let errors: Int
    /// Responses whose request id, user, service user or body belonged to another request.
    public let isolationViolations: Int
    /// The first failures, for the log (at most 10).
    public let firstFailures: [String]
    /// From the first request sent to the last response read.
    public let wallTime: Duration
    /// Median latency.
    public let p50: Duration
    /// 99th percentile latency (nearest rank).
    public let p99: Duration
    /// Slowest request.
    public let maximum: Duration

    init(options: LoadTestOptions, outcomes: [LoadTest.Outcome], wallTime: Duration) {
        self.options = options
        let failures = outcomes.compactMap(\.failure)
        self.errors = failures.count
        self.succeeded = outcomes.count - failures.count
        self.isolationViolations = outcomes.filter(\.isolationViolation).count
        self.firstFailures = Array(failures.prefix(10))
        self.wallTime = wallTime
        let sorted = outcomes.map(\.latency).sorted()
        func rank(_ fraction: Double) -> Duration {
            guard !sorted.isEmpty else { return .zero }
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        self.p50 = rank(0.50)
        self.p99 = rank(0.99)
        self.maximum = sorted.last ?? .zero
    }

    /// Requests per second over the wall time.
    public var requestsPerSecond: Double {
        Double(succeeded + errors) / max(wallTime.seconds, 1e-9)
    }

    /// The figures, one per line.
    public var description: String {
        """
        requests:     \(succeeded + errors) (\(succeeded) ok)
        concurrency:  \(options.concurrency)
        users:        \(options.users)
        errors:       \(errors)
        isolation:    \(isolationViolations) violations
        wall time:    \(String(format: "%.3f", wallTime.seconds)) s
        requests/s:   \(String(format: "%.0f", requestsPerSecond))
        latency p50:  \(String(format: "%.2f", p50.seconds * 1_000)) ms
        latency p99:  \(String(format: "%.2f", p99.seconds * 1_000)) ms
        latency max:  \(String(format: "%.2f", maximum.seconds * 1_000)) ms
        """ + (firstFailures.isEmpty ? "" : "\nfirst failures:\n  " + firstFailures.joined(separator: "\n  "))
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
