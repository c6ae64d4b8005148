// How a module's registrations stay in the module's scope.
//
// Each module has two containers:
// - its *scope* (`Container(label: "FeedModule")`): the module registers into it, and it falls back to the
//   exports of the modules it depends on, in declared order;
// - its *exports* (`"FeedModule (exports)"`): one forwarding entry per registration of the scope. A forwarding
//   entry resolves its registration *with the module's scope as the resolver*, wherever the lookup started.
//   The exports of a module that another depends on other than last also fall back to the module's own list
//   (see `ModuleAssembler.wire`).
//
// A plain fallback would run a dependency's factory with the resolver where the lookup started (Swinject's
// overlay semantics), so a module's factories would see whatever the dependent or the app root registers.
// Going through exports keeps every factory in its own module's scope. A scope searches the exports of its
// whole closure, depth-first in declared order, while each module lists only its own dependencies; the core's
// search stops probing a container reached twice (a diamond) once it has probed more than a few, so a miss
// stays linear in the size of the closure.
//
// The exports are filled by a `Behavior` on the scope (`_ModuleExporter`), so registrations made after
// assembly (in `loaded`, or by contributions) are exported too.

/// What Assemblage attaches to a container that needs more than the core keeps: a module's name, its
/// exports and its module graph. Stored as a `Behavior` of the container.
final class _ModuleExporter: Behavior, _ContributionHooks, _MissingRegistrationHints, _OwnedContainers,
    @unchecked Sendable
{
    // @unchecked Sendable: `module` is immutable; `exports` and `graph` are weak references written only
    // in `init`.

    /// The module's type name, or nil for a container that is not a module's scope.
    let module: String?
    /// Where this scope's registrations are exported (weak: the exports' entries keep the scope alive).
    private(set) weak var exports: Container?
    /// The module graph this scope belongs to (weak: the graph keeps the containers alive).
    private(set) weak var graph: _ModuleGraphContext?
    /// The graph's module tree, kept by value so that a resolver still tells how its modules were pulled in after
    /// the assembler that planned them is gone (the tree's arrays are shared, not copied, between the modules).
    let tree: ModuleTree?

    /// The assembler's export index (weak: the root's fallback list owns it, and it holds this module's
    /// exports) and this module's position in assembly order.
    private(set) weak var exportIndex: _FallbackIndex?
    let position: Int
    /// For an assembler's root: its modules' exports, dependents first. The root's fallback list holds them in
    /// assembly order, dependencies first; held here too, they go away dependents first once both have let go
    /// (a container's fallbacks before its behaviors), so that freeing one module's exports frees none of the
    /// exports it falls back to, and a deep graph is not torn down recursively.
    private let exportsDependentsFirst: [Container]
    /// For an assembler's root: its modules' scopes, dependents first, shut down after the root (their instances
    /// are the ones the root's resolves return, and a dependent's may use its dependencies' as it is disposed).
    let ownedContainers: [Container]
    /// Where the assembler's own registrations end (see ``_AssemblerParent``): recorded on the root and the
    /// modules' scopes of an assembler, unrecorded elsewhere.
    let assemblerParent: _AssemblerParent

    init(
        module: String?, exports: Container?, graph: _ModuleGraphContext?,
        index: (index: _FallbackIndex, position: Int)? = nil, exportsDependentsFirst: [Container] = [],
        scopesDependentsFirst: [Container] = [], assemblerParent: _AssemblerParent = .unrecorded
    ) {
        ownedContainers = scopesDependentsFirst
        self.assemblerParent = assemblerParent
        self.module = module
        self.exports = exports
        self.graph = graph
        tree = graph?.tree
        exportIndex = index?.index
        position = index?.position ?? 0
        self.exportsDependentsFirst = exportsDependentsFirst
    }

    /// Exports a new registration: a forwarding entry that resolves it in this module's scope.
    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {
        guard let exports else { return }
        let key = ServiceKey(
            serviceType: Type.self, argumentsType: entry.key.argumentsType, name: name,
            argumentCount: entry.key.argumentCount)
        let export = _ModuleExportEntry(target: entry.erased, scope: container, position: position)
        let proxy = ServiceEntry<Type>(
            key: key, forwardingTo: export, site: entry.site, typedExport: Type.self == Service.self ? export : nil)
        // No owner: an export only forwards, holds no instance and is never configured, so nothing asks it for its
        // container, and the exports container needs no owner token (one allocation fewer per module).
        _ = exports.add(proxy, key: key)
        exportIndex?.offer(proxy, key: key, position: position)
    }

    /// Exports a collection element: a forwarding element that resolves it in this module's scope, so that
    /// dependents and the assembler's resolver gather it.
    func container<Service>(
        _ container: Container, didRegisterElement entry: ServiceEntry<Service>, name: String?,
        priority: Int
    ) {
        guard let exports else { return }
        let proxy = ServiceEntry<Service>(
            key: entry.key, forwardingTo: _ModuleExportEntry(target: entry, scope: container),
            site: entry.site)  // no owner, as above
        exports.writer.withLock {
            exports.records.collectionElements[ObjectIdentifier(Service.self), default: []]
                .append(_CollectionElement(entry: proxy, name: name, priority: priority))
        }
    }

    /// Exports a decorator, so that it also wraps the registrations of the modules that depend on this one
    /// (their scopes fall back to these exports). It still receives the scope resolving the decorated
    /// registration, which sees everything this module sees.
    func container(_ container: Container, didAddDecorator record: _DecoratorRecord) {
        guard let exports else { return }
        exports.writer.withLock {
            exports.records.decorators[ObjectIdentifier(record.serviceType), default: []].append(record)
        }
    }

    /// Names the modules of the graph that register `key` when this module cannot see it: the module lacks
    /// a dependency (what ``ModuleAssembler/validate(_:)`` reports as an undeclared dependency).
    func hints(forMissing key: ServiceKey, in container: Container) -> [String] {
        guard let module, let graph else { return [] }
        return graph.modules(registering: key).filter { $0.container !== container }.map { owner in
            "\(owner.name) registers \(key), but \(module) does not depend on \(owner.name): add "
                + "\(owner.name).self to \(module).dependencies."
        }
    }

}

/// A registration to create when its module assembler finishes (see ``ServiceEntry/eager()``).
struct _EagerService: Sendable {
    let key: ServiceKey
    let create: @Sendable (Container) throws -> Void
}

/// The registrations of a container marked with ``ServiceEntry/eager()``, in the order they were marked, each
/// once. Kept in the container's extension state, so that the many containers with none keep nothing for them.
struct _EagerServices: Sendable {
    var services: [_EagerService] = []
}

extension Container {
    /// Creates every eager registration of this container; returns the failures, in order.
    func _createEagerServices() -> [(key: ServiceKey, error: ResolutionError)] {
        var failures: [(key: ServiceKey, error: ResolutionError)] = []
        for service in extensionState(_EagerServices.self, default: _EagerServices()).services {
            do {
                try service.create(self)
            } catch {
                failures.append((service.key, _asResolutionError(error)))
            }
        }
        return failures
    }
}

extension Container {
    /// This container's ``_ModuleExporter``; with `creating`, one is attached when there is none.
    func _moduleExporter(creating: Bool) -> _ModuleExporter? {
        writer.withLock {
            if let scope = hooks.behaviors.lazy.compactMap({ $0 as? _ModuleExporter }).first { return scope }
            guard creating else { return nil }
            let scope = _ModuleExporter(module: nil, exports: nil, graph: nil)
            _ = addBehaviorLocked(scope)
            return scope
        }
    }
}
