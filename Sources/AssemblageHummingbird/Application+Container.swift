#if Hummingbird
public import Assemblage
public import Hummingbird
public import Logging
public import ServiceLifecycle

@available(macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0, *)
extension Application {
    /// Puts the container's shutdown in the application's `ServiceGroup`: a ``ContainerService`` first among the
    /// application's services, so that it stops last — after the HTTP server has drained its requests and after
    /// every other service — and then disposes what the container made, in reverse creation order
    /// (trait `Hummingbird`).
    ///
    /// ```swift
    /// var app = Application(router: router)
    /// app.addContainer(container)
    /// try await app.runService()   // SIGTERM: the server drains, the services stop, the container is disposed
    /// ```
    ///
    /// It works with HummingbirdTesting as it does in production: `app.test(.router)`, `.live` and `.ahc` run
    /// the application's services, so the container is shut down when the test's closure has returned.
    ///
    /// - Parameters:
    ///   - container: The application's container.
    ///   - logger: Where disposal failures are logged; the application's logger when `nil`.
    public mutating func addContainer(_ container: Container, logger: Logger? = nil) {
        services.insert(ContainerService(container, logger: logger ?? self.logger), at: 0)
    }

    /// Puts the container's shutdown and services it resolves in the application's `ServiceGroup`: the
    /// ``ContainerService`` first, then `services` in order, before the application's other services. The
    /// group stops them in reverse order, so the container is disposed once they have all stopped.
    ///
    /// ```swift
    /// var app = Application(router: router)
    /// try await app.addContainer(container, running: [OutboxRelay.self])
    /// ```
    ///
    /// - Parameters:
    ///   - container: The application's container.
    ///   - services: Service types the container resolves (with `resolveAsync`), in start order.
    ///   - logger: Where disposal failures are logged; the application's logger when `nil`.
    /// - Throws: `ResolutionError` when a service cannot be resolved; nothing was added then.
    public mutating func addContainer(
        _ container: Container, running services: [any Service.Type],
        logger: Logger? = nil
    ) async throws(ResolutionError) {
        var added: [any Service] = [ContainerService(container, logger: logger ?? self.logger)]
        for type in services {
            added.append(try await Self.resolveService(type, from: container))
        }
        self.services.insert(contentsOf: added, at: 0)
    }

    private static func resolveService<S: Service>(_ type: S.Type, from container: Container)
        async throws(ResolutionError) -> any Service
    {
        try await container.resolveAsync(S.self)
    }
}
#endif
