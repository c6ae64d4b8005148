/// A decorator with its exact service type.
@usableFromInline
final class _DecoratorBox<Service>: Sendable {
    @usableFromInline let call: @Sendable (any Resolver, Service) throws -> Service
    init(_ call: @escaping @Sendable (any Resolver, Service) throws -> Service) { self.call = call }
}

/// The service types any container of the process has a decorator for (it never shrinks). Once any decorator
/// exists, every creation asks for its type's decorators: the others are answered here, without a search of the
/// creating container's lookup chain, which in a graph of thousands of modules is thousands of containers.
enum _DecoratedTypes {
    private static let types = _Locked<Set<_IdentityKey>>([])

    static func insert(_ type: Any.Type) { types.withLock { _ = $0.insert(_IdentityKey(type)) } }

    static func contains(_ type: Any.Type) -> Bool { types.withLock { $0.contains(_IdentityKey(type)) } }
}

/// One registered decorator.
struct _DecoratorRecord {
    let serviceType: Any.Type
    let name: String?
    let box: AnyObject
    let site: RegistrationSite
}

extension Container {
    /// Wraps every instance of `Service` that the container makes in what `decorator` returns.
    ///
    /// Decorators run when an instance is made — after its factory and its `initCompleted` steps, before it is
    /// cached in its scope — so a shared instance is decorated once. They apply to registrations of exactly
    /// `Service` made by this container or by any container that falls back to it, including those another
    /// assembly registered, and to collection elements. In a module tree, a module's decorators wrap its own
    /// registrations and those of the modules that depend on it, never its dependencies' (see
    /// <doc:CollectionsAndDecorators>):
    ///
    /// ```swift
    /// container.register(Storage.self) { _ in DiskStorage() }
    /// container.decorate(Storage.self) { r, inner in LoggingStorage(inner, log: try r.require(Log.self)) }
    /// container.decorate(Storage.self) { _, inner in CachingStorage(inner) }
    /// // resolve(Storage.self) is CachingStorage(LoggingStorage(DiskStorage()))
    /// ```
    ///
    /// ## Order
    /// Within one container, decorators run in the order they were added (the last added is outermost).
    /// Across containers, those of the farthest fallback run first, so a decorator added to an overlay wraps
    /// the ones of the containers behind it.
    ///
    /// ## Names
    /// A decorator without a name applies to every instance of `Service` (every name, every argument list,
    /// every collection element); one with a name applies only to registrations and elements with that name.
    ///
    /// Adding a decorator does not check that `Service` is registered (registration order across assemblies
    /// is free); ``unmatchedDecorators()`` reports decorators that match nothing.
    ///
    /// - Parameters:
    ///   - serviceType: The service type to decorate.
    ///   - name: Only instances registered under this name, or all when `nil`.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - decorator: Receives the resolver and the instance; returns what the caller gets instead.
    public func decorate<Service>(
        _ serviceType: Service.Type, name: String? = nil, file: String = #fileID,
        line: Int = #line,
        _ decorator: @escaping @Sendable (any Resolver, Service) throws -> Service
    ) {
        let record = _DecoratorRecord(
            serviceType: Service.self, name: name, box: _DecoratorBox(decorator),
            site: RegistrationSite(file: file, line: line))
        _DecoratedTypes.insert(Service.self)
        writer.withLock { records.decorators[ObjectIdentifier(Service.self), default: []].append(record) }
        _Shim.markDecorators()
    }

    /// The decorators for instances of `type` named `name`, in the order they apply.
    func decorators(for type: Any.Type, name: String?) -> [AnyObject] {
        // Only a type some container decorates searches the lookup chain, which in a deep module graph is long.
        guard _DecoratedTypes.contains(type) else { return [] }
        var perContainer: [[AnyObject]] = []
        for container in lookupChain() {
            let records = container.writer.withLock { container.records.decorators[ObjectIdentifier(type)] ?? [] }
            let matching = records.filter { $0.name == nil || $0.name == name }.map(\.box)
            if !matching.isEmpty { perContainer.append(matching) }
        }
        return perContainer.reversed().flatMap { $0 }
    }

    /// Decorators registered here that match no registration or collection element visible from this container.
    ///
    /// ```swift
    /// for problem in container.unmatchedDecorators() { print(problem) }
    /// ```
    ///
    /// - Returns: One ``ContainerError`` (code ``ContainerError/Code/decoratorWithoutService``) per decorator that
    ///   would never run, naming its service type, name and registration site.
    public func unmatchedDecorators() -> [ContainerError] {
        unmatchedDecorators(searching: lookupChain(), where: "\(label) or its fallbacks")
    }

    /// The decorators registered here that match no registration or collection element of `chain` (described as
    /// `place` in the message): a module's decorators also wrap what the modules depending on it register.
    func unmatchedDecorators(searching chain: [Container], where place: String) -> [ContainerError] {
        let decorators = writer.withLock { self.records.decorators }
        var problems: [ContainerError] = []
        for (type, list) in decorators {
            for record in list {
                let matched = chain.contains { container in
                    container.writer.withLock {
                        let keys = container.keysLocked(ofType: type)
                        let elements = container.records.collectionElements[type] ?? []
                        if let name = record.name {
                            return keys.contains { $0.name == name } || elements.contains { $0.name == name }
                        }
                        return !keys.isEmpty || !elements.isEmpty
                    }
                }
                if !matched {
                    let typeName = _typeName(record.serviceType, qualified: false)
                    problems.append(
                        ContainerError(
                            code: .decoratorWithoutService,
                            message: "The decorator for \(typeName)\(record.name.map { " (name: \"\($0)\")" } ?? "") "
                                + "registered at \(record.site) matches no registration: nothing it decorates is "
                                + "registered in \(place)."))
                }
            }
        }
        return problems
    }
}
