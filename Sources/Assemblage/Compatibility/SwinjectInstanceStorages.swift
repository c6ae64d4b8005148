// Swinject's storage classes for custom object scopes. The built-in scopes keep their instances in the
// registration; a custom scope (`ObjectScope(storageFactory:description:parent:)`) keeps them in storage of these
// kinds, or of your own.

/// Keeps an instance for the duration of one graph.
public final class GraphStorage: InstanceStorage {
    /// The core's per-graph rule, which a custom scope over `.graph` uses too: one implementation of both.
    private let rule = _RuleStorage(.keepPerGraph)

    /// The instance of the most recent graph.
    public var instance: Any? {
        get { rule.instance }
        set { rule.instance = newValue }
    }

    /// Creates empty storage.
    public init() {}

    /// Forgets the instance of the finished graph.
    public func graphResolutionCompleted() { rule.graphResolutionCompleted() }

    /// The instance stored for `graph`.
    public func instance(inGraph graph: GraphIdentifier) -> Any? { rule.instance(inGraph: graph) }

    /// Stores `instance` for `graph`.
    public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
        rule.setInstance(instance, inGraph: graph)
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
    /// The core's chain, which a custom scope with a parent uses too: one implementation of both.
    private let chain: _StorageChain

    /// The first component's instance that is present.
    public var instance: Any? {
        get { chain.instance }
        set { chain.instance = newValue }
    }

    /// Creates storage over `components`, consulted in order.
    public init(_ components: [any InstanceStorage]) { chain = _StorageChain(components) }

    /// Tells every component.
    public func graphResolutionCompleted() { chain.graphResolutionCompleted() }

    /// Stores in every component.
    public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
        chain.setInstance(instance, inGraph: graph)
    }

    /// The first component's instance for `graph`.
    public func instance(inGraph graph: GraphIdentifier) -> Any? { chain.instance(inGraph: graph) }
}

extension GraphStorage: _GraphScopedStorage {
    func _forget(_ graph: GraphIdentifier) { rule._forget(graph) }
}

extension CompositeStorage: _GraphScopedStorage {
    func _forget(_ graph: GraphIdentifier) { chain._forget(graph) }
}
