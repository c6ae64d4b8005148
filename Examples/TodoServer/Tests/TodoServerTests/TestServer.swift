import Assemblage
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat
import Synchronization
import TodoServerCore

/// What the container itself reports disposing (Assemblage's `ContainerObserver` hook), in order: a test-only
/// recorder, beside the application's own ``RecordingDisposalObserver``.
final class ContainerDisposalRecorder: Behavior, ContainerObserver {
    struct Disposal: Equatable, CustomStringConvertible {
        let type: String
        let owner: String
        var description: String { "\(type) by \(owner)" }
    }

    private let recorded = Mutex<(disposals: [Disposal], scopes: [String: Int])>(([], [:]))

    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {}

    func instanceDisposed(_ key: ServiceKey, owner: String) {
        let type = "\(key.serviceType)".split(separator: ".").last.map(String.init) ?? "\(key.serviceType)"
        recorded.withLock { $0.disposals.append(Disposal(type: type, owner: owner)) }
    }

    func scopeEnded(_ label: String, disposed: Int, failures: Int) {
        recorded.withLock { $0.scopes["\(label): \(disposed) disposed, \(failures) failed", default: 0] += 1 }
    }

    /// Every disposal, in order.
    var disposals: [Disposal] { recorded.withLock { $0.disposals } }
    /// The container's own disposals (not a scope's), in order.
    var containerDisposals: [Disposal] { disposals.filter { $0.owner.hasPrefix("container") } }
    /// How many scopes ended, by label and counts.
    var scopesEnded: [String: Int] { recorded.withLock { $0.scopes } }
}

/// A todo server for one test: a fresh database in a temporary folder, port 0 on loopback, and a recorder of
/// every disposal in place of the logging observer.
struct TestServer {
    let folder: URL
    let configuration: TodoServerConfiguration
    let recorder = RecordingDisposalObserver()
    let containerRecorder = ContainerDisposalRecorder()
    let server: TodoServerApplication

    init(poolSize: Int = 4) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        configuration = TodoServerConfiguration(
            host: "127.0.0.1", port: 0,
            databasePath: folder.appendingPathComponent("todos.sqlite").path,
            poolSize: poolSize)
        var logger = Logger(label: "todo-server-test")
        logger.logLevel = .warning
        let recorder = recorder
        let containerRecorder = containerRecorder
        server = TodoServerApplication(configuration: configuration, logger: logger) { container in
            container.register((any DisposalObserver).self) { _ in recorder }.inObjectScope(.container)
            container.addBehavior(containerRecorder)
        }
    }

    var container: Container { server.container }

    /// Runs the server live (a real port on loopback, HummingbirdTesting's `.live` mode) for `body`; when this
    /// returns, the server has shut down gracefully and the container has been shut down.
    func live<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = try await server.makeApplication()
        return try await app.test(.live, body)
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: folder)
    }
}

extension TestClientProtocol {
    /// Sends a request as `user` (no `X-User` when `nil`), with a JSON body when one is given.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, user: String?, requestID: String? = nil,
        json: String? = nil
    ) async throws -> TestResponse {
        try await send(
            method, uri, user: user, requestID: requestID, body: json,
            contentType: json == nil ? nil : "application/json")
    }

    /// Sends a request with a body of any content type (none when `contentType` is `nil`).
    func send(
        _ method: HTTPRequest.Method, _ uri: String, user: String?, requestID: String? = nil,
        body: String?, contentType: String?
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let user { headers[.user] = user }
        if let requestID { headers[.requestID] = requestID }
        if let contentType { headers[.contentType] = contentType }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    var text: String { String(buffer: body) }

    /// The message of a JSON error body, `{"error": {"message": "…"}}`, or `nil` when the body is not one.
    var errorMessage: String? {
        struct ErrorBody: Decodable {
            struct Detail: Decodable { let message: String }
            let error: Detail
        }
        guard headers[.contentType]?.hasPrefix("application/json") == true else { return nil }
        return try? decode(ErrorBody.self).error.message
    }
}
