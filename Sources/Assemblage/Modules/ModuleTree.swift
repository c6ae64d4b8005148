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
    /// The modules passed to the assembler, in order.
    public let inputs: [String]
    /// Every module asked for that was not passed in, in the order the walk first met it, with the module whose
    /// dependencies asked for it.
    private let pulledIn: [(module: String, by: String)]
    /// Module → the module of this graph used in its place.
    private let standIns: [String: String]
    /// Module → the module that pulled it in first, built on first use (assembling never reads it).
    private let sourceTable: _ModuleSources

    init(inputs: [String], pulledIn: [(module: String, by: String)], standIns: [String: String]) {
        self.inputs = inputs
        // Few modules are passed in: searching them costs less than hashing every module's name into a set.
        let inputSet = inputs.count > 8 ? Set(inputs) : nil
        self.pulledIn = pulledIn.filter { inputSet?.contains($0.module) ?? !inputs.contains($0.module) }
        self.standIns = standIns
        // The first source of each module wins; one hash per module.
        sourceTable = _ModuleSources(self.pulledIn)
    }

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
    public func source(of module: String) -> String? { sourceTable.table[module] }

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
        let sources = sourceTable.table
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
        let sources = sourceTable.table
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

/// The modules of a ``ModuleTree`` by the module that pulled each in first: a table of every module's name, made
/// when the tree is first asked about a module rather than by every assembler, and shared by the tree's copies.
final class _ModuleSources: Sendable {
    private let pulledIn: [(module: String, by: String)]
    private let built = _Locked<[String: String]?>(nil)

    init(_ pulledIn: [(module: String, by: String)]) { self.pulledIn = pulledIn }

    /// Module → the module that pulled it in first.
    var table: [String: String] {
        built.withLock { built in
            if let table = built { return table }
            let table = Dictionary(pulledIn.lazy.map { ($0.module, $0.by) }, uniquingKeysWith: { first, _ in first })
            built = table
            return table
        }
    }
}
