/// One contribution to a collection.
struct _CollectionElement {
    let entry: any _AnyEntry
    let name: String?
    let priority: Int
}

extension Container {
    /// Contributes an implementation to the collection of `Service`, resolved all together with
    /// ``Resolver/resolveAll(_:)`` (or as `[Service]`).
    ///
    /// Use collections for plugin architectures: every module or assembly contributes its own elements, and
    /// the consumer receives them all without knowing who registered what:
    ///
    /// ```swift
    /// container.registerIntoCollection(LogHandler.self) { _ in ConsoleLogHandler() }
    /// container.registerIntoCollection(LogHandler.self, name: "file", priority: 10) { _ in FileLogHandler() }
    /// container.register(Logger.self) { r in Logger(handlers: try r.resolveAll(LogHandler.self)) }
    /// ```
    ///
    /// Each element is a registration of its own: it has its own scope (set it on the returned entry), its own
    /// `initCompleted` steps, and decorators of `Service` apply to it. Elements are never replaced: contributing
    /// twice gives two elements.
    ///
    /// ## Order
    /// Elements are gathered in lookup order — this container's, then each fallback's (depth-first, in the
    /// order they were added, each container once) — each container's in registration order, and then sorted
    /// by `priority`, highest first; equal priorities keep that order. In a module tree, a module sees its own
    /// elements and its dependencies', the assembler's resolver every module's, and each element resolves in
    /// the scope of the module that registered it.
    ///
    /// - Parameters:
    ///   - serviceType: The element type.
    ///   - name: A name for the element, the key in ``Resolver/resolveAllNamed(_:)``.
    ///   - priority: Higher comes first.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - factory: Makes the element.
    /// - Returns: The element's entry, to set its scope and `initCompleted` steps.
    @discardableResult
    public func registerIntoCollection<Service>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        priority: Int = 0,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> ServiceEntry<Service> {
        let key = ServiceKey(serviceType: Service.self, argumentsType: Void.self, name: name, argumentCount: 0)
        let entry = ServiceEntry<Service>(
            key: key, scope: defaultObjectScope, site: RegistrationSite(file: file, line: line), factory0: factory)
        entry.owner = entryOwner  // the registry owner's (a scope's view shares its owner's registry)
        writer.withLock {
            records.collectionElements[ObjectIdentifier(Service.self), default: []]
                .append(_CollectionElement(entry: entry, name: name, priority: priority))
        }
        return entry
    }

    /// The elements of `Service`'s collection visible from this container, in order.
    func collection<Service>(of _: Service.Type) -> [_CollectionElement] {
        sourcedCollection(of: Service.self).map(\.element)
    }

    /// The elements of `Service`'s collection visible from this container, in order, each with the container
    /// whose records hold it. Another module's element is given as its export forwarder, which resolves it in its
    /// module, as a lookup from here resolves that module's registrations (see Modules/ModuleExporter.swift).
    func sourcedCollection<Service>(of _: Service.Type) -> [(element: _CollectionElement, source: ObjectIdentifier)] {
        var gathered: [(element: _CollectionElement, source: ObjectIdentifier)] = []
        let home = registryOwner
        for container in lookupChain() {
            let elements = container.writer.withLock {
                container.records.collectionElements[ObjectIdentifier(Service.self)] ?? []
            }
            gathered += elementsSeen(elements, in: container, from: home).map { ($0, ObjectIdentifier(container)) }
        }
        // A stable sort: equal priorities keep lookup and registration order.
        return gathered.enumerated()
            .sorted { ($0.element.element.priority, -$0.offset) > ($1.element.element.priority, -$1.offset) }
            .map(\.element)
    }

    /// `elements`, the collection elements of `container`, as a lookup from `home` (a registry's owner) resolves
    /// them: themselves, or when `container` is another module's scope, their export forwarders.
    func elementsSeen(
        _ elements: [_CollectionElement], in container: Container, from home: Container
    ) -> [_CollectionElement] {
        guard container.isModuleScope(otherThan: home) else { return elements }
        return elements.map { element in
            guard let forwarder = element.entry._exportForwarder(in: container) as? any _AnyEntry else {
                return element
            }
            return _CollectionElement(entry: forwarder, name: element.name, priority: element.priority)
        }
    }

    func resolveCollectionElements<Service>(_: Service.Type) throws -> [Service] {
        try _withReadSection { try resolveSourcedCollectionInSection(Service.self).map(\.service) }
    }

