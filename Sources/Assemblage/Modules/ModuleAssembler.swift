/// Builds a graph of ``ModuleAssembly`` modules from a few roots, gives each module a scope of its own,
/// and assembles them, dependencies first.
///
/// Pass the modules the app starts from; the assembler finds the rest through their
/// ``ModuleAssembly/dependencies``:
///
/// ```swift
/// let assembler = try ModuleAssembler([AppModule()])
/// let feed = try assembler.resolver.require(FeedViewModel.self)
/// print(assembler.modules)   // [NetworkModule, StorageModule, FeedModule, AppModule]
/// ```
///
/// ## Building the graph
/// Before anything is registered, the assembler walks the graph from the modules passed in. For every
/// module type it meets, it uses, in this order of preference:
/// 1. a module that replaces it (declared in ``ModuleAssembly/replaces`` by a module passed in or reached
///    by the walk), followed through chains of replacements;
/// 2. the module already assembled by the `parent` assembler;
/// 3. the instance passed in;
/// 4. when default overrides are on (in a process that runs tests, unless ``OverrideBehavior`` says
///    otherwise), its ``DefaultModuleAssemblyOverride/OverrideType``;
/// 5. a new instance, when it conforms to ``AutoInitModuleAssembly``.
///
/// A module may not list itself in ``ModuleAssembly/replaces``, nor depend on a module it replaces
/// (the replaced module is not assembled, so the dependency could only be the module itself). Every problem
/// (a module that cannot be provided, two replacements of one module, an invalid default override, a
/// module that replaces itself or depends on what it replaces, a cycle of modules) is collected, and the
/// initializer throws them all at once in a ``ModuleAssemblyError``; nothing is registered then.
///
/// ## Assembly order
/// Every module is assembled after all of its dependencies, also when several modules share one. Among
/// modules that do not depend on each other, the order is the one the walk reached them in: the modules
/// passed in, in order, each followed depth-first by its dependencies in declaration order. The order is
/// the same on every run. The assembler calls ``Assembly/assemble(container:)`` on every module in that
/// order, then creates the eager singletons (see ``ServiceEntry/eager()``), then calls
/// ``Assembly/loaded(resolver:)`` on every module in the same order, each with the module's own scope.
///
/// ## Scopes
/// Each module registers into a ``Container`` of its own (labelled with the module's type name), which
/// falls back to the registrations of its dependencies, transitively, in declared order. A factory always
/// runs in the scope of the module that registered it: it sees what that module and its dependencies
/// register, and nothing else, wherever the resolution started. ``resolver`` sees every module (modules
/// are searched in assembly order, then the parent's resolver); ``resolver(for:)`` is one module's view.
/// `.container`-scoped instances live in the module that registered them and are shared by all its
/// dependents; ``reset(_:)`` and ``resetAll(_:)`` drop them. `.singleton` instances are never reset.
///
/// ## Parents
/// A child assembler does not assemble again what its parent assembled: its modules fall back to the
/// parent's modules instead, and its ``resolver`` falls back to the parent's. The parent is never changed.
///
/// A module assembler is `Sendable`; keep it (or its ``resolver``) alive as long as you resolve from it.
public final class ModuleAssembler: Sendable {
    /// The modules this assembler assembled, in assembly order.
    let records: [_ModuleRecord]
    /// Every module type asked for in this graph (passed in, declared or replaced) → the module standing for it.
    let index: [_IdentityKey: _ModuleRecord]
    let graph: _ModuleGraphContext
    /// Falls back to every module's scope, in assembly order, then to the parent's root. Declared after the
    /// records and the graph, so that it lets go of the modules last, dependents first (see `_ModuleExporter`).
    let root: Container
    let planWarnings: [ModuleAssemblyError.Problem]

    /// The assembler whose modules this one reuses.
    public let parent: ModuleAssembler?
    /// Whether default overrides were used.
    public let overrideBehavior: OverrideBehavior
    /// Why nothing was assembled, for an assembler made by Knit's non-throwing initializer; nil otherwise.
    let failure: ModuleAssemblyError?

    /// Walks the module graph from `modules`, checks it, and assembles it.
    ///
    /// ```swift
    /// let app = try ModuleAssembler([AppModule(config: config)])
    /// let test = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])   // explicit replacement
    /// let fakes = try ModuleAssembler([AppModule(config: .test)], overrideBehavior: .useDefaultOverrides)
    /// let screen = try ModuleAssembler([SettingsModule()], parent: app)        // reuses app's modules
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The modules to start from, and instances of modules that cannot create themselves.
    ///     Each module type at most once.
    ///   - overrideBehavior: Whether ``DefaultModuleAssemblyOverride`` modules are replaced by their
    ///     override. Defaults to ``OverrideBehavior/whenTesting``: on in a process that runs tests, off otherwise.
    ///   - parent: An assembler whose modules are reused rather than assembled again.
    /// - Throws: ``ModuleAssemblyError`` listing every problem of the graph, each with its dependency path
    ///   (nothing is registered then), every abstract registration no module provides (see
    ///   `Container.registerAbstract(_:name:file:line:)`), or every eager singleton that could not be created
    ///   (the `loaded` hooks have not run then).
    public convenience init(
        _ modules: [any ModuleAssembly], overrideBehavior: OverrideBehavior = .whenTesting,
        parent: ModuleAssembler? = nil
    ) throws(ModuleAssemblyError) {
        try self.init(modules, overrideBehavior: overrideBehavior, parent: parent, validation: nil, postAssemble: nil)
    }

