/// A property resolved the first time it is read and then held weakly: it never keeps the service alive.
///
/// Use it for a service that something else owns (a coordinator, a parent screen) when holding it strongly
/// would make a reference cycle. The first read resolves from the container you pass or else from the
/// effective ``Container/root`` at that moment; afterwards the property is the same object for as long as
/// someone else keeps it alive, and `nil` once it has been released. It does not resolve a new one then (as
/// in Resolver); call ``release()`` to resolve again at the next read. Register the service in a scope that
/// keeps it (``ObjectScope/container``, ``ObjectScope/weak`` while its owner lives): with a transient or graph
/// registration nothing else holds the new object, so the property reads `nil` at once.
///
/// ```swift
/// final class DetailScreen {
///     @WeakLazyInjected var coordinator: Coordinator?   // register Coordinator in .container scope
///
///     func close() { coordinator?.dismiss(self) }
/// }
/// ```
///
/// ## When the registration is missing
/// The property is optional, so a failed resolution reads as `nil` and never stops the program; nothing is
/// kept, so a later read tries again. Call ``get()`` through the projected value to receive the
/// ``ResolutionError`` instead.
///
/// ## Threads
/// Safe to read from any number of threads at once: one resolves, the others wait and get the same object.
/// `WeakLazyInjected` is `Sendable` when its service is.
///
/// - Precondition: The resolved service is a class instance (or an existential holding one); a value type
///   cannot be held weakly. Use ``LazyInjected`` for value types.
@propertyWrapper
public struct WeakLazyInjected<Service> {
    private let name: String?
    private let container: (any Resolver)?
    private let slot = _LazySlot<_WeakObject>()

    /// Prepares the property; nothing is resolved until it is first read.
    ///
    /// ```swift
    /// @WeakLazyInjected var coordinator: Coordinator?
    /// @WeakLazyInjected(name: "root") var parent: Screen?
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - container: The resolver to resolve from; `nil` for the effective ``Container/root`` at first read.
    public init(name: String? = nil, container: (any Resolver)? = nil) {
        self.name = name
        self.container = container
    }

    /// The service while something else keeps it alive; `nil` when it could not be resolved or has been
    /// released.
    ///
    /// Assign to hold another object weakly; assigning `nil` keeps the property `nil` until ``release()``:
    ///
    /// ```swift
    /// screen.coordinator = testCoordinator   // the test keeps testCoordinator alive
    /// ```
    public var wrappedValue: Service? {
        get { try? get() }
        nonmutating set { slot.set(_WeakObject(newValue.map(Self.object(of:)))) }
    }

    /// The wrapper itself: `$property.get()`, `$property.isResolved`, `$property.release()`.
    ///
    /// Copies of the wrapper share its storage, so calls on the projected value act on the property:
    ///
    /// ```swift
    /// let coordinator = try screen.$coordinator.get()
    /// ```
    public var projectedValue: WeakLazyInjected<Service> { self }

    /// The service, resolved now if it has not been yet; `nil` once the object it resolved has been released.
    ///
    /// ```swift
    /// do {
    ///     _ = try screen.$coordinator.get()
    /// } catch {
    ///     print(error)   // why the coordinator could not be resolved
    /// }
    /// ```
    ///
    /// - Returns: The service, or `nil` when the resolved object no longer exists.
    /// - Throws: ``ResolutionError`` when it cannot be resolved (nothing is kept; the next read tries again).
    public func get() throws(ResolutionError) -> Service? {
        let key = ServiceKey(Service.self, name: name)
        let reference = try slot.value(for: key) { () throws(ResolutionError) -> _WeakObject in
            let resolver: any Resolver = container ?? Container.root
            return _WeakObject(Self.object(of: try resolver.require(Service.self, name: name)))
        }
        // The object was made as a `Service`, so the cast back cannot fail while it is alive.
        return reference.object.map { $0 as! Service }
    }

    /// Whether a resolution has succeeded (or a value was assigned) since the last ``release()``, even if the
    /// object has been released since.
    ///
    /// Reading it never resolves anything:
    ///
    /// ```swift
    /// if screen.$coordinator.isResolved && screen.coordinator == nil { print("coordinator is gone") }
    /// ```
    public var isResolved: Bool { slot.current != nil }

    /// Forgets the resolved object, so that the next read resolves again.
    ///
    /// Use it when the object the property held has gone and a new one should be resolved:
    ///
    /// ```swift
    /// screen.$coordinator.release()
    /// ```
    public func release() { slot.set(nil) }

    private static func object(of service: Service) -> AnyObject {
        precondition(
            type(of: service as Any) is AnyClass,
            "@WeakLazyInjected holds its service weakly, but \(type(of: service as Any)) is not a class; "
                + "use @LazyInjected for value types.")
        return service as AnyObject
    }
}

// @unchecked Sendable: the slot only holds a weak reference to a `Service`, which is Sendable here, and it is
// only touched under its lock.
extension WeakLazyInjected: @unchecked Sendable where Service: Sendable {}

/// A weak reference, as a value the lazy slot can keep.
struct _WeakObject {
    weak var object: AnyObject?

    init(_ object: AnyObject?) { self.object = object }
}