    /// Resolves every element of `Service`'s collection, in order, each with the container whose records hold
    /// it (see ``sourcedCollection(of:)``), in one read section.
    func resolveSourcedCollection<Service>(_: Service.Type) throws -> [(service: Service, source: ObjectIdentifier)] {
        try _withReadSection { try resolveSourcedCollectionInSection(Service.self) }
    }

    private func resolveSourcedCollectionInSection<Service>(
        _: Service.Type
    ) throws -> [(service: Service, source: ObjectIdentifier)] {
        try sourcedCollection(of: Service.self).map { element, source in
            recorder?.recordElement(element.entry, key: element.entry.key)
            return (try (element.entry as! ServiceEntry<Service>)._resolve0(self), source)
        }
    }

    func resolveNamedCollection<Service>(_: Service.Type) throws -> [String: Service] {
        try _withReadSection { try resolveNamedCollectionInSection(Service.self) }
    }

    private func resolveNamedCollectionInSection<Service>(_: Service.Type) throws -> [String: Service] {
        var result: [String: Service] = [:]
        for element in collection(of: Service.self) {
            guard let name = element.name, result[name] == nil else { continue }
            recorder?.recordElement(element.entry, key: element.entry.key)
            result[name] = try (element.entry as! ServiceEntry<Service>)._resolve0(self)
        }
        return result
    }
}

extension Resolver {
    /// Resolves every element of `Service`'s collection, in collection order (see
    /// ``Container/registerIntoCollection(_:name:priority:file:line:factory:)``).
    ///
    /// ```swift
    /// let handlers = try resolver.resolveAll(LogHandler.self)
    /// ```
    ///
    /// An empty collection is a valid result. Resolving `[Service].self` with `resolve` or `require` gives the same
    /// array, unless `[Service]` itself is registered, or the collection is empty while `Service` has plain
    /// registrations (then `resolve` returns `nil` and `require` throws `notRegistered`, with a suggestion).
    ///
    /// - Parameter serviceType: The element type.
    /// - Returns: The elements; empty when nothing was contributed.
    /// - Throws: ``ResolutionError`` when an element cannot be made.
    public func resolveAll<Service>(_ serviceType: Service.Type) throws(ResolutionError) -> [Service] {
        do {
            return try _requireContainer(for: "resolveAll").resolveCollectionElements(Service.self)
        } catch {
            throw _asResolutionError(error)
        }
    }

    /// Resolves the named elements of `Service`'s collection, by name (unnamed elements are left out; when two
    /// elements share a name, the first in collection order wins).
    ///
    /// ```swift
    /// let handlers = try resolver.resolveAllNamed(LogHandler.self)   // ["console": …, "file": …]
    /// ```
    ///
    /// - Parameter serviceType: The element type.
    /// - Returns: The named elements.
    /// - Throws: ``ResolutionError`` when an element cannot be made.
    public func resolveAllNamed<Service>(_ serviceType: Service.Type) throws(ResolutionError) -> [String: Service] {
        do {
            return try _requireContainer(for: "resolveAllNamed").resolveNamedCollection(Service.self)
        } catch {
            throw _asResolutionError(error)
        }
    }
}

/// `[T]` and `[String: T]` resolve to `T`'s collection when they are not registered themselves, unless the
/// collection is empty while `T` has plain registrations: then the intent was plain, and resolving fails with
/// `notRegistered` and a suggestion (as in Swinject, where `[T]` resolves only if registered).
protocol _CollectionResolvable {
    static var _elementType: Any.Type { get }
    /// The collection, or nil when it is empty and its element type has plain registrations.
    static func _resolveCollection(in container: Container) throws -> Any?
}

extension Array: _CollectionResolvable {
    static var _elementType: Any.Type { Element.self }
    static func _resolveCollection(in container: Container) throws -> Any? {
        let elements = try container.resolveCollectionElements(Element.self)
        if elements.isEmpty, container._hasPlainRegistrations(of: Element.self) { return nil }
        return elements
    }
}

extension Dictionary: _CollectionResolvable where Key == String {
    static var _elementType: Any.Type { Value.self }
    static func _resolveCollection(in container: Container) throws -> Any? {
        let elements = try container.resolveNamedCollection(Value.self)
        if elements.isEmpty, container._hasPlainRegistrations(of: Value.self) { return nil }
        return elements
    }
}

extension Container {
    /// Whether `type` has a registration (any name, any arguments) here or in a fallback.
    func _hasPlainRegistrations(of type: Any.Type) -> Bool {
        lookupChain().contains { container in
            container.writer.withLock { !container.keysLocked(ofType: ObjectIdentifier(type)).isEmpty }
        }
    }
}