    /// Walks, checks and assembles the graph; `validation` is called with every module type to assemble, before
    /// anything is registered, and `postAssemble` with the root container once every module is assembled. With
    /// `seesParent`, every module's scope also falls back, last, to the parent's resolver (Knit's scoped assemblers,
    /// whose modules resolve what the parent graph registers without declaring it).
    init(
        _ modules: [any ModuleAssembly], overrideBehavior: OverrideBehavior, parent: ModuleAssembler?,
        validation: ((any ModuleAssembly.Type) throws -> Void)?,
        postAssemble: ((Container) -> Void)?, seesParent: Bool = false
    ) throws(ModuleAssemblyError) {
        let plan = _ModulePlan.make(
            modules, usesDefaultOverrides: overrideBehavior.usesDefaultOverrides,
            parent: parent)
        guard plan.problems.isEmpty else { throw ModuleAssemblyError(plan.problems) }
        if let validation {
            var failures: [ModuleAssemblyError.Problem] = []
            for position in plan.order {
                let node = plan.nodes[position]
                guard node.isInstance else { continue }
                do { try validation(node.type.type) } catch {
                    failures.append(
                        .init(
                            .assemblyValidationFailed, module: node.name,
                            path: plan.path(to: position), related: ["\(error)"]))
                }
            }
            guard failures.isEmpty else { throw ModuleAssemblyError(failures) }
        }

        let graph = _ModuleGraphContext(tree: plan.tree)
        let exportIndex = _FallbackIndex(expectedEntries: plan.nodes.count)
        let shared = _ModuleGraphShared(
            graph: graph, index: exportIndex,
            assemblerParent: _AssemblerParent(root: parent?.root, isRecorded: true))
        // Node → its record: the parent's modules now, this assembler's as they are made.
        var byNode = [_ModuleRecord?](repeating: nil, count: plan.nodes.count)
        for position in plan.nodes.indices {
            if case .parent(let record) = plan.nodes[position].source { byNode[position] = record }
        }
        var records: [_ModuleRecord] = []
        records.reserveCapacity(plan.order.count)
        var instances: [any ModuleAssembly] = []
        instances.reserveCapacity(plan.order.count)
        for position in plan.order {
            guard case .instance(let instance) = plan.nodes[position].source else { continue }
            let type = plan.nodes[position].type
            let scope = _ModuleExporter(module: type, shared: shared, position: records.count)
            let container = Container(
                parent: nil, defaultObjectScope: .graph, behaviors: [scope], label: .typeName(type.type),
                isModuleScope: true,
                serialization: nil, checkingObservers: false, registeringClosure: { _ in })
            exportIndex.add(container)
            let dependencies = plan.nodes[position].dependencies.compactMap { byNode[$0] }
            container.appendFallbacks(dependencies.map(\.container))
            if seesParent, let parent { container.appendFallbacks([parent.root], ownLookupsOnly: true) }
            let record = _ModuleRecord(type: type, container: container, dependencies: dependencies, scope: scope)
            byNode[position] = record
            records.append(record)
            instances.append(instance)
        }

        var index: [_IdentityKey: _ModuleRecord] = [:]
        index.reserveCapacity(plan.requested.count)
        for (id, position) in plan.requested {
            if plan.nodes[position].isInstance { index[id] = byNode[position] }
        }
        for base in plan.replacements.keys where index[base] == nil {
            // A module replaced here but needed by no one here: a child's modules may still need it.
            var target = base
            var steps = 0
            while let next = plan.replacements[target]?.id, next != target, steps <= plan.replacements.count {
                target = next
                steps += 1
            }
            index[base] = index[target]
        }
        graph.install(dynamicTargets: index)
        graph.install(modules: records)

        // The root knows its graph (for `Resolver.moduleTree`), but is no module's scope.
        let root = Container(
            behaviors: [
                _ModuleExporter(
                    module: nil, shared: shared, scopesDependentsFirst: records.reversed().map(\.container))
            ],
            label: "ModuleAssembler")
        root.appendFallbacks(
            records.map(\.container) + (parent.map { [$0.root] } ?? []), index: exportIndex,
            indexedCount: records.count)

        for (module, record) in zip(instances, records) { module.assemble(container: record.container) }
        postAssemble?(root)

        let abstractProblems = Self.checkAbstractRegistrations(
            records: records, root: root, parent: parent, inputs: modules, tree: plan.tree,
            placeholders: overrideBehavior.usesAbstractPlaceholders,
            modulesDeclare: graph.declaresAbstractRegistrations)
        guard abstractProblems.isEmpty else { throw ModuleAssemblyError(abstractProblems) }

        var failures: [ModuleAssemblyError.Problem] = []
        for record in graph.hasEagerRegistrations ? records : [] {
            for failure in record.container._createEagerServices() {
                failures.append(
                    .init(
                        .eagerSingletonFailed, module: record.name, path: [record.name],
                        key: failure.key, resolutionError: failure.error))
            }
        }
        guard failures.isEmpty else { throw ModuleAssemblyError(failures) }

        for (module, record) in zip(instances, records) { module.loaded(resolver: record.container) }

        self.root = root
        self.records = records
        self.index = index
        self.graph = graph
        self.planWarnings = plan.warnings
        self.parent = parent
        self.overrideBehavior = overrideBehavior
        self.failure = nil
    }

