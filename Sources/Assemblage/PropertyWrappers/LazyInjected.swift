/// A property resolved the first time it is read, then kept.
///
/// Use it to defer making an expensive service, or to break a cycle between services that both want each
/// other at initialisation. The first read resolves from the container you pass or else from the effective
/// ``Container/root`` *at the moment of that read* (as Resolver does), and keeps the result:
///
/// ```swift
/// final class ReportScreen {
///     @LazyInjected var renderer: PDFRenderer           // made when first read
///
///     func export() throws -> Data {
///         let renderer = try $renderer.get()           // or read `renderer`, which stops on failure
///         return renderer.render()
///     }
/// }
/// ```
///
/// ## Threads
/// The first read is safe from any number of threads at once: one thread resolves, the others wait for it and
/// get the same instance. The resolving thread reading the same property again (a cycle through the property)
/// gets a ``ResolutionError/Code/cycle`` error rather than a deadlock. Copies of the wrapper share their
/// storage. `LazyInjected` is `Sendable` when its service is.
///
/// ## When the registration is missing
/// Reading ``wrappedValue`` stops the program with `preconditionFailure` and the full ``ResolutionError``
/// description, as ``Injected`` does: the property is non-optional. Call ``get()`` through the projected value
/// (`try $renderer.get()`) to receive the error instead; a failed resolution keeps nothing, so a later read
/// tries again.
@propertyWrapper
public struct LazyInjected<Service> {
    private let name: String?
    private let container: (any Resolver)?
    private let slot = _LazySlot<Service>()

    /// Prepares the property; nothing is resolved until it is first read.
    ///
    /// ```swift
    /// @LazyInjected var renderer: PDFRenderer
    /// @LazyInjected(name: "disk", container: Container.main) var cache: Cache
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - container: The resolver to resolve from; `nil` for the effective ``Container/root`` at first read.
    public init(name: String? = nil, container: (any Resolver)? = nil) {
        self.name = name
        self.container = container
    }

    /// The service, resolved on first read.
    ///
    /// Every later read returns the same instance until ``release()``. Assign to replace it (the wrapper then
    /// counts as resolved):
    ///
    /// ```swift
    /// screen.renderer = StubRenderer()
    /// ```
    ///
    /// - Precondition: The service can be resolved. Otherwise the program stops with the full
    ///   ``ResolutionError`` description; read `try $property.get()` to handle the failure as an error.
    public var wrappedValue: Service {
        get {
            do {
                return try get()
            } catch {
                preconditionFailure(
                    _injectionFailure(
                        "LazyInjected", Service.self, name: name,
                        from: container ?? Container.root, error,
                        alternative: "read it with `try $property.get()` to handle the error"))
            }
        }
        nonmutating set { slot.set(newValue) }
    }

    /// The wrapper itself: `$property.get()`, `$property.isResolved`, `$property.release()`.
    ///
    /// Copies of the wrapper share its storage, so calls on the projected value act on the property:
    ///
    /// ```swift
    /// if !screen.$renderer.isResolved { print("renderer not made yet") }
    /// ```
    public var projectedValue: LazyInjected<Service> { self }

    /// The service, resolved now if it has not been yet.
    ///
    /// ```swift
    /// do {
    ///     let renderer = try screen.$renderer.get()
    /// } catch {
    ///     print(error)   // No registration for PDFRenderer. …
    /// }
    /// ```
    ///
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` when it cannot be resolved (nothing is kept; the next read tries again),
    ///   or with code ``ResolutionError/Code/cycle`` when its own resolution reads this property.
    public func get() throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name)
        return try slot.value(for: key) { () throws(ResolutionError) -> Service in
            let resolver: any Resolver = container ?? Container.root
            return try resolver.require(Service.self, name: name)
        }
    }

    /// Whether the service has been resolved (or assigned) and is kept.
    ///
    /// Reading it never resolves anything:
    ///
    /// ```swift
    /// #expect(!screen.$renderer.isResolved)
    /// ```
    public var isResolved: Bool { slot.current != nil }

    /// Drops the kept service, so that the next read resolves again (from the root effective then).
    ///
    /// The dropped instance lives on if something else holds it.
    ///
    /// ```swift
    /// screen.$renderer.release()
    /// ```
    public func release() { slot.set(nil) }
}

extension LazyInjected: Sendable where Service: Sendable {}
