// Knit's spellings of the module tree: `DependencyTree`, its source paths and dump, and `_dependencyTree()` on any
// resolver of a module assembler. Each maps onto ModuleTree.

/// Knit's name of ``ModuleTree``.
@_documentation(visibility: internal)
public typealias DependencyTree = ModuleTree

extension ModuleTree: CustomDebugStringConvertible {
    /// The tree as text, as ``description`` (Knit's spelling).
    public var debugDescription: String { description }

    /// Knit's name of ``path(to:)-(any ModuleAssembly.Type)``.
    ///
    /// - Parameter moduleType: A module type.
    /// - Returns: The module names from a module passed in to `moduleType`.
    @_documentation(visibility: internal)
    public func sourcePath(moduleType: any ModuleAssembly.Type) -> [String] { path(to: moduleType) }

    /// Knit's name of ``path(to:)-(String)``.
    ///
    /// - Parameter moduleName: A module's type name.
    /// - Returns: The module names from a module passed in to it.
    @_documentation(visibility: internal)
    public func sourcePath(moduleName: String) -> [String] { path(to: moduleName) }

    /// The path to `moduleType` as Knit prints it: `Dependency path: AppModule -> FeedModule`.
    ///
    /// - Parameter moduleType: A module type.
    /// - Returns: The line.
    @_documentation(visibility: internal)
    public func sourcePathString(moduleType: any ModuleAssembly.Type) -> String {
        "Dependency path: " + path(to: moduleType).joined(separator: " -> ")
    }

    /// Prints the tree under a `Dependency Graph:` heading (Knit's spelling of `print(tree)`).
    @_documentation(visibility: internal)
    public func dumpGraph() {
        print("Dependency Graph:\n\(description)")
    }
}

extension Resolver {
    /// Knit's access to the module tree from a resolver: the ``ModuleAssembler/tree`` of the assembler this
    /// resolver belongs to (its ``ModuleAssembler/resolver``, a module's view, or a scope of either).
    ///
    /// The tree stays readable after the assembler is released, as long as the resolver lives; a resolver that no
    /// module assembler made has an empty tree.
    ///
    /// - Returns: The module tree.
    @_documentation(visibility: internal)
    public func _dependencyTree() -> DependencyTree {
        (self as? Container)?._moduleExporter(creating: false)?.tree
            ?? .empty
    }
}
