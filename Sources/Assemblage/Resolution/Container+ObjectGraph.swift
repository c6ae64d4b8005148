extension Container {
    /// The identifier of the object graph being resolved on the calling thread, or `nil` outside a resolution.
    ///
    /// Every top-level `resolve` or `require` is one object graph: the ``ObjectScope/graph`` instances made in it
    /// are shared by all its nested resolves. Read inside a factory or an `initCompleted` step, this names that
    /// graph; the same graph can be entered again later with ``withObjectGraph(_:closure:)``, which finds the
    /// graph's `.graph` instances that are still alive. Resolving `GraphIdentifier` itself inside a factory
    /// gives the same value (as in Swinject).
    ///
    /// ```swift
    /// container.register(Session.self) { r in
    ///     Session(graph: (r as! Container).currentObjectGraph!)   // or r.resolve(GraphIdentifier.self)!
    /// }
    /// ```
    ///
    /// Resolution state belongs to the thread, not to the container: while a thread resolves, every container
    /// answers with that thread's graph, and graphs resolved on different threads at the same time have
    /// different identifiers. Outside a resolution (and outside ``withObjectGraph(_:closure:)``) it is `nil`.
    ///
    /// Identifiers are made only when asked for: a graph whose identifier is never read costs nothing more.
    /// A graph whose identifier was read keeps its class instances weakly after it ends, until they are
    /// released (see ``withObjectGraph(_:closure:)``).
    public var currentObjectGraph: GraphIdentifier? { _ResolutionState.identifiedGraph() }

    /// Runs `closure` in an earlier object graph: its `.graph` instances that are still alive are resolved again,
    /// and the instances made inside are shared by every resolve of the closure.
    ///
    /// Swinject-compatible. The identifier comes from a resolution of that graph (``currentObjectGraph``, or
    /// resolving `GraphIdentifier` inside a factory). The closure's resolves form one graph, as if they were the
    /// nested resolves of one top-level resolve; afterwards, what they made is remembered under `identifier` too,
    /// so that a later call finds it.
    ///
    /// ```swift
    /// container.register(Document.self) { _ in Document() }     // .graph, the default
    /// container.register(Editor.self) { r in
    ///     Editor(graph: r.resolve(GraphIdentifier.self)!, document: r.resolve(Document.self)!)
    /// }
    /// let editor = container.resolve(Editor.self)!
    /// container.withObjectGraph(editor.graph) { container in
    ///     container.resolve(Document.self)! === editor.document   // true: the editor's graph, still alive
    /// }
    /// ```
    ///
    /// An earlier graph keeps its class instances weakly: an instance is found again only while something else
    /// holds it, and value types are not kept (as in Swinject). Graphs belong to the calling thread; inside a
    /// resolution of another graph, that graph is set aside while `closure` runs and goes on afterwards.
    ///
    /// - Parameters:
    ///   - identifier: The graph to resolve in.
    ///   - closure: Receives this container; its resolves run in the graph.
    /// - Returns: What `closure` returns.
    /// - Throws: What `closure` throws.
    public func withObjectGraph<T>(_ identifier: GraphIdentifier, closure: (Container) throws -> T) rethrows -> T {
        try _ResolutionState.withGraph(identifier) { try closure(self) }
    }

    /// Makes the next top-level resolution on the calling thread run in object graph `identifier` (Swinject's
    /// internal hook, which its test suite uses through `@testable import`).
    ///
    /// The graph's remembered instances are held from this call until that resolution ends; until it starts,
    /// ``currentObjectGraph`` is still `nil`. A resolve that returns a shared (`.container`, `.singleton`)
    /// instance already made does not look at graphs and leaves the restore for the next one. Call it outside
    /// any resolution; ``withObjectGraph(_:closure:)`` is the scoped form.
    func restoreObjectGraph(_ identifier: GraphIdentifier) {
        _ResolutionState.restoreGraph(identifier)
    }
}
