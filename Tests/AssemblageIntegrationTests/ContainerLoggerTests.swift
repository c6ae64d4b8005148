#if Logging
import Assemblage
import Foundation
import Logging
import Testing

/// Keeps what is logged through it.
private final class LogRecorder: @unchecked Sendable {  // @unchecked: `lines` is guarded by `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

private struct RecordingHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { recorder.append("\(event.level): \(event.message)") }
}

private final class Connection: Disposable, Sendable {
    func dispose() throws {}
}

private final class Broken: Disposable, Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String { "already closed" } }
    func dispose() throws { throw Failure() }
}

@Suite struct ContainerLoggerTests {
    private func logger(_ recorder: LogRecorder) -> Logger {
        Logger(label: "test") { _ in RecordingHandler(recorder: recorder) }
    }

    @Test func logsWhatTheContainerMakesAndDisposes() async throws {
        let recorder = LogRecorder()
        let container = Container(behaviors: [ContainerLogger(logger(recorder))], label: "app")
        container.register(Connection.self) { _ in Connection() }.inObjectScope(.container)
        container.register(Broken.self) { _ in Broken() }.inObjectScope(.scoped)
        _ = try container.require(Connection.self)
        await #expect(throws: DisposalError.self) {
            try await container.withScope(label: "request") { _ = try $0.require(Broken.self) }
        }
        try await container.shutdown()
        let lines = recorder.all
        #expect(
            lines.contains("trace: registered Connection at AssemblageIntegrationTests/ContainerLoggerTests.swift:43"))
        #expect(lines.contains("debug: made Connection (container) in container \"app\""))
        #expect(lines.contains { $0.hasPrefix("error: disposing Broken (scope \"request\") failed") })
        #expect(lines.contains("warning: scope \"request\" ended, 1 instance disposed, 1 failed"))
        #expect(lines.contains("debug: disposed Connection (container \"app\")"))
    }
}
#endif
