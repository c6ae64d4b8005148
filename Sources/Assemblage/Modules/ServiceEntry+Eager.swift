extension ServiceEntry {
    /// Creates this registration's instance at start-up rather than on first use, so that a failure to
    /// make it surfaces at once.
    ///
    /// A ``ModuleAssembler`` creates the eager registrations of every module after all modules have
    /// registered and before any `loaded` hook runs, in assembly order (and, within a module, in the
    /// order they were marked). If any cannot be made, the assembler's initializer throws a
    /// ``ModuleAssemblyError`` with ``ModuleAssemblyError/Code/eagerSingletonFailed`` for each, naming the
    /// registration's key and the resolution path that failed.
    ///
    /// ```swift
    /// container.register(Database.self) { r in try SQLiteDatabase(path: try r.require(URL.self, name: "db")) }
    ///     .inObjectScope(.singleton)
    ///     .eager()
    /// ```
    ///
    /// An eager registration keeps a `.singleton` or `.container` scope; any other scope becomes
    /// `.singleton` (an instance made at start-up and then forgotten would be pointless). It must take no
    /// runtime arguments. In a container that no module assembler built, call
    /// ``Container/createEagerServices()`` yourself.
    ///
    /// - Returns: The entry, for chaining.
    @discardableResult
    public func eager() -> Self {
        let kind = objectScope.kind
        if kind != .singleton && kind != .container { inObjectScope(.singleton) }
        guard let container else { return self }
        let key = self.key
        let create: @Sendable (Container) throws -> Void
        if key.argumentCount == 0 {
            create = { container in _ = try container._resolve(Service.self, name: key.name) }
        } else {
            create = { _ in
                throw ResolutionError(
                    code: .factoryFailed, key: key, path: [key],
                    underlying: _EagerArgumentsError())
            }
        }
        container.updateExtensionState(_EagerServices.self, default: _EagerServices()) { eager in
            if !eager.services.contains(where: { $0.key == key }) {
                eager.services.append(_EagerService(key: key, create: create))
            }
        }
        // A module assembler reads the eager registrations of its modules only when one of them marked any.
        container._moduleExporter(creating: false)?.graph?.noteEagerRegistration()
        return self
    }
}

extension Container {
    /// Creates every registration of this container marked with ``ServiceEntry/eager()``, in the order they
    /// were marked.
    ///
    /// ``ModuleAssembler`` does this for the modules it assembles; call it yourself for a container you
    /// build by hand, once its registrations are in place:
    ///
    /// ```swift
    /// let container = Container()
    /// container.register(Database.self) { _ in try SQLiteDatabase(path: "app.db") }.eager()
    /// try container.createEagerServices()   // fails now, not on the first query
    /// ```
    ///
    /// - Throws: ``ResolutionError`` for the first registration that cannot be made; the ones before it
    ///   have been created.
    public func createEagerServices() throws(ResolutionError) {
        if let failure = _createEagerServices().first { throw failure.error }
    }
}

/// Why an eager registration with runtime arguments cannot be created.
struct _EagerArgumentsError: Error, CustomStringConvertible {
    var description: String {
        "an eager registration cannot take runtime arguments; remove .eager() or the arguments"
    }
}
