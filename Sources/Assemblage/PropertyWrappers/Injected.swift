/// A property resolved from ``Container/root`` when its owner is created.
///
/// The service is resolved once, in the owner's initialiser, from the effective root (the innermost
/// ``Container/withRoot(_:_:)`` container of the current task, else the assigned ``Container/root``, which is
/// ``Container/main`` by default), or from the container you pass:
///
/// ```swift
/// final class ProfileModel {
///     @Injected var users: UserService
///     @Injected(name: "avatars") var images: ImageLoader
///     @Injected(container: Container.main) var clock: Clock   // ignores root switching
/// }
/// ```
///
/// ## When the registration is missing
/// A non-optional property must have a value, so a failed resolution stops the program with
/// `preconditionFailure` and the full ``ResolutionError`` description (the missing type and name, the
/// resolution path, the registrations that nearly matched). This is the one place where Assemblage stops the
/// program for a missing registration. Use ``OptionalInjected`` to get `nil` instead, ``LazyInjected`` with
/// its `get()` to get a thrown error, or `try Container.root.require(…)` in code that handles errors.
///
/// ## Concurrency
/// `Injected` is `Sendable` when its service is, so it can be a property of a `Sendable` struct, an actor or
/// a `@MainActor` type. A non-`Sendable` service is fine in an actor or a `@MainActor` class, which keep it
/// isolated. Resolution is synchronous and safe from any thread.
@propertyWrapper
public struct Injected<Service> {
    /// The resolved service.
    ///
    /// It was resolved when the wrapper was created and never changes by itself; assign to replace it (in a
    /// test, for instance):
    ///
    /// ```swift
    /// let model = ProfileModel()
    /// model.users = StubUserService()
    /// ```
    public var wrappedValue: Service

    /// Resolves the service now, from `container` or else from the effective ``Container/root``.
    ///
    /// ```swift
    /// @Injected var session: Session
    /// @Injected(name: "staging") var http: HTTPClient
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - container: The resolver to resolve from; `nil` for the effective ``Container/root``.
    /// - Precondition: The service can be resolved. Otherwise the program stops with the full
    ///   ``ResolutionError`` description; use ``OptionalInjected`` where a missing service is expected.
    public init(name: String? = nil, container: (any Resolver)? = nil) {
        let resolver: any Resolver = container ?? Container.root
        do {
            wrappedValue = try resolver.require(Service.self, name: name)
        } catch {
            preconditionFailure(
                _injectionFailure(
                    "Injected", Service.self, name: name, from: resolver, error,
                    alternative: "declare the property @OptionalInjected to get nil"))
        }
    }
}

extension Injected: Sendable where Service: Sendable {}

/// The message for a non-optional injection that could not be made (the one place a property wrapper stops
/// the program: a non-optional property must have a value).
func _injectionFailure(
    _ wrapper: String, _ service: Any.Type, name: String?, from resolver: any Resolver,
    _ error: ResolutionError, alternative: String
) -> String {
    let named = name.map { " (name: \"\($0)\")" } ?? ""
    return """
        @\(wrapper) could not resolve \(_typeName(service, qualified: false))\(named) from the container \
        "\(resolver._container?.label ?? "\(type(of: resolver))")":
        \(error.description)
        Register it in Container.main (or in the container the property resolves from), or \(alternative) \
        instead of stopping the program.
        """
}
