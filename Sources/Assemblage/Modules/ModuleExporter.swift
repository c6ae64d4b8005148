// How a module's registrations stay in the module's scope.
//
// Each module registers into its *scope* (`Container(label: "FeedModule")`, marked `isModuleScope`), which falls back
// to the scopes of the modules it depends on, in declared order; the assembler's resolver falls back to every
// module's scope. A lookup that starts in one container and finds a registration of a module's scope (a dependency's,
// or any module's from the assembler's resolver) does not resolve it where it started, as a plain fallback would
// (Swinject's overlay semantics: a dependency's factory would then see whatever the dependent or the app root
// registers), but through the registration's export forwarder, which resolves it *with the module's scope as the
// resolver* (Unsafe/Fallbacks.swift, `_Fallbacks.found`). So every factory runs in its own module's scope, wherever
// the resolution started. A forwarder is made the first time a lookup from elsewhere finds its registration and
// kept by it (`ServiceEntry._exportForwarder(in:)`): a module costs its scope, not a second container of forwarders.
//
// A scope searches its whole closure, depth-first in declared order, while each module lists only its own
// dependencies; the core's search stops probing a container reached twice (a diamond) once it has probed more than
// a few, so a miss stays linear in the size of the closure. Collections and decorators are read from the scopes
// along the same walk (`Container.lookupChain()`), and a module's collection elements resolve in it the same way.
//
// The behavior below keeps the assembler's index of every module's registrations current as a module registers
// (`_FallbackIndex`), so registrations made after assembly (in `loaded`, or by contributions) are found too.

/// What every module scope (and the resolver) of one module assembler shares, held once rather than by each module:
/// its module graph, weakly (the graph keeps the containers alive), the graph's tree, the index of its modules'
/// registrations, and where its own registrations end.
final class _ModuleGraphShared: @unchecked Sendable {
    // @unchecked Sendable: `graph` is a weak reference written only in `init`; the rest is immutable.

    /// The module graph (weak: the graph keeps the containers alive).
    private(set) weak var graph: _ModuleGraphContext?
    /// The graph's module tree, kept by value so that a resolver still tells how its modules were pulled in after
    /// the assembler that planned them is gone.
    let tree: ModuleTree?
    /// The index of the modules' registrations that the resolver's fallback list searches (see ``_FallbackIndex``),
    /// or nil. It holds registrations, never a container, so holding it here makes no cycle.
    let index: _FallbackIndex?
    /// Where the assembler's own registrations end (see ``_AssemblerParent``).
    let assemblerParent: _AssemblerParent

    init(graph: _ModuleGraphContext?, index: _FallbackIndex?, assemblerParent: _AssemblerParent) {
        self.graph = graph
        tree = graph?.tree
        self.index = index
        self.assemblerParent = assemblerParent
    }
}

/// What Assemblage attaches to a container that needs more than the core keeps: a module's name, its position and
/// what its assembler's modules share. Stored as a `Behavior` of the container.
final class _ModuleExporter: Behavior, _MissingRegistrationHints, _OwnedContainers, Sendable {
    /// The module's type, or nil for a container that is not a module's scope.
    let moduleType: _ModuleType?
    /// What the modules of this scope's assembler share, or nil for a container no assembler made.
    let shared: _ModuleGraphShared?
    /// This module's position in assembly order (0 outside an assembler).
    let position: Int
    /// For an assembler's root: its modules' scopes, dependents first, shut down after the root (their instances
    /// are the ones the root's resolves return, and a dependent's may use its dependencies' as it is disposed).
    /// The root's fallback list holds them in assembly order, dependencies first; held here too, they go away
    /// dependents first once both have let go (a container's fallbacks before its behaviors), so that freeing one
    /// module's scope frees none of the scopes it falls back to, and a deep graph is not torn down recursively.
    let ownedContainers: [Container]

    init(
        module: _ModuleType?, shared: _ModuleGraphShared?, position: Int = 0, scopesDependentsFirst: [Container] = []
    ) {
        moduleType = module
        self.shared = shared
        self.position = position
        ownedContainers = scopesDependentsFirst
    }

    /// The module's type name (spelled when asked), or nil for a container that is not a module's scope.
    var module: String? { moduleType?.name }
    /// The module graph this scope belongs to, while it exists.
    var graph: _ModuleGraphContext? { shared?.graph }
    /// The module tree of this scope's assembler.
    var tree: ModuleTree? { shared?.tree }
    /// Where the assembler's own registrations end: recorded on the root and the modules' scopes of an assembler,
    /// unrecorded elsewhere.
    var assemblerParent: _AssemblerParent { shared?.assemblerParent ?? .unrecorded }

    /// Offers a new registration to the assembler's index: the entry the scope's table now holds for the type and
    /// name (`entry` itself, unless it was registered under another type by `forward(_:name:to:)`).
    func container<Type, Service>(
        _ container: Container, didRegisterType type: Type.Type,
        toService entry: ServiceEntry<Service>, withName name: String?
    ) {
        guard let exportIndex = shared?.index else { return }
        if Type.self == Service.self, name == entry.key.name {
            exportIndex.offer(entry, key: entry.key, position: position)
            return
        }
        let key = ServiceKey(
            serviceType: Type.self, argumentsType: entry.key.argumentsType, name: name,
            argumentCount: entry.key.argumentCount)
        guard let added = container.ownEntry(for: key) else { return }
        exportIndex.offer(added, key: key, position: position)
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
            let scope = _ModuleExporter(module: nil, shared: nil)
            _ = addBehaviorLocked(scope)
            return scope
        }
    }
}
