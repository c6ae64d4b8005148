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

/// The storage a built-in scope's rule gives a custom scope that names it as its `parent` (the built-in scopes
/// themselves keep their instances in the registration, not in a storage): one class for every rule, so that the
/// core does not depend on Swinject's storage classes, which live in `Compatibility/`.
final class _RuleStorage: InstanceStorage, _GraphScopedStorage {
    enum Rule { case keep, keepNothing, keepWeakly, keepPerGraph }
    private let rule: Rule
    private var kept: Any?
    private weak var keptWeakly: AnyObject?
    private var perGraph: [GraphIdentifier: Any] = [:]

    init(_ rule: Rule) { self.rule = rule }

    var instance: Any? {
        get {
            switch rule {
            case .keep, .keepPerGraph: kept
            case .keepNothing: nil
            case .keepWeakly: keptWeakly
            }
        }
        set {
            switch rule {
            case .keep, .keepPerGraph: kept = newValue
            case .keepNothing: break
            case .keepWeakly: keptWeakly = newValue.map { $0 as AnyObject }
            }
        }
    }

    func graphResolutionCompleted() { if rule == .keepPerGraph { kept = nil } }

    func instance(inGraph graph: GraphIdentifier) -> Any? { rule == .keepPerGraph ? perGraph[graph] : instance }

    func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
        self.instance = instance
        if rule == .keepPerGraph { perGraph[graph] = instance }
    }

    func _forget(_ graph: GraphIdentifier) { perGraph[graph] = nil }
}

/// A custom scope's storage composed with its parent's: reads the first that has an instance, writes to both.
final class _StorageChain: InstanceStorage, _GraphScopedStorage {
    let components: [any InstanceStorage]

    init(_ components: [any InstanceStorage]) { self.components = components }

    var instance: Any? {
        get { components.lazy.compactMap(\.instance).first }
        set { for component in components { component.instance = newValue } }
    }

    func graphResolutionCompleted() { for component in components { component.graphResolutionCompleted() } }

    func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
        for component in components { component.setInstance(instance, inGraph: graph) }
    }

    func instance(inGraph graph: GraphIdentifier) -> Any? {
        components.lazy.compactMap { $0.instance(inGraph: graph) }.first
    }

    func _forget(_ graph: GraphIdentifier) {
        for case let component as any _GraphScopedStorage in components { component._forget(graph) }
    }
}
