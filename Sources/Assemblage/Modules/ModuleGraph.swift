/// A module type as a value.
struct _ModuleType: @unchecked Sendable, Hashable {
    // @unchecked Sendable: a metatype is an immutable, process-wide value; `any ModuleAssembly.Type` is not
    // marked Sendable.
    let type: any ModuleAssembly.Type

    init(_ type: any ModuleAssembly.Type) { self.type = type }

    var id: ObjectIdentifier { ObjectIdentifier(type) }
    /// The type's name as `String(describing:)` spells it, without the dynamic casts that `String(describing:)`
    /// makes first (each first cast of a type scans every protocol conformance in the process).
    var name: String { _typeName(type, qualified: false) }
    var dependencies: [_ModuleType] { type.dependencies.map(_ModuleType.init) }
    var replaces: [_ModuleType] { type.replaces.map(_ModuleType.init) }

    static func == (lhs: _ModuleType, rhs: _ModuleType) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// One assembled module: its type, its scope, its exports and the exports its scope falls back to.
final class _ModuleRecord: Sendable {
    let type: _ModuleType
    /// Where the module registers, and what ``ModuleAssembler/resolver(for:)`` returns.
    let container: Container
    /// Forwarding entries for `container`'s registrations, resolved in `container` (see ModuleScope.swift).
    let exports: Container
    /// The exports `container` falls back to: its dependencies', transitively, depth-first, each once.
    let closure: [Container]
    /// The modules it depends on, in declared order (after replacements).
    let dependencies: [_ModuleRecord]
    let scope: _ModuleScope

    init(type: _ModuleType, container: Container, exports: Container, closure: [Container],
         dependencies: [_ModuleRecord], scope: _ModuleScope) {
        self.type = type
        self.container = container
        self.exports = exports
        self.closure = closure
        self.dependencies = dependencies
        self.scope = scope
    }
}

/// What the modules of one assembler share at run time: where contributions go, and the warnings.
final class _ModuleGraphContext: Sendable {
    private struct State {
        var dynamicTargets: [ObjectIdentifier: Container] = [:]
        var warnings: [ModuleAssemblyError.Problem] = []
    }
    private let state = _Locked(State())

    func install(dynamicTargets: [ObjectIdentifier: Container]) {
        state.withLock { $0.dynamicTargets = dynamicTargets }
    }

    func dynamicTarget(for id: ObjectIdentifier) -> Container? {
        state.withLock { $0.dynamicTargets[id] }
    }

    func warn(_ problem: ModuleAssemblyError.Problem) {
        state.withLock { state in
            if !state.warnings.contains(problem) { state.warnings.append(problem) }
        }
    }

    var warnings: [ModuleAssemblyError.Problem] { state.withLock { $0.warnings } }
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
        /// How the walk first reached it, ending with its own name.
        let path: [String]
        /// Its dependencies (node indices), in declared order, after replacements, each once.
        var dependencies: [Int] = []
    }

    var nodes: [Node] = []
    /// The nodes this assembler assembles, dependencies first.
    var order: [Int] = []
    /// Every module type asked for (passed in, declared, or replaced) → the node that stands for it.
    var requested: [ObjectIdentifier: Int] = [:]
    /// Every replacement known when the walk ended: base type → replacing type.
    var replacements: [ObjectIdentifier: _ModuleType] = [:]
    var problems: [ModuleAssemblyError.Problem] = []
    var warnings: [ModuleAssemblyError.Problem] = []

    /// Plans the graph of `inputs`.
    ///
    /// Replacements come from the modules passed in and from every module the walk reaches; when the walk
    /// finds a replacement it did not know, it starts again with it (each restart adds a replacement, and
    /// there are finitely many module types, so this ends).
    static func make(_ inputs: [any ModuleAssembly], usesDefaultOverrides: Bool,
                     parent: ModuleAssembler?) -> _ModulePlan {
        var problems = _Problems()
        var explicit: [ObjectIdentifier: any ModuleAssembly] = [:]
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
        while true {
            walk = _Walk(explicit: explicit, replacements: replacements.map,
                         usesDefaultOverrides: usesDefaultOverrides, parent: parent)
            for root in roots { _ = walk.visit(root, from: []) }
            var added = false
            for node in walk.plan.nodes {
                guard case .instance = node.source else { continue }
                for base in node.type.replaces where base != node.type {
                    if replacements.add(base, by: node.type, path: node.path, problems: &problems) { added = true }
                }
            }
            if !added { break }
        }
        var plan = walk.plan
        plan.replacements = replacements.map
        plan.problems = problems.list + walk.problems.list
        for root in roots {
            for base in root.replaces where base != root && plan.requested[base.id] == nil {
                plan.warnings.append(.init(.unusedReplacement, module: base.name, path: [root.name],
                                           related: [root.name]))
            }
        }
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
    private(set) var map: [ObjectIdentifier: _ModuleType] = [:]
    private var replacers: [ObjectIdentifier: [String]] = [:]

    /// Records that `replacement` replaces `base`; returns whether this is new. A second, different
    /// replacement of the same base is a problem.
    mutating func add(_ base: _ModuleType, by replacement: _ModuleType, path: [String],
                      problems: inout _Problems) -> Bool {
        guard let existing = map[base.id] else {
            map[base.id] = replacement
            replacers[base.id] = [replacement.name]
            return true
        }
        if existing != replacement, !(replacers[base.id] ?? []).contains(replacement.name) {
            replacers[base.id, default: []].append(replacement.name)
            problems.add(.init(.conflictingReplacements, module: base.name, path: path,
                               related: replacers[base.id] ?? []),
                         identity: "conflict|\(base.name)|\(replacement.name)")
        }
        return false
    }
}

/// One depth-first walk of the graph from the modules passed in, given the known replacements.
///
/// The post-order of the walk is the assembly order: every module comes after its dependencies, and
/// among modules that do not depend on each other, the one reached first (by input order, then by
/// declaration order of dependencies) comes first. A back edge to a module still on the stack is a cycle.
struct _Walk {
    let explicit: [ObjectIdentifier: any ModuleAssembly]
    let replacements: [ObjectIdentifier: _ModuleType]
    let usesDefaultOverrides: Bool
    let parent: ModuleAssembler?

