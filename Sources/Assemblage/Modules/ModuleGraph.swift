/// A module type as a value.
struct _ModuleType: @unchecked Sendable, Hashable {
    // @unchecked Sendable: a metatype is an immutable, process-wide value; `any ModuleAssembly.Type` is not
    // marked Sendable.
    let type: any ModuleAssembly.Type

    init(_ type: any ModuleAssembly.Type) { self.type = type }

    var id: _IdentityKey { _IdentityKey(type) }
    /// The type's name as `String(describing:)` spells it, without the dynamic casts that `String(describing:)`
    /// makes first (each first cast of a type scans every protocol conformance in the process).
    var name: String { _typeName(type, qualified: false) }
    var replaces: [_ModuleType] { type.replaces.map(_ModuleType.init) }

    static func == (lhs: _ModuleType, rhs: _ModuleType) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// One assembled module: its type, its scope and its dependencies.
final class _ModuleRecord: Sendable {
    let type: _ModuleType
    /// The module's type name (spelled when asked: diagnostics, not assembly).
    var name: String { type.name }
    /// Where the module registers, and what ``ModuleAssembler/resolver(for:)`` returns.
    let container: Container
    /// The modules it depends on, in declared order (after replacements).
    let dependencies: [_ModuleRecord]
    let scope: _ModuleExporter

    init(
        type: _ModuleType, container: Container, dependencies: [_ModuleRecord], scope: _ModuleExporter
    ) {
        self.type = type
        self.container = container
        self.dependencies = dependencies
        self.scope = scope
    }
}

/// What the modules of one assembler share at run time: where contributions go, and the warnings.
final class _ModuleGraphContext: Sendable {
    private struct State {
        /// Every module type asked for in the graph → the module standing for it (the assembler's index, shared).
        var dynamicTargets: [_IdentityKey: _ModuleRecord] = [:]
        /// Every module assembled here, in assembly order: its type name and its scope.
        var modules: [_ModuleRecord] = []
        var warnings: [ModuleAssemblyError.Problem] = []
        /// Whether a module of this graph declared an abstract registration.
        var declaresAbstractRegistrations = false
        /// Whether a module of this graph marked a registration eager.
        var hasEagerRegistrations = false
    }
    private let state = _Locked(State())
    /// How the assembler pulled each module in.
    let tree: ModuleTree

    init(tree: ModuleTree) { self.tree = tree }

    func install(dynamicTargets: [_IdentityKey: _ModuleRecord]) {
        state.withLock { $0.dynamicTargets = dynamicTargets }
    }

    func install(modules: [_ModuleRecord]) {
        state.withLock { $0.modules = modules }
    }

    /// The modules of this graph whose own scope registers `key`, in assembly order.
    func modules(registering key: ServiceKey) -> [(name: String, container: Container)] {
        state.withLock { $0.modules }.filter { $0.container.registersOwn(key) }.map { ($0.name, $0.container) }
    }

    func dynamicTarget(for id: _IdentityKey) -> Container? {
        state.withLock { $0.dynamicTargets[id]?.container }
    }

    func warn(_ problem: ModuleAssemblyError.Problem) {
        state.withLock { state in
            if !state.warnings.contains(problem) { state.warnings.append(problem) }
        }
    }

    var warnings: [ModuleAssemblyError.Problem] { state.withLock { $0.warnings } }

    /// Records that a module of this graph declared an abstract registration.
    func noteAbstractDeclaration() { state.withLock { $0.declaresAbstractRegistrations = true } }

    /// Whether a module of this graph declared an abstract registration (see `noteAbstractDeclaration()`).
    var declaresAbstractRegistrations: Bool { state.withLock { $0.declaresAbstractRegistrations } }

    /// Records that a module of this graph marked a registration eager.
    func noteEagerRegistration() { state.withLock { $0.hasEagerRegistrations = true } }

    /// Whether a module of this graph marked a registration eager (see `noteEagerRegistration()`).
    var hasEagerRegistrations: Bool { state.withLock { $0.hasEagerRegistrations } }
}

/// The module graph as planned before anything is registered: which module stands for each type asked
/// for, how each was made, the assembly order, and every problem found.
struct _ModulePlan {
    enum Source {
        /// Assembled by this assembler, from this instance.
        case instance(any ModuleAssembly)
        /// Already assembled by a parent assembler.
        case parent(_ModuleRecord)
    }

