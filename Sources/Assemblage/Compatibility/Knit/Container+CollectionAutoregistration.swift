// Knit's `autoregisterIntoCollection`: `registerIntoCollection` whose element is made by an initializer whose
// parameters are resolved, as `autoregister` resolves them. One to six parameters have generated forms
// (Container+CollectionAutoregistrationArities.swift); this pack form takes any number.

extension Container {
    /// Contributes to `Service`'s collection an element made by an initializer whose parameters are all
    /// resolved from the container: Knit's spelling of
    /// ``registerIntoCollection(_:name:priority:file:line:factory:)`` with an autoregistered factory.
    ///
    /// ```swift
    /// container.autoregisterIntoCollection(Plugin.self, initializer: AnalyticsPlugin.init)   // (Tracker)
    /// container.autoregisterIntoCollection(Plugin.self, initializer: CachePlugin.init)       // ()
    /// let plugins = try container.resolveAll(Plugin.self)
    /// ```
    ///
    /// Parameters are resolved as ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``
    /// resolves them (an optional parameter receives `nil` when its type is not registered; a missing one fails
    /// the resolution with a ``ResolutionError`` naming it); the element is ordered, scoped and decorated as any
    /// other element of the collection.
    ///
    /// - Parameters:
    ///   - serviceType: The element type.
    ///   - name: A name for the element, the key in ``Resolver/resolveAllNamed(_:)``.
    ///   - priority: Higher comes first.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the element from its dependencies, in order.
    /// - Returns: The element's entry, to set its scope and `initCompleted` steps.
    @inlinable
    @discardableResult
    public func autoregisterIntoCollection<Service, each Parameter>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        priority: Int = 0,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> Service
    ) -> ServiceEntry<Service> {
        _autoregisterPack(name: name, priority: priority, file: file, line: line, initializer: initializer)
    }
}
