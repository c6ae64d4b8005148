/// How a ``ModuleAssembler`` pulled each module into its graph: the modules passed in, and for every other module
/// the module whose ``ModuleAssembly/dependencies`` first asked for it.
///
/// The tree is what the assembler's walk saw, by module type name. A module that another module stands for (a
/// replacement or a default override) is listed under its own name, with the module used in its place:
///
/// ```swift
/// let assembler = try ModuleAssembler([AppModule(), InMemoryStorageModule()])
/// print(assembler.tree)
/// // AppModule
/// //   - FeedModule
/// //     - NetworkModule
/// //     - StorageModule (InMemoryStorageModule)
/// // InMemoryStorageModule
/// print(assembler.tree.path(to: NetworkModule.self))   // ["AppModule", "FeedModule", "NetworkModule"]
/// ```
///
/// In the text form each module passed in starts a line, and the modules it pulled in follow, indented, sorted by
/// name; a module another one stands for shows that module in parentheses, and lists what the module standing for
/// it pulled in. A module appears once, under the module that asked for it first.
public struct ModuleTree: Sendable, Equatable, CustomStringConvertible {
    /// The walk's record by module type, spelled out as names the first time the tree is read (assembling never
    /// reads it), and shared by the tree's copies.
    private let storage: _ModuleTreeStorage

    /// The modules passed to the assembler, in order.
    public var inputs: [String] { storage.names.inputs }
    /// Every module asked for that was not passed in, in the order the walk first met it, with the module whose
    /// dependencies asked for it.
    private var pulledIn: [(module: String, by: String)] { storage.names.pulledIn }
    /// Module → the module of this graph used in its place.
    private var standIns: [String: String] { storage.names.standIns }
    /// Module → the module that pulled it in first.
    private var sourceTable: [String: String] { storage.names.sources }

    /// A tree of module types, as the walk records it: the modules passed in, every module asked for with the module
    /// that asked for it first (in the order asked), and the modules standing for others.
    init(
        inputs: [_ModuleType], pulledIn: [(module: _ModuleType, by: _ModuleType)],
        standIns: [(module: _ModuleType, standIn: _ModuleType)]
    ) {
        storage = _ModuleTreeStorage(inputs: inputs, pulledIn: pulledIn, standIns: standIns)
    }

    /// The tree of no module.
    static var empty: ModuleTree { ModuleTree(inputs: [], pulledIn: [], standIns: []) }

    /// Every module in the tree: the modules passed in, then the others in the order they were pulled in.
    ///
    /// ```swift
    /// print(assembler.tree.modules)   // ["AppModule", "FeedModule", "NetworkModule", "StorageModule"]
    /// ```
    public var modules: [String] { inputs + pulledIn.map(\.module) }

    /// The module whose dependencies pulled `module` in first; `nil` for a module passed in or not in the tree.
    ///
    /// ```swift
    /// assembler.tree.source(of: "NetworkModule")   // "FeedModule"
    /// ```
    ///
    /// - Parameter module: A module's type name.
    /// - Returns: The name of the module that pulled it in.
    public func source(of module: String) -> String? { sourceTable[module] }

    /// The module used in place of `module` (a replacement or its default override), or `nil` when `module` itself
    /// is used or is not in the tree.
    ///
    /// ```swift
    /// assembler.tree.standIn(for: "StorageModule")   // "InMemoryStorageModule"
    /// ```
    ///
    /// - Parameter module: A module's type name.
    /// - Returns: The name of the module standing for it.
    public func standIn(for module: String) -> String? { standIns[module] }

    /// How `module` was reached from the modules passed in, root first and ending with `module`; empty when it is
    /// not in the tree.
    ///
    /// ```swift
    /// assembler.tree.path(to: "NetworkModule")   // ["AppModule", "FeedModule", "NetworkModule"]
    /// ```
    ///
    /// - Parameter module: A module's type name.
    /// - Returns: The module names from a module passed in to `module`.
    public func path(to module: String) -> [String] {
        let sources = sourceTable
        guard inputs.contains(module) || sources[module] != nil else { return [] }
        var path = [module]
        var current = module
        while let source = sources[current], !path.contains(source) {
            path.append(source)
            current = source
        }
        return path.reversed()
    }

