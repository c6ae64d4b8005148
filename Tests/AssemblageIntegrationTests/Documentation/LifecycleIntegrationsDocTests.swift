#if ServiceLifecycle
import Assemblage
import Logging
import ServiceLifecycle
import Testing

// The code of the "Opt-in Integrations" article's logging and lifecycle sections, compiled and run with the
// `ServiceLifecycle` trait (which enables `Logging`).

enum LifecycleDoc {
    final class ConnectionPool: AsyncDisposable, Sendable {
        func dispose() async throws {}
    }

    // snippet: integrations-lifecycle-server
    /// A long-running part of the app: an HTTP server, a job runner, an outbox relay.
    struct JobRunner: Service {
        let pool: ConnectionPool
        func run() async throws {
            try? await gracefulShutdown()  // work until SIGTERM
        }
    }
    // end-snippet

    @Suite("Docs: Opt-in Integrations (lifecycle)") struct Samples {
        @Test func serviceGroupShutsTheContainerDownLast() async throws {
            // snippet: integrations-logging
            var logger = Logger(label: "app.di")
            logger.logLevel = .debug
            let container = Container(behaviors: [ContainerLogger(logger)], label: "app")
            DisposalError.logUnhandledFailures(to: logger)
            // debug: made ConnectionPool (container) in container "app"
            // debug: scope "request 42" ended, 3 instances disposed
            // debug: disposed ConnectionPool (container "app")
            // end-snippet
            container.register(ConnectionPool.self) { _ in ConnectionPool() }.inObjectScope(.container)
            container.register(JobRunner.self) { r in JobRunner(pool: try r.require(ConnectionPool.self)) }
            // snippet: integrations-lifecycle-group
            let group = try await container.serviceGroup(
                running: [JobRunner.self],  // resolved now; they stop in reverse order
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger)
            // try await group.run(): on SIGTERM the runner stops, then the container is shut down
            // end-snippet
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await Task.sleep(for: .milliseconds(20))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }
}
#endif
