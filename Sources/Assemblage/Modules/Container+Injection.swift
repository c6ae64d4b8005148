extension Container {
    /// Registers how to inject dependencies into objects of a type that the container never constructs:
    /// view controllers made by a storyboard, objects made per request by a framework.
    ///
    /// The steps run when someone calls ``Resolver/inject(into:name:)`` with such an object, with the
    /// scope of the registering container as their resolver (in a module graph: the registering module's
    /// scope, wherever `inject` was called from):
    ///
    /// ```swift
    /// container.registerInjection(for: ProfileViewController.self) { r, controller in
    ///     controller.viewModel = try r.require(ProfileViewModel.self)
    /// }
    /// .initCompleted { r, controller in controller.logger = r.resolve(Logger.self) }
    ///
    /// // Later, where the object is made:
    /// let controller = storyboard.instantiateInitialViewController() as! ProfileViewController
    /// try resolver.inject(into: controller)
    /// ```
    ///
    /// Injections are looked up by the object's static type as passed to `inject`, and by name; they are
    /// separate from ordinary registrations of the same type. Registering again under the same type and
    /// name replaces the earlier injection. Every call to `inject` is a resolution of its own: `.graph`
    /// services resolved by one call's steps are shared among those steps only.
    ///
    /// - Parameters:
    ///   - objectType: The type of the objects to inject into.
    ///   - name: A name that tells this injection from others for the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - injection: The first step: receives the resolver and the object, and may throw.
    /// - Returns: The injection, to add more steps with ``InjectionEntry/initCompleted(_:)``.
    @discardableResult
    public func registerInjection<Object: AnyObject>(
        for objectType: Object.Type,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        _ injection: @escaping @Sendable (any Resolver, Object) throws -> Void
    ) -> InjectionEntry<Object> {
        let entry = register(Object.self, name: name, file: file, line: line) {
            (_: any Resolver, target: _InjectionTarget<Object>) in target.object
        }
        entry.inObjectScope(.transient)
        entry.initCompleted(injection)
        return InjectionEntry(entry: entry)
    }
}

extension Resolver {
    /// Runs the injection steps registered for `Object` (see ``Container/registerInjection(for:name:file:line:_:)``)
    /// on an object made elsewhere.
    ///
    /// ```swift
    /// let controller = ProfileViewController(coder: coder)!
    /// try resolver.inject(into: controller)
    /// ```
    ///
    /// - Parameters:
    ///   - object: The object; its static type selects the injection.
    ///   - name: The injection's name; `nil` for the unnamed one.
    /// - Returns: `object`, for chaining.
    /// - Throws: ``ResolutionError`` with ``ResolutionError/Code/injectionNotRegistered`` when no injection is
    ///   registered for `Object` and `name`, or the failure of a step (a ``ResolutionError/Code/factoryFailed``
    ///   for a step that throws, a ``ResolutionError/Code/notRegistered`` for what a step cannot resolve, …,
    ///   with its resolution path). Steps before the failing one have run.
    @discardableResult
    public func inject<Object: AnyObject>(into object: Object, name: String? = nil) throws(ResolutionError) -> Object {
        let injection = ServiceKey(Object.self, name: name, argumentTypes: _InjectionTarget<Object>.self)
        let plain = ServiceKey(Object.self, name: name)
        do {
            return try _requireContainer(for: "inject(into:)")._resolve(
                Object.self, name: name, _InjectionTarget(object: object))
        } catch {
            let failure = _asResolutionError(error)
            if failure.code == .notRegistered && failure.key == injection {
                let type = _typeName(Object.self, qualified: false)
                let named = name.map { ", name: \"\($0)\"" } ?? ""
                throw ResolutionError(
                    code: .injectionNotRegistered, key: plain, path: [plain],
                    suggestions: ["container.registerInjection(for: \(type).self\(named)) { r, object in … }"])
            }
            // The injection's own key carries its internal argument; the object's type and name say the same.
            throw failure.replacingKey(injection, with: plain)
        }
    }
}

/// An injection registered with ``Container/registerInjection(for:name:file:line:_:)``; add more steps to it.
///
/// ```swift
/// container.registerInjection(for: SettingsViewController.self) { r, vc in vc.store = r.resolve(Store.self) }
///     .initCompleted { r, vc in vc.clock = r.resolve(Clock.self) }
/// ```
public struct InjectionEntry<Object: AnyObject>: Sendable {
    let entry: ServiceEntry<Object>

    /// Adds a step that runs after the earlier ones.
    ///
    /// ```swift
    /// injection.initCompleted { r, controller in controller.analytics = r.resolve(Analytics.self) }
    /// ```
    ///
    /// - Parameter step: Receives the resolver and the object; may throw.
    /// - Returns: The injection, for chaining.
    @discardableResult
    public func initCompleted(_ step: @escaping @Sendable (any Resolver, Object) throws -> Void) -> Self {
        entry.initCompleted(step)
        return self
    }

    /// The key of the object type and name this injection is for.
    public var key: ServiceKey { ServiceKey(Object.self, name: entry.key.name) }
}

/// The runtime argument that carries the object into its injection registration.
struct _InjectionTarget<Object: AnyObject> {
    let object: Object
}
