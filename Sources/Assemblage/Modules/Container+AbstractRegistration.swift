// Abstract registrations: a module declares a service it needs that some other module of the graph provides. The
// declaration registers nothing; the module assembler checks it once every module is assembled, and makes the
// provider's registration visible in the declaring module's scope (or, when asked, a placeholder).

/// One `registerAbstract` declaration, kept in its container's extension state until a module assembler checks it.
struct _AbstractRegistration: Sendable {
    let key: ServiceKey
    let site: RegistrationSite
    /// Registers in `container` (the declaring scope) a forwarder to `entry`, resolved in `scope`.
    let forward: @Sendable (_ container: Container, _ entry: any _AnyEntry, _ scope: Container) -> Void
    /// Registers in `container` the placeholder used when no module provides the service.
    let placeholder: @Sendable (_ container: Container, _ module: String) -> Void
}

/// The declarations of one container, in the order they were made.
struct _AbstractRegistrations: Sendable {
    var declarations: [_AbstractRegistration] = []
}

extension Container {
    /// Declares that this module needs `type` and that another module of the graph registers it.
    ///
    /// An abstract registration registers nothing. When a ``ModuleAssembler`` has assembled every module, it
    /// looks for a registration of the same type and name anywhere in its graph (any module, `postAssemble`, or a
    /// parent assembler) and makes it resolvable from this module's scope, even when the providing module is not
    /// among this module's dependencies. When no module provides it, assembly fails with
    /// ``ModuleAssemblyError/Code/abstractRegistrationNotProvided``, naming every missing service, unless the
    /// ``OverrideBehavior`` asks for placeholders (the default in a test process): each missing service is then
    /// registered as a placeholder that fails with ``ResolutionError/Code/abstractRegistrationNotProvided`` when
    /// resolved, so a test builds a partial graph and fails only where it uses what is missing.
    ///
    /// ```swift
    /// struct CheckoutModule: AutoInitModuleAssembly {
    ///     static var dependencies: [any ModuleAssembly.Type] { [] }
    ///     func assemble(container: Container) {
    ///         container.registerAbstract(PaymentProcessor.self)   // the app's PaymentsModule provides it
    ///         container.register(Checkout.self) { r in Checkout(payments: try r.require(PaymentProcessor.self)) }
    ///     }
    /// }
    /// ```
    ///
    /// Abstract registrations take no arguments. Outside a module assembler, nothing checks them.
    ///
    /// - Parameters:
    ///   - type: The service another module must register.
    ///   - name: The registration's name, to declare a named one.
    ///   - file: The file of the declaration, for diagnostics.
    ///   - line: The line of the declaration, for diagnostics.
    public func registerAbstract<Service>(
        _ type: Service.Type, name: String? = nil, file: String = #fileID,
        line: Int = #line
    ) {
        let key = ServiceKey(serviceType: Service.self, argumentsType: Void.self, name: name, argumentCount: 0)
        let site = RegistrationSite(file: file, line: line)
        declareAbstract(
            _AbstractRegistration(
                key: key, site: site, forward: Self.forwarder(Service.self),
                placeholder: { container, module in
                    container.register(Service.self, name: name, file: site.file, line: site.line) {
                        _ throws -> Service in
                        throw ResolutionError(
                            code: .abstractRegistrationNotProvided, key: key,
                            path: _ResolutionState.pathOnThisThread(to: key),
                            suggestions: [
                                "\(module) declares \(key) with registerAbstract (\(site)), and no module of the "
                                    + "graph registers it: add the module that provides it to the ModuleAssembler."
                            ])
                    }
                }))
    }

    /// Declares that this module needs an optional service that another module of the graph may register.
    ///
    /// Checked like `registerAbstract(_:name:file:line:)`, with one difference: the placeholder used when the
    /// ``OverrideBehavior`` asks for placeholders resolves to `nil` rather than failing.
    ///
    /// ```swift
    /// container.registerAbstract(Analytics?.self)   // nil in tests that do not provide it
    /// ```
    ///
    /// - Parameters:
    ///   - type: The optional service another module must register (as `Wrapped?`).
    ///   - name: The registration's name, to declare a named one.
    ///   - file: The file of the declaration, for diagnostics.
    ///   - line: The line of the declaration, for diagnostics.
    public func registerAbstract<Wrapped>(
        _ type: Wrapped?.Type, name: String? = nil, file: String = #fileID,
        line: Int = #line
    ) {
        let key = ServiceKey(serviceType: Wrapped?.self, argumentsType: Void.self, name: name, argumentCount: 0)
        let site = RegistrationSite(file: file, line: line)
        declareAbstract(
            _AbstractRegistration(
                key: key, site: site, forward: Self.forwarder(Wrapped?.self),
                placeholder: { container, _ in
                    container.register(Wrapped?.self, name: name, file: site.file, line: site.line) { _ in nil }
                }))
    }

    /// The abstract registrations declared in this container, in order.
    var abstractRegistrations: [_AbstractRegistration] {
        extensionState(_AbstractRegistrations.self, default: _AbstractRegistrations()).declarations
    }

    private func declareAbstract(_ declaration: _AbstractRegistration) {
        updateExtensionState(_AbstractRegistrations.self, default: _AbstractRegistrations()) {
            $0.declarations.append(declaration)
        }
        // A module assembler reads the declarations of its modules only when one of them declared any.
        _moduleExporter(creating: false)?.graph?.noteAbstractDeclaration()
    }

    /// Registers a forwarding entry into the providing module's scope, told to the container's behaviors like any
    /// registration (so that the assembler's index offers it too).
    private static func forwarder<Service>(_: Service.Type)
        -> @Sendable (Container, any _AnyEntry, Container) -> Void
    {
        { container, entry, scope in
            let proxy = ServiceEntry<Service>(
                key: entry.key, forwardingTo: _ModuleExportEntry(target: entry, scope: scope),
                site: entry.site)
            proxy.container = container.registryOwner
            for behavior in container.add(proxy, key: proxy.key) ?? [] {
                behavior.container(container, didRegisterType: Service.self, toService: proxy, withName: entry.key.name)
            }
        }
    }
}
