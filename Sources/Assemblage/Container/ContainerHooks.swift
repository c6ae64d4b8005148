// What a container tells, and whom: its behaviors (observers among them), the Swinject debug hook, and the state
// that layers above the core keep per container. And what kind of container it is: a container, a synchronized
// view, or a scope's view.

/// The objects and state that layers above the core hang on a container (part of its ``_Registry``, guarded by
/// the registry's writer lock).
struct _ContainerHooks {
    /// Objects told about each registration (``Behavior``), and the core's hooks that are behaviors: module
    /// scopes, ``ContainerObserver``s.
    private(set) var behaviors: [any Behavior] = []
    /// The behaviors that are ``ContainerObserver``s, in the order they were added: kept apart so that ending a
    /// scope casts no behavior.
    private(set) var observers: [any ContainerObserver] = []
    /// State that layers above the core keep per container (the property layer's), keyed by a type of theirs.
    /// Values: a validation sandbox copies them into its mirror.
    var extensionStorage: [ObjectIdentifier: any Sendable] = [:]
    /// Told about resolutions that find no registration (Swinject's internal hook; set only by its initializer).
    var debugHelper: (any DebugHelper)?

    /// Adds `behavior`; returns whether it is an observer.
    mutating func add(_ behavior: any Behavior) -> Bool {
        behaviors.append(behavior)
        return keepIfObserver(behavior)
    }

    /// Adds `added` in order; returns whether any is an observer. A new container's behaviors are taken as they
    /// come (one array, not one grown element by element); with `checkingObservers` false, the caller knows that
    /// none is an observer and no type is tested.
    mutating func add(contentsOf added: [any Behavior], checkingObservers: Bool) -> Bool {
        guard !added.isEmpty else { return false }
        if behaviors.isEmpty {
            behaviors = added
        } else {
            behaviors += added
        }
        guard checkingObservers else { return false }
        var observes = false
        for behavior in added {
            if keepIfObserver(behavior) { observes = true }
        }
        return observes
    }

    /// Adds `behavior` to ``observers`` when it is one; returns whether it was.
    private mutating func keepIfObserver(_ behavior: any Behavior) -> Bool {
        guard Self.isObserver(type(of: behavior)), let observer = behavior as? any ContainerObserver else {
            return false
        }
        observers.append(observer)
        return true
    }

    /// Whether values of `type` are observers, remembered by type: a module makes containers with a behavior of
    /// its own, and the runtime's failing cast to `any ContainerObserver` costs that every time.
    private static func isObserver(_ type: any Behavior.Type) -> Bool {
        observerTypes.withLock { known in
            let id = ObjectIdentifier(type)
            if let observes = known[id] { return observes }
            let observes = type is any ContainerObserver.Type
            known[id] = observes
            return observes
        }
    }

    /// Behavior types seen, and whether each observes.
    private static let observerTypes = _Locked<[ObjectIdentifier: Bool]>([:])

    /// The behaviors that adopt `Hook` (a protocol the core owns), in order.
    func behaviors<Hook>(adopting _: Hook.Type) -> [Hook] { behaviors.compactMap { $0 as? Hook } }
}

/// What kind of container a `Container` is: one that holds registrations, or one of the two views of another.
@usableFromInline
enum _ContainerRole {
    /// A container.
    case container
    /// The view `synchronize()` returns: the recursive lock every resolve through it holds, as in Swinject.
    case synchronizedView(_Lock)
    /// The view a ``Scope`` resolves through, and the scope's instances.
    case scopeView(_ScopeStorage)
}

extension Container {
    /// For the view a ``Scope`` resolves through: the scope's instances (nil for every other container).
    @inlinable @inline(__always)
    final var scopeStorage: _ScopeStorage? {
        if case .scopeView(let storage) = role { return storage }
        return nil
    }

    /// For the view `synchronize()` returns: the recursive lock every resolve through it holds (nil for every
    /// other container, which resolves without a lock).
    final var serialization: _Lock? {
        if case .synchronizedView(let lock) = role { return lock }
        return nil
    }

    /// Whether this is the view `synchronize()` returns (a test of the role's case, without taking its lock out).
    @inline(__always)
    final var isSynchronizedView: Bool {
        if case .synchronizedView = role { return true }
        return false
    }

    /// The behaviors that observe this container (the scope's container's, for a scope: they share the
    /// registry). One atomic load when there are none.
    var observers: [any ContainerObserver] {
        guard registry.isObserved else { return [] }
        return writer.withLock { hooks.observers }
    }

    /// The behaviors that adopt `Hook` (a protocol the core owns), to notify outside the writer lock.
    func behaviors<Hook>(adopting hook: Hook.Type) -> [Hook] {
        writer.withLock { hooks.behaviors(adopting: hook) }
    }

    /// Adds an object to be told about every later registration.
    ///
    /// - Parameter behavior: The behavior.
    public func addBehavior(_ behavior: any Behavior) {
        if writer.withLock({ addBehaviorLocked(behavior) }) { registry.markObserved() }
    }

    /// Adds `behavior` to the hooks and to the registry's copy of them (call under the writer lock); returns
    /// whether it is an observer.
    func addBehaviorLocked(_ behavior: any Behavior) -> Bool {
        defer { registry.behaviors = hooks.behaviors }
        return hooks.add(behavior)
    }
}
