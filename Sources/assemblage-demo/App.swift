import Assemblage
import Foundation

// A small app: services, managers that depend on them, and a logger configured when the container is ready.

protocol LogHandler: Sendable {
    var label: String { get }
    func write(_ line: String)
}

/// Prints log lines to standard output, indented under the demo's sections.
struct ConsoleLogHandler: LogHandler {
    let label = "console"
    func write(_ line: String) { print("    [log] \(line)") }
}

/// Keeps log lines in memory (a stand-in for a file).
final class MemoryLogHandler: LogHandler, @unchecked Sendable {
    let label = "memory"
    private let lock = NSLock()
    private var storage: [String] = []
    func write(_ line: String) { lock.withLock { storage.append(line) } }
    var lines: [String] { lock.withLock { storage } }
}

/// Prefixes each line with the time; applied to every handler by a decorator.
struct TimestampedLogHandler: LogHandler {
    let inner: LogHandler
    let clock: Clock
    var label: String { inner.label }
    func write(_ line: String) { inner.write("\(clock.now()) \(line)") }
}

/// The app's logger; it receives every contributed handler as a collection.
final class AppLogger: Sendable {
    private let handlers: [LogHandler]
    init(handlers: [LogHandler]) { self.handlers = handlers }
    var handlerLabels: [String] { handlers.map(\.label) }
    func log(_ message: String) {
        for handler in handlers { handler.write(message) }
    }
}

protocol Clock: Sendable { func now() -> String }
struct FixedClock: Clock { func now() -> String { "2026-11-22T09:00:00Z" } }

protocol HTTPClient: Sendable { func get(_ path: String) -> String }
struct FakeHTTPClient: HTTPClient {
    let baseURL: String
    func get(_ path: String) -> String { "200 OK \(baseURL)\(path)" }
}

protocol UserService: Sendable { func user(id: Int) -> String }
struct RemoteUserService: UserService {
    let http: HTTPClient
    func user(id: Int) -> String { "user \(id) (\(http.get("/users/\(id)")))" }
}

protocol OrderService: Sendable { func orders(for user: Int) -> [String] }
struct RemoteOrderService: OrderService {
    let http: HTTPClient
    func orders(for user: Int) -> [String] { ["#\(user)01", "#\(user)02"] }
}

final class UserManager: Sendable {
    let users: UserService
    let logger: AppLogger
    let greeting: String
    init(users: UserService, logger: AppLogger, greeting: String) {
        self.users = users
        self.logger = logger
        self.greeting = greeting
    }
    func greet(id: Int) -> String {
        logger.log("greeting user \(id)")
        return "\(greeting), \(users.user(id: id))"
    }
}

final class OrderManager: Sendable {
    let orders: OrderService
    let clock: Clock
    init(orders: OrderService, clock: Clock) {
        self.orders = orders
        self.clock = clock
    }
    func summary(for user: Int) -> String { "\(orders.orders(for: user).count) orders at \(clock.now())" }
}

/// The server section of the settings, decoded whole.
struct ServerSettings: Decodable, Sendable {
    let host: String
    let port: Int
}

/// A screen-level object made with a runtime argument.
final class ProfileViewModel: Sendable {
    let userID: Int
    let manager: UserManager
    init(userID: Int, manager: UserManager) {
        self.userID = userID
        self.manager = manager
    }
}