    struct Node {
        let type: _ModuleType
        let source: Source
        /// Whether ``source`` is an instance this assembler assembles: tested often, and matching the enum copies
        /// its existential payload through the runtime's generic witnesses.
        let isInstance: Bool
        /// The node whose dependency first reached it (nil for a module passed in): its path from the roots
        /// is rebuilt from these links when a problem needs it, so a chain of n modules keeps n links
        /// rather than n paths of up to n names.
        let parent: Int?
        /// Its dependencies (node indices), in declared order, after replacements, each once.
        var dependencies: [Int] = []

        /// The module's type name (spelled when asked: the tree and diagnostics, not assembly).
        var name: String { type.name }

        init(type: _ModuleType, source: Source, parent: Int?) {
            self.type = type
            self.source = source
            if case .instance = source { isInstance = true } else { isInstance = false }
            self.parent = parent
        }
    }

    var nodes: [Node] = []
    /// The nodes this assembler assembles, dependencies first.
    var order: [Int] = []
    /// Every module type asked for (passed in, declared, or replaced) → the node that stands for it.
    var requested: [_IdentityKey: Int] = [:]
    /// Every replacement known when the walk ended: base type → replacing type.
    var replacements: [_IdentityKey: _ModuleType] = [:]
    var problems: [ModuleAssemblyError.Problem] = []
    var warnings: [ModuleAssemblyError.Problem] = []
    /// How each module asked for was pulled in (set when the walk has ended).
    var tree = ModuleTree.empty

    /// The names from a module passed in to `node`, root first (a loop over the parent links).
    func path(to node: Int) -> [String] {
        var names: [String] = []
        var current: Int? = node
        while let index = current {
            names.append(nodes[index].name)
            current = nodes[index].parent
        }
        return names.reversed()
    }

    /// Plans the graph of `inputs`.
    ///
    /// Replacements come from the modules passed in and from every module the walk reaches, as it reaches
    /// them. When the walk finds a replacement of a module it has already met, it starts again (each restart
    /// adds a replacement, and there are finitely many module types, so this ends); otherwise one walk does.
    ///
    /// - Complexity: O(modules + dependencies) per walk; no recursion, whatever the depth of the graph.
    static func make(
        _ inputs: [any ModuleAssembly], usesDefaultOverrides: Bool,
        parent: ModuleAssembler?
    ) -> _ModulePlan {
        var problems = _Problems()
        var explicit: [_IdentityKey: any ModuleAssembly] = [:]
        var roots: [_ModuleType] = []
        for module in inputs {
            let type = _ModuleType(Swift.type(of: module))
            guard explicit[type.id] == nil else {
                problems.add(.init(.duplicateModule, module: type.name, path: [type.name]))
                continue
            }
            explicit[type.id] = module
            roots.append(type)
        }
        var replacements = _Replacements()
        for root in roots {
            for base in root.replaces where base != root {
                _ = replacements.add(base, by: root, path: [root.name], problems: &problems)
            }
        }
        var walk: _Walk
        repeat {
            walk = _Walk(explicit: explicit, usesDefaultOverrides: usesDefaultOverrides, parent: parent)
            for root in roots { walk.walk(from: root, replacements: &replacements, problems: &problems) }
        } while walk.needsRestart
        var plan = walk.plan
        // The walk reports a module that replaces itself when it reaches it; a module passed in that another
        // replaces is not reached, so it is reported here.
        for root in roots where root.replaces.contains(root) && !plan.nodes.contains(where: { $0.type == root }) {
            problems.add(.init(.replacesItself, module: root.name, path: [root.name]))
        }
        plan.replacements = replacements.map
        // A conflict is found where a second replacement is declared; report it on the path from the roots
        // to the replaced module, like every other problem (the walk knows that path only when it has ended).
        plan.problems = (problems.list + walk.problems.list).map { problem in
            guard problem.code == .conflictingReplacements, let base = replacements.conflictBases[problem.module]
            else { return problem }
            let path = walk.path(toRequested: base) ?? problem.path + [problem.module]
            return .init(.conflictingReplacements, module: problem.module, path: path, related: problem.related)
        }
        for root in roots {
            for base in root.replaces where base != root && plan.requested[base.id] == nil {
                plan.warnings.append(
                    .init(
                        .unusedReplacement, module: base.name, path: [root.name],
                        related: [root.name]))
            }
        }
        plan.tree = walk.tree(inputs: roots)
        return plan
    }
}

/// Problems, each reported once.
struct _Problems {
    private(set) var list: [ModuleAssemblyError.Problem] = []
    private var seen: Set<String> = []

