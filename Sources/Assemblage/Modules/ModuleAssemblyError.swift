/// Why a module graph could not be assembled: every problem found, each with the dependency path that
/// led to it.
///
/// ``ModuleAssembler`` checks the whole graph before it registers anything, and reports all problems in
/// one error rather than stopping at the first:
///
/// ```swift
/// do {
///     let assembler = try ModuleAssembler([AppModule()])
/// } catch {
///     print(error)
///     // The module graph cannot be assembled (2 problems):
///     //   1. NetworkModule is needed but was not passed in, and it cannot create itself.
///     //      Dependency path: AppModule → FeedModule → NetworkModule
///     //      Fix: pass a NetworkModule instance to ModuleAssembler, or conform it to AutoInitModuleAssembly.
///     //   2. A cycle of module dependencies: AuthModule → SessionModule → AuthModule
///     //      …
/// }
/// ```
///
/// The same error (with one problem) comes from ``ModuleAssembler/resolver(for:)``,
/// ``ModuleAssembler/reset(_:)`` and ``ModuleAssembler/resetAll(_:)`` when the module is not in the graph.
public struct ModuleAssemblyError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What kind of problem this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let raw: String
        /// A module is needed, was not passed in, and does not conform to ``AutoInitModuleAssembly``.
        public static let moduleNotProvided = Code(raw: "moduleNotProvided")
        /// Two modules replace the same module.
        public static let conflictingReplacements = Code(raw: "conflictingReplacements")
        /// Modules replace each other in a loop (`A` replaces `B`, `B` replaces `A`).
        public static let replacementCycle = Code(raw: "replacementCycle")
        /// A ``DefaultModuleAssemblyOverride``'s `OverrideType` does not list the module in its `replaces`.
        public static let invalidDefaultOverride = Code(raw: "invalidDefaultOverride")
        /// Modules depend on each other in a cycle.
        public static let cycle = Code(raw: "cycle")
        /// Two instances of the same module type were passed in.
        public static let duplicateModule = Code(raw: "duplicateModule")
        /// An eager singleton (see ``ServiceEntry/eager()``) could not be created.
        public static let eagerSingletonFailed = Code(raw: "eagerSingletonFailed")
        /// The module asked for (to resolve from or reset) is not in this assembler's graph.
        public static let moduleNotInGraph = Code(raw: "moduleNotInGraph")
        /// A module lists itself in its own ``ModuleAssembly/replaces``.
        public static let replacesItself = Code(raw: "replacesItself")
        /// A module depends on a module that it replaces (directly, or through a chain of replacements): the
        /// replaced module is not assembled, so the dependency could only be the module itself.
        public static let dependsOnReplacedModule = Code(raw: "dependsOnReplacedModule")
        /// Warning: a module passed in replaces a module that nothing needs.
        public static let unusedReplacement = Code(raw: "unusedReplacement")
        /// Warning: a contribution was dropped because its dynamic module is not in this assembler's graph.
        public static let contributionDropped = Code(raw: "contributionDropped")
        /// The short name of the code.
        public var description: String { raw }
    }

    /// One problem in a module graph.
    public struct Problem: Sendable, CustomStringConvertible, Equatable {
        /// What kind of problem this is.
        public let code: Code
        /// The module the problem is about (its type name).
        public let module: String
        /// How the module was reached from the modules passed in, root first and ending with ``module``
        /// (`["AppModule", "FeedModule", "NetworkModule"]`). For ``Code/cycle`` and
        /// ``Code/replacementCycle``: the cycle, its first module repeated at the end.
        public let path: [String]
        /// Other modules involved: the competing replacements, the default override, the contributor.
        public let related: [String]
        /// For ``Code/eagerSingletonFailed``: the registration that could not be created.
        public let key: ServiceKey?
        /// For ``Code/eagerSingletonFailed``: why it could not be created, with its resolution path.
        public let resolutionError: ResolutionError?

        init(_ code: Code, module: String, path: [String], related: [String] = [], key: ServiceKey? = nil,
             resolutionError: ResolutionError? = nil) {
            self.code = code
            self.module = module
            self.path = path
            self.related = related
            self.key = key
            self.resolutionError = resolutionError
        }

        /// The path as text: `AppModule → FeedModule → NetworkModule`.
        public var pathDescription: String { path.joined(separator: " → ") }

        /// A sentence naming the problem, the path, and how to fix it.
        public var description: String {
            let others = related.joined(separator: ", ")
            switch code {
            case .moduleNotProvided:
                return "\(module) is needed but was not passed in, and it cannot create itself.\n"
                    + "Dependency path: \(pathDescription)\n"
                    + "Fix: pass a \(module) instance to ModuleAssembler, or conform it to AutoInitModuleAssembly."
            case .conflictingReplacements:
                return "\(module) is replaced by more than one module: \(others).\n"
                    + "Dependency path: \(pathDescription)\n"
                    + "Fix: pass or depend on only one replacement of \(module)."
            case .replacementCycle:
                return "Modules replace each other in a loop: \(pathDescription).\n"
                    + "Fix: remove one of these `replaces` declarations."
            case .invalidDefaultOverride:
                return "\(module)'s default override \(others) does not list \(module) in its `replaces`.\n"
                    + "Dependency path: \(pathDescription)\n"
                    + "Fix: add `static var replaces: [any ModuleAssembly.Type] { [\(module).self] }` to \(others)."
            case .cycle:
                return "A cycle of module dependencies: \(pathDescription).\n"
                    + "Fix: move what the modules share into a module that both depend on."
            case .replacesItself:
                return "\(module) lists itself in its `replaces`; a module cannot stand in for itself.\n"
                    + "Dependency path: \(pathDescription)\n"
                    + "Fix: remove \(module).self from \(module).replaces."
            case .dependsOnReplacedModule:
                return "\(module) both replaces and depends on \(others): the replaced module is not assembled, "
                    + "so the dependency would be \(module) itself.\n"
                    + "Dependency path: \(pathDescription)\n"
                    + "Fix: remove \(others).self from \(module).dependencies (a replacement registers what it "
                    + "replaces itself), or keep \(others) and change its services with `decorate(_:name:)` "
                    + "instead of replacing it."
            case .duplicateModule:
                return "\(module) was passed in more than once.\nFix: pass one instance of each module type."
            case .eagerSingletonFailed:
                let what = key.map { "\($0)" } ?? "a service"
                let why = resolutionError.map { "\n" + $0.description } ?? ""
                return "The eager singleton \(what) of \(module) could not be created.\(why)"
            case .moduleNotInGraph:
                return "\(module) is not in this module assembler's graph."
                    + (related.isEmpty ? "" : "\nModules in the graph: \(others).")
            case .unusedReplacement:
                return "\(related.first ?? "A module") replaces \(module), which no module needs."
            case .contributionDropped:
                return "\(others) contributed into \(module), which is not in this module assembler's graph; "
                    + "the contribution was dropped."
            default:
                return "\(code): \(module) (\(pathDescription))"
            }
        }
    }

    /// Every problem found, in the order they were found.
    public let problems: [Problem]

    init(_ problems: [Problem]) { self.problems = problems }

    /// The codes of ``problems``, in order.
    public var codes: [Code] { problems.map(\.code) }

    /// A numbered account of every problem.
    public var description: String {
        if problems.count == 1 { return problems[0].description }
        var lines = ["The module graph cannot be assembled (\(problems.count) problems):"]
        for (index, problem) in problems.enumerated() {
            let text = problem.description.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("  \(index + 1). \(text.first ?? "")")
            lines.append(contentsOf: text.dropFirst().map { "     \($0)" })
        }
        return lines.joined(separator: "\n")
    }
}