    /// An assembler that assembled nothing because of `failure`: its resolver resolves only what the parent's
    /// does. Knit's non-throwing initializer makes one rather than stopping the process.
    init(failed failure: ModuleAssemblyError, overrideBehavior: OverrideBehavior, parent: ModuleAssembler?) {
        let graph = _ModuleGraphContext(tree: .empty)
        root = Container(
            behaviors: [
                _ModuleExporter(
                    module: nil, shared: _ModuleGraphShared(graph: graph, index: nil, assemblerParent: .unrecorded))
            ],
            label: "ModuleAssembler (not assembled: \(failure.summary))")
        if let parent { root.appendFallbacks([parent.root]) }
        records = []
        index = [:]
        self.graph = graph
        planWarnings = []
        self.parent = parent
        self.overrideBehavior = overrideBehavior
        self.failure = failure
    }

    /// Resolves from every module of the graph (and then from the parent's modules).
    ///
    /// Modules are searched in assembly order; each registration still runs in the scope of the module
    /// that registered it.
    ///
    /// ```swift
    /// let feed = try assembler.resolver.require(FeedViewModel.self)
    /// ```
    ///
    /// ## Request scopes
    /// `.scoped` registrations of any module live in a request scope: make one with ``makeScope(label:)`` or
    /// ``withScope(label:isolation:_:)`` (the same as a scope of this resolver, which is a ``Container``).
    /// Resolved through it, each module's registration still runs in its module, in the same request: its scoped
    /// instances are the request's, shared by every module within it and disposed when it ends, and values the
    /// modules declare with ``Container/registerScopedValue(_:name:validationValue:file:line:)`` are provided
    /// to it:
    ///
    /// ```swift
    /// try await assembler.withScope(label: "request") { scope in
    ///     try scope.provide(request)                          // declared by SessionModule
    ///     let feed = try scope.require(FeedViewModel.self)    // FeedModule's, over SessionModule's session
    /// }
    /// ```
    ///
    /// A scope of one module's view (``resolver(for:)``) works the same way, seeing that module and its
    /// dependencies only.
    public var resolver: any Resolver { root }

    /// The modules this assembler assembled, in assembly order (modules reused from the parent excluded).
    ///
    /// ```swift
    /// print(assembler.modules.map { "\($0)" })   // ["NetworkModule", "StorageModule", "FeedModule", "AppModule"]
    /// ```
    public var modules: [any ModuleAssembly.Type] { records.map(\.type.type) }

    /// Findings that are not errors: modules passed in that replace modules nothing needs, and
    /// contributions into dynamic modules outside this graph (see ``Container/contribute(into:_:)``).
    ///
    /// ```swift
    /// for warning in assembler.warnings { print("warning:", warning) }
    /// ```
    public var warnings: [ModuleAssemblyError.Problem] { planWarnings + graph.warnings }

    /// Whether `module` (or a module that replaces it) is in this graph or the parent's.
    ///
    /// ```swift
    /// if assembler.contains(AnalyticsModule.self) { … }
    /// ```
    ///
    /// - Parameter module: A module type.
    /// - Returns: `true` when resolving from ``resolver(for:)`` with `module` would succeed.
    public func contains(_ module: any ModuleAssembly.Type) -> Bool {
        record(for: _IdentityKey(module)) != nil
    }

    /// How each module of the graph was pulled in: the modules passed in, and for every other module the module
    /// whose dependencies asked for it first (see ``ModuleTree``).
    ///
    /// ```swift
    /// print(assembler.tree)                               // the tree, indented
    /// print(assembler.tree.path(to: NetworkModule.self))  // ["AppModule", "FeedModule", "NetworkModule"]
    /// ```
    public var tree: ModuleTree { graph.tree }

    /// The module standing for `id` here or in a parent.
    func record(for id: _IdentityKey) -> _ModuleRecord? {
        index[id] ?? parent?.record(for: id)
    }
}

/// What a module assembler's containers (its resolver and its modules', in their ``_ModuleExporter``) record of
/// where the assembler's own registrations end: the parent assembler's resolver, whose lookup holds everything the
/// parent assembled, or `nil` without a parent. Read by APIs that tell a child's own registrations from the ones it reuses (Knit's
/// `ServiceCollection.entries`).
struct _AssemblerParent: Sendable {
    let root: Container?
    /// False for a container no module assembler made.
    let isRecorded: Bool

    static let unrecorded = _AssemblerParent(root: nil, isRecorded: false)
}