    mutating func add(_ problem: ModuleAssemblyError.Problem, identity: String? = nil) {
        if seen.insert(identity ?? "\(problem.code)|\(problem.module)").inserted { list.append(problem) }
    }
}

/// Which module replaces which: base type → replacement.
struct _Replacements {
    private(set) var map: [_IdentityKey: _ModuleType] = [:]
    private var replacers: [_IdentityKey: [String]] = [:]
    /// The modules replaced by more than one module: name → type identifier.
    private(set) var conflictBases: [String: _IdentityKey] = [:]

    /// Records that `replacement` replaces `base`; returns whether this is new. A second, different
    /// replacement of the same base is a problem.
    mutating func add(
        _ base: _ModuleType, by replacement: _ModuleType, path: @autoclosure () -> [String],
        problems: inout _Problems
    ) -> Bool {
        guard let existing = map[base.id] else {
            map[base.id] = replacement
            replacers[base.id] = [replacement.name]
            return true
        }
        if existing != replacement, !(replacers[base.id] ?? []).contains(replacement.name) {
            replacers[base.id, default: []].append(replacement.name)
            conflictBases[base.name] = base.id
            problems.add(
                .init(
                    .conflictingReplacements, module: base.name, path: path(),
                    related: replacers[base.id] ?? []),
                identity: "conflict|\(base.name)|\(replacement.name)")
        }
        return false
    }
}

/// One depth-first walk of the graph from the modules passed in.
///
/// The post-order of the walk is the assembly order: every module comes after its dependencies, and
/// among modules that do not depend on each other, the one reached first (by input order, then by
/// declaration order of dependencies) comes first. A dependency on a module still on the walk's stack is a
/// cycle. The walk keeps its own stack of frames, so its depth is bounded by memory, not by the thread's
/// stack.
struct _Walk {
    /// The module chosen to stand for a module type asked for, and where it comes from. A struct rather than a
    /// tuple: an optional tuple with an existential inside is copied through the runtime's generic witnesses.
    struct Choice {
        let type: _ModuleType
        let source: _ModulePlan.Source

        init(_ type: _ModuleType, _ source: _ModulePlan.Source) {
            self.type = type
            self.source = source
        }
    }

    let explicit: [_IdentityKey: any ModuleAssembly]
    let usesDefaultOverrides: Bool
    let parent: ModuleAssembler?

    var plan = _ModulePlan()
    var problems = _Problems()
    /// Set when a module reached declares a new replacement of a module this walk has already met.
    private(set) var needsRestart = false
    private var nodeByType: [_IdentityKey: Int] = [:]
    /// A module type asked for: the node whose dependency first asked for it (nil for one passed in), and the
    /// module chosen to stand for it (nil when none can).
    private struct Request {
        let parent: Int?
        let type: _ModuleType
        let choice: Choice?
    }
    /// Every module type asked for, with how it was first asked for and what was chosen for it: one table for both,
    /// since every request needs both.
    private var requests: [_IdentityKey: Request] = [:]
    /// The module types in the order they were first asked for, each with the node that first asked for it.
    private var requestOrder: [(id: _IdentityKey, parent: Int?, type: _ModuleType)] = []

    /// How each module asked for was pulled in, and which module of this assembler stands for it when another does.
    func tree(inputs: [_ModuleType]) -> ModuleTree {
        var pulledIn: [(module: _ModuleType, by: _ModuleType)] = []
        pulledIn.reserveCapacity(requestOrder.count)
        var standIns: [(module: _ModuleType, standIn: _ModuleType)] = []
        for first in requestOrder {
            if let parent = first.parent { pulledIn.append((first.type, plan.nodes[parent].type)) }
            // The module standing for the request, when this assembler assembles it and it is another type.
            if let index = plan.requested[first.id], plan.nodes[index].isInstance, plan.nodes[index].type != first.type
            {
                standIns.append((first.type, plan.nodes[index].type))
            }
        }
        return ModuleTree(inputs: inputs, pulledIn: pulledIn, standIns: standIns)
    }

