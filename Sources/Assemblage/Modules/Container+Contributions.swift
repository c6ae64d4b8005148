extension Container {
    /// Adds registrations to a dynamic module of the same module graph, to be resolved in this module's scope.
    ///
    /// Call it from a module's ``Assembly/assemble(container:)`` on the container it receives. Each
    /// registration made through the ``ModuleContribution`` lands in the dynamic module's container, so the
    /// dynamic module's dependents resolve it through the dynamic module; its factory receives *this*
    /// module's scope as its resolver, so it resolves its own dependencies from the contributing module:
    ///
    /// ```swift
    /// struct PaymentsModule: AutoInitModuleAssembly {
    ///     static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    ///     func assemble(container: Container) {
    ///         container.contribute(into: InterfacesModule.self) { interfaces in
    ///             interfaces.register(PaymentsAPI.self) { r in
    ///                 Payments(http: try r.require(HTTPClient.self))   // from NetworkModule, via PaymentsModule
    ///             }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// A contribution exists only if the contributing module is in the graph; when the dynamic module is
    /// not in this assembler's graph (absent, or assembled by a parent assembler, which a child never
    /// changes), the contribution is dropped and reported in ``ModuleAssembler/warnings``. Registrations
    /// under a key the dynamic module already has replace it (the module assembled later wins).
    ///
    /// - Parameters:
    ///   - module: The dynamic module to contribute to (or the module that replaces it in the graph).
    ///   - contributions: Registers the contributions.
    /// - Returns: `true` when the contributions were registered; `false` when they were dropped, or when
    ///   this container is not a module's scope (then `contributions` is not called).
    @discardableResult
    public func contribute<Target: DynamicModuleAssembly>(
        into module: Target.Type,
        _ contributions: (ModuleContribution) -> Void
    ) -> Bool {
        guard let scope = _moduleExporter(creating: false), let graph = scope.graph else { return false }
        guard let target = graph.dynamicTarget(for: _IdentityKey(module)) else {
            let name = _ModuleType(module).name
            graph.warn(
                .init(
                    .contributionDropped, module: name, path: [scope.module ?? label, name],
                    related: [scope.module ?? label]))
            return false
        }
        contributions(ModuleContribution(target: target, contributor: self, contributorName: scope.module ?? label))
        return true
    }
}

/// Registers contributions into a dynamic module, resolved in the contributing module's scope.
///
/// You receive one in the closure of ``Container/contribute(into:_:)``:
///
/// ```swift
/// container.contribute(into: InterfacesModule.self) { interfaces in
///     interfaces.register(SearchAPI.self) { r in Search(index: try r.require(SearchIndex.self)) }
///         .inObjectScope(.container)
/// }
/// ```
///
/// `.container`-scoped contributions keep their instance in the dynamic module, so resetting the dynamic
/// module drops them.
public struct ModuleContribution: Sendable {
    let target: Container
    let contributor: _WeakContainer
    /// The module that contributes.
    public let contributorName: String

    init(target: Container, contributor: Container, contributorName: String) {
        self.target = target
        self.contributor = _WeakContainer(contributor)
        self.contributorName = contributorName
    }

    /// The dynamic module's type name.
    public var moduleName: String { target.label }

    /// Registers a service in the dynamic module whose factory runs in the contributing module's scope.
    ///
    /// Same form as ``Container/register(_:name:file:line:factory:)-7bw5r``; any number of runtime arguments.
    ///
    /// ```swift
    /// interfaces.register(PaymentsAPI.self) { r in Payments(http: try r.require(HTTPClient.self)) }
    /// interfaces.register(Receipt.self) { (r: Resolver, orderID: Int) in Receipt(order: orderID) }
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the factory when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - factory: Makes the service; receives the contributing module's scope as its resolver. If that
    ///     module's container has been released (its assembler is gone), resolving fails.
    /// - Returns: The entry in the dynamic module, to configure its scope and `initCompleted` steps.
    @discardableResult
    public func register<Service, each Arg>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Arg) throws -> Service
    ) -> ServiceEntry<Service> {
        let contributor = self.contributor
        let contributorName = self.contributorName
        return target.register(serviceType, name: name, file: file, line: line) {
            (_: Resolver, arguments: repeat each Arg) throws -> Service in
            guard let scope = contributor.value else { throw _ContributorReleased(module: contributorName) }
            return try factory(scope, repeat each arguments)
        }
    }
}

/// A weak reference to a container, for closures that must not keep it alive.
struct _WeakContainer: Sendable {
    weak var value: Container?
    init(_ value: Container) { self.value = value }
}

/// A contributed factory ran after its contributing module's container was released.
struct _ContributorReleased: Error, CustomStringConvertible {
    let module: String
    var description: String {
        "the contributing module \(module) has been released; keep its ModuleAssembler alive while resolving"
    }
}
