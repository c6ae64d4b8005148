public import Assemblage

// Properties for assemblies: the assembler applies property loaders and sources to its container.

extension Assembler {
    /// Creates an assembler, applies the property loaders first, then the assemblies as one batch.
    ///
    /// Properties are in place before any `loaded(resolver:)` hook runs.
    ///
    /// ```swift
    /// let assembler = try Assembler([ServiceAssembly(), ManagerAssembly()],
    ///                               propertyLoaders: [JSONPropertyLoader(bundle: .main, name: "properties")])
    /// ```
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in order.
    ///   - propertyLoaders: Loaded in order (later wins), all or nothing.
    ///   - container: The container to register into.
    /// - Throws: ``PropertyError`` when a loader fails; no assembly runs then.
    public convenience init(
        _ assemblies: [any Assembly], propertyLoaders: [any PropertyLoader],
        container: Container = Container()
    ) throws {
        try container.applyPropertyLoaders(propertyLoaders)
        self.init(assemblies, container: container)
    }

    /// The Swinject 1.x spelling of ``init(_:propertyLoaders:container:)``.
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in order.
    ///   - propertyLoaders: Loaded in order (later wins), all or nothing.
    ///   - container: The container to register into.
    /// - Throws: ``PropertyError`` when a loader fails.
    public convenience init(
        assemblies: [any Assembly], propertyLoaders: [any PropertyLoader],
        container: Container = Container()
    ) throws {
        try self.init(assemblies, propertyLoaders: propertyLoaders, container: container)
    }

    /// Loads properties into the assembler's container (lazily, after creation).
    ///
    /// Apply properties before the assemblies whose `loaded` hooks read them: a hook sees the properties
    /// loaded before its batch was applied.
    ///
    /// - Parameter loader: The loader.
    /// - Throws: ``PropertyError``; nothing is merged then.
    public func applyPropertyLoader(_ loader: any PropertyLoader) throws {
        try container.applyPropertyLoader(loader)
    }

    /// Adds a source that is asked key by key to the assembler's container; see
    /// `Container.addPropertySource(_:)`.
    ///
    /// ```swift
    /// assembler.addPropertySource(SecretsDirectorySource(directory: secretsURL))
    /// ```
    ///
    /// - Parameter source: The source, over everything applied before it.
    public func addPropertySource(_ source: any PropertySource) {
        container.addPropertySource(source)
    }
}