    /// How the module of type `module` was reached from the modules passed in (see ``path(to:)-(String)``).
    ///
    /// ```swift
    /// assembler.tree.path(to: NetworkModule.self)   // ["AppModule", "FeedModule", "NetworkModule"]
    /// ```
    ///
    /// - Parameter module: A module type.
    /// - Returns: The module names from a module passed in to `module`; empty when it is not in the tree.
    public func path(to module: any ModuleAssembly.Type) -> [String] {
        path(to: _ModuleType(module).name)
    }

    /// The tree as text: each module passed in on a line, the modules it pulled in indented beneath it.
    public var description: String {
        var lines: [String] = []
        var shown: Set<String> = []
        var children: [String: [String]] = [:]
        let sources = sourceTable
        for entry in pulledIn where sources[entry.module] == entry.by {
            children[entry.by, default: []].append(entry.module)
        }
        let requested = Set(modules)
        func add(_ module: String, depth: Int) {
            guard shown.insert(module).inserted else { return }
            let standIn = standIns[module]
            lines.append(
                (depth == 0 ? "" : String(repeating: "  ", count: depth) + "- ") + module
                    + (standIn.map { " (\($0))" } ?? ""))
            var below = children[module] ?? []
            // A stand-in asked for by no one (a default override) pulled its own dependencies in: show them here.
            if let standIn, !requested.contains(standIn) { below += children[standIn] ?? [] }
            for child in below.sorted() { add(child, depth: depth + 1) }
        }
        for input in inputs { add(input, depth: 0) }
        return lines.joined(separator: "\n")
    }

    /// Whether two trees list the same modules, pulled in the same way.
    public static func == (lhs: ModuleTree, rhs: ModuleTree) -> Bool {
        lhs.inputs == rhs.inputs && lhs.standIns == rhs.standIns
            && lhs.pulledIn.map { [$0.module, $0.by] } == rhs.pulledIn.map { [$0.module, $0.by] }
    }
}

/// What a ``ModuleTree`` holds: the walk's record by module type, and its names, spelled once when the tree is
/// first read (a type's name is a runtime lookup and a new string, which assembling a thousand modules need not pay).
final class _ModuleTreeStorage: Sendable {
    struct Names {
        var inputs: [String] = []
        var pulledIn: [(module: String, by: String)] = []
        var standIns: [String: String] = [:]
        /// Module → the module that pulled it in first.
        var sources: [String: String] = [:]
    }

    private let inputs: [_ModuleType]
    private let pulledIn: [(module: _ModuleType, by: _ModuleType)]
    private let standIns: [(module: _ModuleType, standIn: _ModuleType)]
    private let built = _Locked<Names?>(nil)

    init(
        inputs: [_ModuleType], pulledIn: [(module: _ModuleType, by: _ModuleType)],
        standIns: [(module: _ModuleType, standIn: _ModuleType)]
    ) {
        self.inputs = inputs
        self.pulledIn = pulledIn
        self.standIns = standIns
    }

    var names: Names {
        built.withLock { built in
            if let names = built { return names }
            var names = Names()
            names.inputs = inputs.map(\.name)
            // Few modules are passed in: searching them costs less than hashing every module's name into a set.
            let inputSet = names.inputs.count > 8 ? Set(names.inputs) : nil
            let inputNames = names.inputs
            names.pulledIn = pulledIn.lazy.map { (module: $0.module.name, by: $0.by.name) }
                .filter { !(inputSet?.contains($0.module) ?? inputNames.contains($0.module)) }
            for (module, standIn) in standIns { names.standIns[module.name] = standIn.name }
            // The first source of each module wins.
            names.sources = Dictionary(
                names.pulledIn.lazy.map { ($0.module, $0.by) }, uniquingKeysWith: { first, _ in first })
            built = names
            return names
        }
    }
}
