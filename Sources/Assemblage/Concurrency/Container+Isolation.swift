// Registering main-actor and async factories, and reading every registration's isolation.

extension Container {
    // MARK: Main-actor factories

    /// Registers a service whose factory is isolated to the main actor: a view model, a UI controller.
    ///
    /// The factory may call `@MainActor` initialisers and touch main-actor state directly, without warnings
    /// and without `MainActor.assumeIsolated`. Resolving the service:
    /// - on the main actor (the main thread), `resolve`/`require` run the factory synchronously, as usual;
    /// - anywhere, `try await resolver.resolveAsync(…)` hops to the main actor to run it;
    /// - synchronously from any other thread, `require` throws ``ResolutionError`` with code
    ///   ``ResolutionError/Code/requiresMainActor`` (and `resolve` returns `nil`) — never a crash.
    ///
    /// Scopes, names, `initCompleted` and `implements` work as for any registration; a `.container`
    /// instance is made once, on the main actor.
    ///
    /// ```swift
    /// @MainActor final class ProfileViewModel {
    ///     init(users: UserService) { … }
    /// }
    ///
    /// container.register(ProfileViewModel.self, mainActorFactory: { r in
    ///     ProfileViewModel(users: try r.require(UserService.self))
    /// })
    ///
    /// @MainActor func showProfile() throws {
    ///     let model = try container.require(ProfileViewModel.self)        // synchronous on the main actor
    /// }
    /// func prefetch() async throws {
    ///     let model = try await container.resolveAsync(ProfileViewModel.self)   // hops to the main actor
    /// }
    /// ```
    ///
    /// The label `mainActorFactory:` is the one proposed for Swinject (not part of Swinject 2.10.0); a trailing
    /// closure marked `{ @MainActor r in … }` selects this form too.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the factory when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - mainActorFactory: Makes the service on the main actor from a resolver.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types; its
    ///   ``ServiceEntry/isolation`` is ``ServiceIsolation/mainActor``.
    @discardableResult
    public func register<Service>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        mainActorFactory: @escaping @MainActor @Sendable (any Resolver) throws -> Service
    ) -> ServiceEntry<Service> {
        register(
            Service.self, name: name, file: file, line: line, box: _MainActorFactoryBox<Service>(mainActorFactory),
            kind: .mainActor)
    }

    /// Registers a main-actor factory that takes runtime arguments.
    ///
    /// Resolves as the form without arguments does, with the arguments given to `resolve`, `require` or
    /// `resolveAsync`.
    ///
    /// ```swift
    /// container.register(ProfileViewModel.self, mainActorFactory: { (r, userID: Int) in
    ///     ProfileViewModel(userID: userID, users: try r.require(UserService.self))
    /// })
    /// let model = try await container.resolveAsync(ProfileViewModel.self, argument: 42)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the factory when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - mainActorFactory: Makes the service on the main actor from a resolver and the arguments.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @discardableResult
    public func register<Service, each Arg>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        mainActorFactory: @escaping @MainActor @Sendable (any Resolver, repeat each Arg) throws -> Service
    ) -> ServiceEntry<Service> {
        register(
            Service.self, name: name, arguments: repeat (each Arg).self, file: file, line: line,
            box: _MainActorFactoryBox<Service, repeat each Arg>(mainActorFactory), kind: .mainActor)
    }

    // MARK: Async factories

    /// Registers a service whose construction awaits: an actor, a database connection, anything with an
    /// `async` initialiser.
    ///
    /// A factory that contains `await` selects this form by itself. Resolve the service with
    /// `try await resolver.resolveAsync(…)`, from anywhere; a synchronous `require` throws
    /// ``ResolutionError`` with code ``ResolutionError/Code/requiresAsync`` (and `resolve` returns `nil`).
    ///
    /// ```swift
    /// actor SessionStore {
    ///     init(database: Database) async throws { … }
    /// }
    ///
    /// container.register(Database.self) { _ in try await Database.open(path: "app.sqlite") }
    ///     .inObjectScope(.container)
    /// container.register(SessionStore.self) { r in
    ///     try await SessionStore(database: try await r.resolveAsync(Database.self))
    /// }
    ///
    /// let store = try await container.resolveAsync(SessionStore.self)
    /// ```
    ///
    /// Scopes behave as for synchronous factories, adapted to tasks:
    /// - `.container` and `.singleton`: made once, even when many tasks ask at the same moment; the others
    ///   await the same creation without blocking a thread. A creation that fails is not kept: the next
    ///   request runs the factory again.
    /// - `.graph` (the default): one instance per top-level `resolveAsync` (shared by every nested resolve
    ///   inside it, including its child tasks).
    /// - `.transient`, `.weak` and custom scopes as usual.
    ///
    /// An async factory that awaits itself, directly or through others (even through other tasks waiting on
    /// the same creations), fails with ``ResolutionError/Code/cycle`` instead of hanging. `initCompleted`
    /// steps run synchronously after the factory returns.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the factory when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - factory: Makes the service from a resolver; may await and throw.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types; its
    ///   ``ServiceEntry/isolation`` is ``ServiceIsolation/async``.
    @discardableResult
    public func register<Service>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) -> ServiceEntry<Service> {
        register(
            Service.self, name: name, file: file, line: line, box: _AsyncFactoryBox<Service>(factory), kind: .async)
    }

    /// Registers an `async` factory that takes runtime arguments.
    ///
    /// ```swift
    /// container.register(Connection.self) { (_, url: URL) in try await Connection.open(url) }
    /// let connection = try await container.resolveAsync(Connection.self, argument: url)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the factory when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - factory: Makes the service from a resolver and the arguments; may await and throw.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @discardableResult
    public func register<Service, each Arg>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Arg) async throws -> Service
    ) -> ServiceEntry<Service> {
        register(
            Service.self, name: name, arguments: repeat (each Arg).self, file: file, line: line,
            box: _AsyncFactoryBox<Service, repeat each Arg>(factory), kind: .async)
    }

    // MARK: Reading isolation

    /// The isolation of the registration that resolving `serviceType` (with `name`, no arguments) would use,
    /// here or in a fallback container.
    ///
    /// ```swift
    /// container.register(ProfileViewModel.self, mainActorFactory: { _ in ProfileViewModel() })
    /// container.isolation(of: ProfileViewModel.self)   // .mainActor
    /// container.isolation(of: Unregistered.self)       // nil
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name; `nil` for the unnamed registration.
    /// - Returns: The isolation, or `nil` when nothing is registered under that key.
    public func isolation<Service>(of serviceType: Service.Type, name: String? = nil) -> ServiceIsolation? {
        isolation(for: ServiceKey(serviceType: Service.self, argumentsType: Void.self, name: name, argumentCount: 0))
    }

    /// The isolation of the registration found for `key`, here or in a fallback container.
    ///
    /// ```swift
    /// let key = ServiceKey(Connection.self, argumentTypes: URL.self)
    /// container.isolation(for: key)   // .async
    /// ```
    ///
    /// - Parameter key: The full key: type, name and argument types.
    /// - Returns: The isolation, or `nil` when nothing is registered under `key`.
    public func isolation(for key: ServiceKey) -> ServiceIsolation? {
        guard let entry = _lookupRetained(key) else { return nil }
        return (entry as! any _IsolatedEntry).isolation
    }

    /// Every registration visible from this container whose factory cannot run synchronously anywhere:
    /// main-actor and async factories, with where they were registered.
    ///
    /// Visible means what resolution would find: this container's registrations, then its fallbacks' (a key
    /// registered here hides the same key in a fallback). This is the per-registration data that graph
    /// validation needs to report synchronous paths into such factories; on its own it lists them:
    ///
    /// ```swift
    /// for registration in container.isolatedRegistrations {
    ///     print(registration)   // ProfileViewModel — @MainActor — App/Assemblies.swift:42 (in "main")
    /// }
    /// ```
    ///
    /// - Complexity: O(*n*) in the number of registrations of this container and its fallbacks.
    public var isolatedRegistrations: [IsolatedRegistration] {
        var seen = Set<ServiceKey>()
        var result: [IsolatedRegistration] = []
        for container in lookupChain() {
            for entry in container.currentEntries where seen.insert(entry.key).inserted {
                let isolation = (entry as! any _IsolatedEntry).isolation
                guard isolation != .nonisolated else { continue }
                result.append(
                    IsolatedRegistration(
                        key: entry.key, isolation: isolation, site: entry.site,
                        containerLabel: container.label))
            }
        }
        return result
    }
}

/// A registration whose factory is isolated to the main actor or is `async`.
///
/// Listed by ``Container/isolatedRegistrations``:
///
/// ```swift
/// let mainActorOnly = container.isolatedRegistrations.filter { $0.isolation == .mainActor }
/// ```
public struct IsolatedRegistration: Sendable, Hashable, CustomStringConvertible {
    /// The registration's key.
    public let key: ServiceKey
    /// Where its factory must run.
    public let isolation: ServiceIsolation
    /// Where it was registered.
    public let site: RegistrationSite
    /// The label of the container that holds it.
    public let containerLabel: String

    /// `ProfileViewModel — @MainActor — App/Assemblies.swift:42 (in "main")`.
    public var description: String { "\(key) — \(isolation) — \(site) (in \"\(containerLabel)\")" }
}