    /// The names from a module passed in to the first place `type` was asked for, ending with `type`; nil
    /// when nothing asked for it.
    func path(toRequested type: _IdentityKey) -> [String]? {
        guard let first = requests[type] else { return nil }
        return (first.parent.map { plan.path(to: $0) } ?? []) + [first.type.name]
    }

    /// A module being walked: its dependencies, the modules it replaces, and the next dependency to visit.
    private struct Frame {
        let node: Int
        /// As the module declares them (each wrapped when visited, rather than all copied into a new array).
        let dependencies: [any ModuleAssembly.Type]
        let replaces: [_ModuleType]
        var next = 0
        /// The dependencies found so far, as a set once there are too many to search the node's list.
        var found: Set<Int>?
    }
    private var frames: [Frame] = []
    /// node → its frame's position in `frames` while it is there, else -1.
    private var framePosition: [Int] = []
    /// How many dependencies a frame checks for repeats by searching its node's list, before it keeps a set.
    private static let linearFoundLimit = 16

    init(explicit: [_IdentityKey: any ModuleAssembly], usesDefaultOverrides: Bool, parent: ModuleAssembler?) {
        self.explicit = explicit
        self.usesDefaultOverrides = usesDefaultOverrides
        self.parent = parent
    }

    /// Walks everything reachable from `root`, adding replacements as the modules declaring them are reached.
    mutating func walk(from root: _ModuleType, replacements: inout _Replacements, problems found: inout _Problems) {
        _ = visit(root, from: nil, replacements: &replacements, problems: &found)
        while let top = frames.indices.last {
            guard frames[top].next < frames[top].dependencies.count else {
                let frame = frames.removeLast()
                framePosition[frame.node] = -1
                plan.order.append(frame.node)
                continue
            }
            let dependency = _ModuleType(frames[top].dependencies[frames[top].next])
            frames[top].next += 1
            let node = frames[top].node
            let type = plan.nodes[node].type
            if !frames[top].replaces.isEmpty, frames[top].replaces.contains(dependency), dependency != type {
                reportDependencyOnReplaced(node, dependency: dependency)
                continue
            }
            guard let index = visit(dependency, from: node, replacements: &replacements, problems: &found) else {
                continue
            }
            if index == node {
                // Reached through a chain of replacements (a plain self-dependency is reported as a cycle).
                if dependency != type { reportDependencyOnReplaced(node, dependency: dependency) }
                continue
            }
            if isNew(index, in: top) { plan.nodes[node].dependencies.append(index) }
        }
    }

    /// Whether the frame at `top` has not found `index` yet: a search of its node's dependencies while they are
    /// few, a set past that (a module with hundreds of dependencies stays linear).
    private mutating func isNew(_ index: Int, in top: Int) -> Bool {
        let node = frames[top].node
        if frames[top].found == nil {
            if plan.nodes[node].dependencies.count < Self.linearFoundLimit {
                return !plan.nodes[node].dependencies.contains(index)
            }
            frames[top].found = Set(plan.nodes[node].dependencies)
        }
        return frames[top].found?.insert(index).inserted ?? true
    }

    /// Visits the module that stands for `requested`: returns its node (pushing a frame when it is new and
    /// assembled here), or nil when there is none.
    private mutating func visit(
        _ requested: _ModuleType, from parentNode: Int?, replacements: inout _Replacements,
        problems found: inout _Problems
    ) -> Int? {
        let choice: Choice?
        if let request = requests[requested.id] {
            choice = request.choice
        } else {
            choice = choose(requested, from: parentNode, replacements: replacements.map)
            requests[requested.id] = Request(parent: parentNode, type: requested, choice: choice)
            requestOrder.append((requested.id, parentNode, requested))
        }
        guard let choice else { return nil }
        if let index = nodeByType[choice.type.id] {
            plan.requested[requested.id] = index
            let position = framePosition[index]
            if position >= 0, !(index == parentNode && requested != choice.type) {
                reportCycle(frames[position...].map(\.node))
            }
            return index
        }
        let index = plan.nodes.count
        plan.nodes.append(.init(type: choice.type, source: choice.source, parent: parentNode))
        framePosition.append(-1)
        nodeByType[choice.type.id] = index
        plan.requested[requested.id] = index
        if choice.type != requested { plan.requested[choice.type.id] = index }
        guard case .instance = choice.source else { return index }
        let replaces = choice.type.replaces
        for base in replaces {
            if base == choice.type {
                problems.add(
                    .init(.replacesItself, module: base.name, path: plan.path(to: index)),
                    identity: "replacesItself|\(base.name)")
            } else if replacements.add(base, by: choice.type, path: plan.path(to: index), problems: &found),
                requests[base.id] != nil || nodeByType[base.id] != nil
            {
                needsRestart = true
            }
        }
        framePosition[index] = frames.count
        frames.append(Frame(node: index, dependencies: choice.type.type.dependencies, replaces: replaces))
        return index
    }

