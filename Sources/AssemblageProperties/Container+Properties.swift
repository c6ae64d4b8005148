public import Assemblage

extension Container {
    /// The properties applied to this container itself (its fallbacks' are merged beneath them when read), kept
    /// in the core's per-container extension state.
    var ownProperties: Properties { extensionState(Properties.self, default: Properties()) }

    /// The properties visible from this container: its own, over those of its fallbacks.
    ///
    /// A child container sees its parent's properties unless it applies a loader (or adds a source) that sets
    /// the same key: the child's layers are merged over its parent's. Like service lookup, an earlier fallback
    /// wins over a later one.
    ///
    /// ```swift
    /// let app = Container()
    /// try app.applyPropertyLoader(JSONPropertyLoader(url: settingsURL))
    /// let screen = Container(parent: app)
    /// screen.properties.property("api.url", as: String.self)   // the app's value
    /// ```
    public var properties: Properties {
        // A scope's view shares its container's registry, and so its properties and fallbacks.
        let own = ownProperties
        guard hasFallbacks else { return own }
        // Each container once, in lookup order; the earliest wins, so merge from the last.
        var merged = Properties()
        for container in lookupChain().reversed() {
            merged.merge(container === self ? own : container.ownProperties)
        }
        return merged
    }

    /// Loads properties and merges them into this container's: later loaders win.
    ///
    /// A file or dictionary loader replaces top-level values whole (arrays and dictionaries included); the
    /// environment loader overrides single values at key paths (`APP_SERVER_PORT` sets `server.port` and keeps
    /// the file's `server.host`). See ``PropertyLoader/mergeBehavior``. Loading happens before anything is
    /// merged, so a loader that fails changes nothing.
    ///
    /// ```swift
    /// try container.applyPropertyLoader(JSONPropertyLoader(bundle: .main, name: "settings"))
    /// try container.applyPropertyLoader(EnvironmentPropertyLoader(prefix: "APP_"))
    /// ```
    ///
    /// - Parameter loader: The loader.
    /// - Throws: ``PropertyError`` naming the source (and the line, column and key where known).
    public func applyPropertyLoader(_ loader: any PropertyLoader) throws {
        try applyPropertyLoaders([loader])
    }

    /// Loads several property sources and merges them in order, all or nothing.
    ///
    /// ```swift
    /// try container.applyPropertyLoaders([
    ///     JSONPropertyLoader(url: settingsURL),
    ///     EnvironmentPropertyLoader(prefix: "APP_"),   // wins over the file
    /// ])
    /// ```
    ///
    /// - Parameter loaders: The loaders; a later one wins over an earlier one.
    /// - Throws: ``PropertyError`` from the first loader that fails; nothing is merged then.
    public func applyPropertyLoaders(_ loaders: [any PropertyLoader]) throws {
        let loaded = try Properties(loaders: loaders)
        updateExtensionState(Properties.self, default: Properties()) { $0.merge(loaded) }
    }

    /// Adds a source that is asked key by key when a property is read, over everything applied so far.
    ///
    /// For each key it has a value for, the source wins over the loaders applied before it and loses to those
    /// applied after it; nothing is read now. Factories reach it through the same `property`,
    /// `requireProperty` and `decodeProperties` calls; see ``PropertySource``. With the `Configuration`
    /// package trait, `addPropertySource(_:)` also takes a swift-configuration `ConfigReader`.
    ///
    /// ```swift
    /// try container.applyPropertyLoader(JSONPropertyLoader(bundle: .main, name: "defaults"))
    /// container.addPropertySource(SecretsDirectorySource(directory: secretsURL))   // wins over the defaults
    /// ```
    ///
    /// - Parameter source: The source.
    public func addPropertySource(_ source: any PropertySource) {
        updateExtensionState(Properties.self, default: Properties()) { $0.addSource(source) }
    }
}

extension Resolver {
    /// Reads a property of the resolver's container as `T`, or `nil` when it is missing or of another type.
    ///
    /// Factories use it to configure what they make:
    ///
    /// ```swift
    /// container.register(APIClient.self) { r in
    ///     APIClient(baseURL: r.property("api.url") ?? "https://localhost", retries: r.property("retries") ?? 3)
    /// }
    /// ```
    ///
    /// A JSON number reads as `Int` and as `Double` where it fits; strings convert to numbers, booleans,
    /// dates and data (see ``PropertyRepresentable``). A key is a top-level name or a dotted key path
    /// (`server.port`); see ``Properties/property(_:as:)``.
    ///
    /// - Parameters:
    ///   - key: The key: a top-level name or a dotted key path.
    ///   - type: The type to read.
    /// - Returns: The value, or `nil`.
    public func property<T: PropertyRepresentable>(_ key: String, as type: T.Type = T.self) -> T? {
        _container?.properties.property(key, as: type)
    }

    /// Reads a property as `T`, or throws an error naming the key, the expected type and what was found.
    ///
    /// The same as ``Properties/requireProperty(_:as:)`` on the container's `Container.properties`.
    ///
    /// ```swift
    /// container.register(Server.self) { r in Server(port: try r.requireProperty("server.port")) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key: a top-level name or a dotted key path.
    ///   - type: The type to read.
    /// - Returns: The value.
    /// - Throws: ``PropertyError`` (`.missingKey` or `.typeMismatch`).
    public func requireProperty<T: PropertyRepresentable>(_ key: String, as type: T.Type = T.self) throws -> T {
        try _requireContainer(for: "requireProperty").properties.requireProperty(key, as: type)
    }

    /// Decodes a configuration value from one key, or from all properties when `key` is `nil`.
    ///
    /// The same as ``Properties/decodeProperties(_:forKey:)`` on the container's `Container.properties`.
    ///
    /// ```swift
    /// struct ServerConfig: Decodable { let host: String; let port: Int }
    /// let config = try resolver.decodeProperties(ServerConfig.self, forKey: "server")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The `Decodable` type.
    ///   - key: The key (a top-level name or a dotted key path), or `nil` for the root.
    /// - Returns: The decoded value.
    /// - Throws: ``PropertyError`` naming the key path that failed.
    public func decodeProperties<T: Decodable>(_ type: T.Type, forKey key: String? = nil) throws -> T {
        try _requireContainer(for: "decodeProperties").properties.decodeProperties(type, forKey: key)
    }
}