    var plan = _ModulePlan()
    var problems = _Problems()
    private var nodeByType: [ObjectIdentifier: Int] = [:]
    private var choices: [ObjectIdentifier: (type: _ModuleType, source: _ModulePlan.Source)?] = [:]
    private var stack: [Int] = []

    init(explicit: [ObjectIdentifier: any ModuleAssembly], replacements: [ObjectIdentifier: _ModuleType],
         usesDefaultOverrides: Bool, parent: ModuleAssembler?) {
        self.explicit = explicit
        self.replacements = replacements
        self.usesDefaultOverrides = usesDefaultOverrides
        self.parent = parent
    }

    /// Visits the module that stands for `requested`; returns its node, or nil when there is none.
    mutating func visit(_ requested: _ModuleType, from path: [String]) -> Int? {
        let choice: (type: _ModuleType, source: _ModulePlan.Source)?
        if let cached = choices[requested.id] {
            choice = cached
        } else {
            choice = choose(requested, path: path + [requested.name])
            choices[requested.id] = choice
        }
        guard let choice else { return nil }
        if let index = nodeByType[choice.type.id] {
            plan.requested[requested.id] = index
            if let position = stack.firstIndex(of: index) {
                // A replacement that depends on what it replaces (through a chain) is not a cycle.
                let isSelfThroughReplacement = position == stack.count - 1 && requested != choice.type
                if !isSelfThroughReplacement { reportCycle(Array(stack[position...])) }
            }
            return index
        }
        let index = plan.nodes.count
        let nodePath = path + [choice.type.name]
        plan.nodes.append(.init(type: choice.type, source: choice.source, path: nodePath))
        nodeByType[choice.type.id] = index
        plan.requested[requested.id] = index
        plan.requested[choice.type.id] = index
        guard case .instance = choice.source else { return index }
        stack.append(index)
        let replaced = Set(choice.type.replaces)
        for dependency in choice.type.dependencies where !replaced.contains(dependency) {
            guard let found = visit(dependency, from: nodePath), found != index else { continue }
            if !plan.nodes[index].dependencies.contains(found) { plan.nodes[index].dependencies.append(found) }
        }
        stack.removeLast()
        plan.order.append(index)
        return index
    }

    /// The module that stands for `requested`: a replacement, a parent's module, the instance passed in,
    /// the default override, or a new instance, in that order of preference.
    private mutating func choose(_ requested: _ModuleType,
                                 path: [String]) -> (type: _ModuleType, source: _ModulePlan.Source)? {
        var target = requested
        var chain = [requested]
        while let next = replacements[target.id], next != target {
            if let start = chain.firstIndex(of: next) {
                let loop = chain[start...].map(\.name) + [next.name]
                problems.add(.init(.replacementCycle, module: next.name, path: loop),
                             identity: "replacementCycle|\(Set(loop).sorted())")
                return nil
            }
            chain.append(next)
            target = next
        }
        if let record = parent?.record(for: target.id) { return (record.type, .parent(record)) }
        if let module = explicit[target.id] { return (target, .instance(module)) }
        if usesDefaultOverrides, let base = target.type as? any DefaultModuleAssemblyOverride.Type {
            let override = _ModuleType(_overrideType(of: base))
            guard override.replaces.contains(target) else {
                problems.add(.init(.invalidDefaultOverride, module: target.name, path: path, related: [override.name]))
                return nil
            }
            if let record = parent?.record(for: override.id) { return (record.type, .parent(record)) }
            let instance = explicit[override.id] ?? _overrideInstance(of: base)
            return (override, .instance(instance))
        }
        // The requirement answers without a conformance scan; the cast covers a conformance to
        // AutoInitModuleAssembly declared apart from (after) the type's ModuleAssembly conformance.
        if let made = target.type._makeIfAutoInit() { return (target, .instance(made)) }
        if let auto = target.type as? any AutoInitModuleAssembly.Type { return (target, .instance(auto.init())) }
        problems.add(.init(.moduleNotProvided, module: target.name, path: path))
        return nil
    }

    private mutating func reportCycle(_ members: [Int]) {
        let names = members.map { plan.nodes[$0].type.name }
        problems.add(.init(.cycle, module: names[0], path: names + [names[0]]),
                     identity: "cycle|\(Set(names).sorted())")
    }
}

private func _overrideType<Base: DefaultModuleAssemblyOverride>(of _: Base.Type) -> any ModuleAssembly.Type {
    Base.OverrideType.self
}

private func _overrideInstance<Base: DefaultModuleAssemblyOverride>(of _: Base.Type) -> any ModuleAssembly {
    Base.OverrideType()
}
