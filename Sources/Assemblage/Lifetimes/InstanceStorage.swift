import _AssemblageShims

/// Identifies one top-level resolution (an object graph).
///
/// Read it inside a factory with ``Container/currentObjectGraph`` or by resolving `GraphIdentifier`, and enter
/// the same graph again later with ``Container/withObjectGraph(_:closure:)``. Custom ``InstanceStorage`` types
/// receive it to keep an instance per graph.
///
/// ```swift
/// container.register(Editor.self) { r in
///     Editor(graph: r.resolve(GraphIdentifier.self)!, document: r.resolve(Document.self)!)
/// }
/// ```
///
/// Minted from a process-wide counter when first asked for, so making one costs no system call and no random
/// number, and a graph whose identifier nobody asks for has none.
public struct GraphIdentifier: Hashable, Sendable, Identifiable {
    /// The graph's number, unique within the process.
    public let id: UInt64

    init() { id = _Counter.next() }
}

/// Keeps the instances of one registration in a custom ``ObjectScope``.
///
/// Swinject-compatible. Assemblage calls a storage only while it holds its creation lock, so an
/// implementation needs no locking of its own.
public protocol InstanceStorage: AnyObject {
    /// The stored instance, if any.
    var instance: Any? { get set }
    /// Called when a top-level resolution that touched this storage ends.
    func graphResolutionCompleted()
    /// The instance stored for the given graph, if any.
    func instance(inGraph graph: GraphIdentifier) -> Any?
    /// Stores an instance for the given graph.
    func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier)
}

extension InstanceStorage {
    /// Does nothing by default.
    public func graphResolutionCompleted() {}
    /// Returns ``instance`` by default, ignoring the graph.
    public func instance(inGraph _: GraphIdentifier) -> Any? { instance }
    /// Sets ``instance`` by default, ignoring the graph.
    public func setInstance(_ instance: Any?, inGraph _: GraphIdentifier) { self.instance = instance }
}

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
        set { components.forEach { $0.instance = newValue } }
    }

    /// Creates storage over `components`, consulted in order.
    public init(_ components: [any InstanceStorage]) { self.components = components }

    /// Tells every component.
    public func graphResolutionCompleted() { components.forEach { $0.graphResolutionCompleted() } }

    /// Stores in every component.
    public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
        components.forEach { $0.setInstance(instance, inGraph: graph) }
    }

    /// The first component's instance for `graph`.
    public func instance(inGraph graph: GraphIdentifier) -> Any? {
        components.lazy.compactMap { $0.instance(inGraph: graph) }.first
    }
}
