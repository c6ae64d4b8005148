// Swinject's storage classes for custom object scopes. The built-in scopes keep their instances in the
// registration; a custom scope (`ObjectScope(storageFactory:description:parent:)`) keeps them in storage of these
// kinds, or of your own.

/// Keeps an instance for the duration of one graph.
public final class GraphStorage: InstanceStorage {
    var instances: [GraphIdentifier: Any] = [:]
    /// The instance of the most recent graph.
    public var instance: Any?

    /// Creates empty storage.
    public init() {}

    /// Forgets the instance of the finished graph.
    public func graphResolutionCompleted() { instance = nil }

    /// The instance stored for `graph`.
    public func instance(inGraph graph: GraphIdentifier) -> Any? { instances[graph] }

    /// Stores `instance` for `graph`.
    public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
        self.instance = instance
        instances[graph] = instance
        if instance == nil { instances[graph] = nil }
    }
}

/// Keeps an instance until it is reset.
public final class PermanentStorage: InstanceStorage {
    /// The stored instance.
    public var instance: Any?
    /// Creates empty storage.
    public init() {}
}

/// Keeps nothing: every resolve makes a new instance.
public final class TransientStorage: InstanceStorage {
    /// Always `nil`; assigning does nothing.
    public var instance: Any? {
        get { nil }
        set {}  // swiftlint:disable:this unused_setter_value
    }
    /// Creates the storage.
    public init() {}
}

/// Keeps a weak reference to a class instance.
public final class WeakStorage: InstanceStorage {
    private weak var object: AnyObject?
    /// The instance, while something else holds it.
    public var instance: Any? {
        get { object }
        set { object = newValue.map { $0 as AnyObject } }
    }
    /// Creates empty storage.
    public init() {}
}

/// Combines storages: reads the first that has an instance, writes to all.
public final class CompositeStorage: InstanceStorage {
    let components: [any InstanceStorage]

    /// The first component's instance that is present.
    public var instance: Any? {
        get { components.lazy.compactMap(\.instance).first }
        set { for component in components { component.instance = newValue } }
    }

    /// Creates storage over `components`, consulted in order.
    public init(_ components: [any InstanceStorage]) { self.components = components }

    /// Tells every component.
    public func graphResolutionCompleted() { for component in components { component.graphResolutionCompleted() } }

    /// Stores in every component.
    public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
        for component in components { component.setInstance(instance, inGraph: graph) }
    }

    /// The first component's instance for `graph`.
    public func instance(inGraph graph: GraphIdentifier) -> Any? {
        components.lazy.compactMap { $0.instance(inGraph: graph) }.first
    }
}

extension GraphStorage: _GraphScopedStorage {
    func _forget(_ graph: GraphIdentifier) { instances[graph] = nil }
}

extension CompositeStorage: _GraphScopedStorage {
    func _forget(_ graph: GraphIdentifier) {
        for case let component as any _GraphScopedStorage in components { component._forget(graph) }
    }
}
