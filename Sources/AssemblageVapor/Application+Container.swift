#if Vapor
public import Assemblage
public import Vapor

extension Application {
    /// The application's container (trait `Vapor`): made on first use, or the one you set, and shut down when
    /// the application shuts down — after the lifecycle handlers added after it, disposing what it made in
    /// reverse creation order.
    ///
    /// ```swift
    /// let app = try await Application.make(.detect())
    /// app.container.register(Database.self) { _ in try await Database.open() }.inObjectScope(.container)
    /// app.middleware.use(RequestScopeMiddleware())
    /// // app.asyncShutdown(): the requests are done, then the container disposes the database
    /// ```
    ///
    /// Set it before the application boots (once): a container set later replaces the one requests use, and the
    /// one it replaces is not shut down by the application.
    ///
    /// ```swift
    /// app.container = Container(label: "todo")   // a container made elsewhere, an assembler's, a test's
    /// ```
    public var container: Container {
        get {
            locks.lock(for: ContainerStorageKey.self).withLock {
                if let existing = storage[ContainerStorageKey.self] { return existing }
                let container = Container(label: "app")
                storage[ContainerStorageKey.self] = container
                lifecycle.use(ContainerLifecycleHandler())
                return container
            }
        }
        set {
            locks.lock(for: ContainerStorageKey.self).withLock {
                let first = storage[ContainerStorageKey.self] == nil
                storage[ContainerStorageKey.self] = newValue
                if first { lifecycle.use(ContainerLifecycleHandler()) }
            }
        }
    }
}

/// Shuts the application's container down when the application shuts down (trait `Vapor`): added by
/// ``Vapor/Application/container`` the first time it is read or set, so an app adds one itself only for a
/// container it keeps elsewhere.
///
/// Vapor shuts its lifecycle handlers down in reverse order, so the container is disposed after every handler
/// added after it. `app.asyncShutdown()` awaits asynchronous disposers; the synchronous `app.shutdown()` disposes
/// what it can synchronously and logs the rest. Disposal failures are logged at error level.
///
/// ```swift
/// app.lifecycle.use(ContainerLifecycleHandler(container))   // a container not kept in app.container
/// ```
public struct ContainerLifecycleHandler: LifecycleHandler {
    private let fixed: Container?

    /// A handler that shuts down ``Vapor/Application/container``, read at shutdown.
    public init() { fixed = nil }

    /// A handler that shuts down `container`.
    ///
    /// - Parameter container: The container.
    public init(_ container: Container) { fixed = container }

    /// Shuts the container down, awaiting asynchronous disposers; failures are logged.
    ///
    /// - Parameter application: The application shutting down.
    public func shutdownAsync(_ application: Application) async {
        guard let container = container(of: application) else { return }
        do {
            try await container.shutdown()
        } catch {
            application.logger.error(
                "Disposing the container's instances failed",
                metadata: [
                    "container": "\(container.label)", "error": "\(error)",
                ])
        }
    }

    /// Shuts the container down synchronously (Vapor's synchronous `shutdown()`); an instance that can only be
    /// disposed asynchronously is logged as not disposed.
    ///
    /// - Parameter application: The application shutting down.
    public func shutdown(_ application: Application) {
        guard let container = container(of: application) else { return }
        do {
            try container.shutdownSynchronously()
        } catch {
            application.logger.error(
                "Disposing the container's instances failed",
                metadata: [
                    "container": "\(container.label)", "error": "\(error)",
                ])
        }
    }

    private func container(of application: Application) -> Container? {
        fixed ?? application.storage[Application.ContainerStorageKey.self]
    }
}

extension Application {
    /// The storage key, for the lifecycle handler.
    enum ContainerStorageKey: StorageKey, LockKey {
        typealias Value = Container
    }
}
#endif
