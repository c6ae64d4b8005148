#if ServiceLifecycle
public import Logging
public import ServiceLifecycle
public import UnixSignals

/// A swift-service-lifecycle `Service` that owns a container's lifetime: it runs until graceful shutdown and then
/// shuts the container down, disposing what it made in reverse creation order (trait `ServiceLifecycle`).
///
/// A `ServiceGroup` shuts its services down in reverse order, so put the container's service first: the services
/// that use the container (the HTTP server, the job runners) stop before it disposes what they used.
///
/// ```swift
/// let group = ServiceGroup(
///     services: [ContainerService(container), httpServer],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger)
/// try await group.run()   // on SIGTERM: the server drains, then the pool closes
/// ```
///
/// ``Container/serviceGroup(running:gracefulShutdownSignals:logger:)`` builds that group from services the
/// container resolves.
public struct ContainerService: Service, CustomStringConvertible {
    /// The container shut down at graceful shutdown.
    public let container: Container
    /// Where disposal failures are logged (at error level), so that they are seen beside the error of a sibling
    /// service that failed first — the one a `ServiceGroup` rethrows.
    public let logger: Logger?

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - container: The container to shut down.
    ///   - logger: Where disposal failures are logged; pass the group's logger.
    public init(_ container: Container, logger: Logger? = nil) {
        self.container = container
        self.logger = logger
    }

    /// `ContainerService("app")`.
    public var description: String { "ContainerService(\"\(container.label)\")" }

    /// Waits for graceful shutdown (or cancellation), then shuts the container down.
    ///
    /// When a sibling service failed, the group cancels this one: the container is shut down all the same, and
    /// its disposers run to completion (``Container/shutdown()`` does not inherit the cancellation), so a
    /// connection pool's cancellation-aware close still closes. The group then rethrows the sibling's error;
    /// disposal failures are logged.
    ///
    /// - Throws: ``DisposalError`` when a disposer failed.
    public func run() async throws {
        // Cancellation (the group was cancelled, not drained) ends the wait too: the container is still disposed.
        try? await gracefulShutdown()
        do {
            try await container.shutdown()
        } catch {
            logger?.error(
                "Disposing the container's instances failed",
                metadata: [
                    "container": "\(container.label)", "error": "\(error)",
                ])
            throw error
        }
    }
}

extension Container {
    /// A `ServiceGroup` running `services` — types this container resolves, each a `Service` — after a
    /// ``ContainerService`` that shuts the container down once they have stopped.
    ///
    /// ```swift
    /// let group = try await container.serviceGroup(
    ///     running: [HTTPServer.self, OutboxRelay.self],
    ///     gracefulShutdownSignals: [.sigterm, .sigint],
    ///     logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// - Parameters:
    ///   - services: The service types, resolved (with `resolveAsync`) in this order; they stop in reverse order.
    ///   - gracefulShutdownSignals: The signals that start graceful shutdown.
    ///   - logger: The group's logger.
    /// - Returns: The group, not yet running.
    /// - Throws: ``ResolutionError`` when a service cannot be resolved.
    public func serviceGroup(
        running services: [any Service.Type],
        gracefulShutdownSignals: [UnixSignal] = [],
        logger: Logger
    ) async throws(ResolutionError) -> ServiceGroup {
        var resolved: [any Service] = [ContainerService(self, logger: logger)]
        for type in services {
            resolved.append(try await resolveService(type))
        }
        return ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: resolved, gracefulShutdownSignals: gracefulShutdownSignals, logger: logger))
    }

    private func resolveService<S: Service>(_ type: S.Type) async throws(ResolutionError) -> any Service {
        try await resolveAsync(S.self)
    }
}
#endif
