/// Where a registration's factory must run: anywhere, on the main actor, or in an asynchronous context.
///
/// Every registration records its isolation when it is made, from the form of `register` that made it:
///
/// | registration | isolation | synchronous `resolve`/`require` | `try await resolveAsync` |
/// |---|---|---|---|
/// | `register(_:factory:)` | ``nonisolated`` | anywhere | anywhere |
/// | `register(_:mainActorFactory:)` | ``mainActor`` | on the main actor; elsewhere ``ResolutionError/Code/requiresMainActor`` | anywhere (hops to the main actor) |
/// | `register(_:factory:)` with an `async` factory | ``async`` | never: ``ResolutionError/Code/requiresAsync`` | anywhere |
///
/// Read it from an entry (``ServiceEntry/isolation``) or from a container
/// (``Container/isolation(of:name:)``), for diagnostics and validation:
///
/// ```swift
/// container.register(Database.self) { _ in try await Database.open() }
/// container.isolation(of: Database.self)      // .async
/// ```
///
/// New isolations (a global actor other than the main actor) may be added; switch with a `default`.
public struct ServiceIsolation: Hashable, Sendable, CustomStringConvertible {
    let raw: String

    /// The factory is synchronous and may run on any thread.
    public static let nonisolated = ServiceIsolation(raw: "nonisolated")
    /// The factory is isolated to the main actor: it runs on the main thread only.
    public static let mainActor = ServiceIsolation(raw: "@MainActor")
    /// The factory is `async`: it can only run inside an asynchronous resolution.
    public static let async = ServiceIsolation(raw: "async")

    /// Whether a synchronous resolve from code that is not on the main actor can make this service:
    /// `true` only for ``nonisolated``.
    public var isResolvableSynchronouslyAnywhere: Bool { self == .nonisolated }

    /// `nonisolated`, `@MainActor` or `async`.
    public var description: String { raw }
}