    /// The module that stands for `requested`: a replacement, a parent's module, the instance passed in,
    /// the default override, or a new instance, in that order of preference.
    private mutating func choose(
        _ requested: _ModuleType, from parentNode: Int?,
        replacements: [_IdentityKey: _ModuleType]
    ) -> Choice? {
        var target = requested
        // The chain of replacements is followed only when there is one (most modules are not replaced).
        var chain: [_ModuleType] = []
        var inChain: Set<_ModuleType> = []
        if let first = replacements.isEmpty ? nil : replacements[requested.id], first != requested {
            chain = [requested]
            inChain = [requested]
        }
        while !chain.isEmpty, let next = replacements[target.id], next != target {
            if !inChain.insert(next).inserted {
                let start = chain.firstIndex(of: next) ?? 0
                let loop = chain[start...].map(\.name) + [next.name]
                problems.add(
                    .init(.replacementCycle, module: next.name, path: loop),
                    identity: "replacementCycle|\(Set(loop).sorted())")
                return nil
            }
            chain.append(next)
            target = next
        }
        func path() -> [String] { (parentNode.map { plan.path(to: $0) } ?? []) + [requested.name] }
        if let record = parent?.record(for: target.id) { return Choice(record.type, .parent(record)) }
        if let module = explicit[target.id] { return Choice(target, .instance(module)) }
        if usesDefaultOverrides, let base = target.type as? any DefaultModuleAssemblyOverride.Type {
            let override = _ModuleType(_overrideType(of: base))
            guard override.replaces.contains(target) else {
                problems.add(
                    .init(.invalidDefaultOverride, module: target.name, path: path(), related: [override.name]))
                return nil
            }
            if let record = parent?.record(for: override.id) { return Choice(record.type, .parent(record)) }
            let instance = explicit[override.id] ?? _overrideInstance(of: base)
            return Choice(override, .instance(instance))
        }
        // The requirement answers without a conformance scan; the cast covers a conformance to
        // AutoInitModuleAssembly declared apart from (after) the type's ModuleAssembly conformance.
        if let made = target.type._makeIfAutoInit() { return Choice(target, .instance(made)) }
        if let auto = target.type as? any AutoInitModuleAssembly.Type { return Choice(target, .instance(auto.init())) }
        problems.add(.init(.moduleNotProvided, module: target.name, path: path()))
        return nil
    }

    private mutating func reportCycle(_ members: [Int]) {
        let names = members.map { plan.nodes[$0].name }
        problems.add(
            .init(.cycle, module: names[0], path: names + [names[0]]),
            identity: "cycle|\(Set(names).sorted())")
    }

    /// `node` depends on `dependency`, which it replaces (directly, or through a chain of replacements).
    private mutating func reportDependencyOnReplaced(_ node: Int, dependency: _ModuleType) {
        let name = plan.nodes[node].name
        problems.add(
            .init(
                .dependsOnReplacedModule, module: name, path: plan.path(to: node),
                related: [dependency.name]),
            identity: "dependsOnReplaced|\(name)|\(dependency.name)")
    }
}

private func _overrideType<Base: DefaultModuleAssemblyOverride>(of _: Base.Type) -> any ModuleAssembly.Type {
    Base.OverrideType.self
}

private func _overrideInstance<Base: DefaultModuleAssemblyOverride>(of _: Base.Type) -> any ModuleAssembly {
    Base.OverrideType()
}
