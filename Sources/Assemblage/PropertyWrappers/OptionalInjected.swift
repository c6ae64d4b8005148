/// A property resolved from ``Container/root`` when its owner is created, or `nil` when it cannot be.
///
/// The non-stopping form of ``Injected``: a missing registration (or a factory that throws) leaves the
/// property `nil`, and the projected value tells you why:
///
/// ```swift
/// final class Settings {
///     @OptionalInjected var analytics: Analytics?
///     @OptionalInjected(name: "beta") var beta: FeatureFlags?
/// }
///
/// let settings = Settings()
/// if settings.analytics == nil, let error = settings.$analytics.resolutionError {
///     print(error)   // No registration for Analytics. …
/// }
/// ```
///
/// It resolves once, in the owner's initialiser, from the effective root (the innermost
/// ``Container/withRoot(_:_:)`` container of the current task, else the assigned ``Container/root``) or from
/// the container you pass. It is `Sendable` when its service is.
@propertyWrapper
public struct OptionalInjected<Service> {
    /// The resolved service, or `nil` when it could not be resolved.
    ///
    /// It was resolved when the wrapper was created and never changes by itself; assign to replace it:
    ///
    /// ```swift
    /// settings.analytics = nil   // turn analytics off in this test
    /// ```
    public var wrappedValue: Service?

    /// Why the resolution at initialisation gave `nil`; `nil` when it succeeded.
    ///
    /// Read it through the projected value. It describes the resolution made at initialisation, so it stays
    /// as it was when you assign ``wrappedValue``:
    ///
    /// ```swift
    /// if let error = settings.$analytics.resolutionError { log(error.description) }
    /// ```
    public let resolutionError: ResolutionError?

    /// Resolves the service now, from `container` or else from the effective ``Container/root``; `nil` when it
    /// cannot be resolved.
    ///
    /// ```swift
    /// @OptionalInjected var crashReporter: CrashReporter?
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - container: The resolver to resolve from; `nil` for the effective ``Container/root``.
    public init(name: String? = nil, container: (any Resolver)? = nil) {
        let resolver: any Resolver = container ?? Container.root
        do {
            wrappedValue = try resolver.require(Service.self, name: name)
            resolutionError = nil
        } catch {
            wrappedValue = nil
            resolutionError = error
        }
    }

    /// The wrapper itself, for ``resolutionError``: `$property.resolutionError`.
    ///
    /// A copy: assigning to it does not change the property.
    ///
    /// ```swift
    /// print(settings.$analytics.resolutionError?.description ?? "resolved")
    /// ```
    public var projectedValue: OptionalInjected<Service> { self }
}

extension OptionalInjected: Sendable where Service: Sendable {}
