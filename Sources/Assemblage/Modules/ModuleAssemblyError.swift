#if canImport(FoundationEssentials)
import FoundationEssentials  // LocalizedError's defaults, which the AssemblageError conformance uses
#else
import Foundation
#endif

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
///     //     Dependency path: AppModule → FeedModule → NetworkModule
///     //     Fix: pass a NetworkModule instance to ModuleAssembler, or conform it to AutoInitModuleAssembly.
///     //   2. A cycle of module dependencies: AuthModule → SessionModule → AuthModule.
///     //     Fix: move what the modules share into a module that both depend on.
/// }
/// ```
///
/// The same error (with one problem) comes from ``ModuleAssembler/resolver(for:)``,
/// ``ModuleAssembler/reset(_:)`` and ``ModuleAssembler/resetAll(_:)`` when the module is not in the graph.
public struct ModuleAssemblyError: AssemblageError, Equatable {
    /// One problem in a module graph.
    public struct Problem: Sendable, CustomStringConvertible, Equatable {
        /// What kind of problem this is.
        public let code: Code
        /// The module the problem is about (its type name).
        public let module: String
        /// How the module was reached from the modules passed in, root first and ending with ``module``
        /// (`["AppModule", "FeedModule", "NetworkModule"]`). For ``ModuleAssemblyError/Code/cycle`` and
        /// ``ModuleAssemblyError/Code/replacementCycle``: the cycle, its first module repeated at the end.
        public let path: [String]
        /// Other modules involved: the competing replacements, the default override, the contributor.
        public let related: [String]
        /// For ``ModuleAssemblyError/Code/eagerSingletonFailed``: the registration that could not be created.
        public let key: ServiceKey?
        /// For ``ModuleAssemblyError/Code/eagerSingletonFailed``: why it could not be created, with its resolution path.
        public let resolutionError: ResolutionError?

        init(
            _ code: Code, module: String, path: [String], related: [String] = [], key: ServiceKey? = nil,
            resolutionError: ResolutionError? = nil
        ) {
            self.code = code
            self.module = module
            self.path = path
            self.related = related
            self.key = key
            self.resolutionError = resolutionError
        }

        /// The path as text: `AppModule → FeedModule → NetworkModule`.
        public var pathDescription: String { path.joined(separator: " → ") }

        /// What the problem is, on one line.
        public var summary: String {
            let others = related.joined(separator: ", ")
            switch code {
            case .moduleNotProvided:
                return "\(module) is needed but was not passed in, and it cannot create itself."
            case .conflictingReplacements:
                return "\(module) is replaced by more than one module: \(others)."
            case .replacementCycle:
                return "Modules replace each other in a loop: \(pathDescription)."
            case .invalidDefaultOverride:
                return "\(module)'s default override \(others) does not list \(module) in its `replaces`."
            case .cycle:
                return "A cycle of module dependencies: \(pathDescription)."
            case .replacesItself:
                return "\(module) lists itself in its `replaces`; a module cannot stand in for itself."
            case .dependsOnReplacedModule:
                return "\(module) both replaces and depends on \(others): the replaced module is not assembled, "
                    + "so the dependency would be \(module) itself."
            case .duplicateModule:
                return "\(module) was passed in more than once."
            case .eagerSingletonFailed:
                return "The eager singleton \(key.map { "\($0)" } ?? "a service") of \(module) could not be created."
            case .moduleNotInGraph:
                return "\(module) is not in this module assembler's graph."
            case .unusedReplacement:
                return "\(related.first ?? "A module") replaces \(module), which no module needs."
            case .assemblyValidationFailed:
                return "\(module) did not pass the assembler's validation: \(others)"
            case .abstractRegistrationNotProvided:
                return "\(module) declares \(key.map { "\($0)" } ?? "a service") with registerAbstract, and no module "
                    + "of the graph registers it."
            case .contributionDropped:
                return "\(others) contributed into \(module), which is not in this module assembler's graph; "
                    + "the contribution was dropped."
            default:
                return "\(code): \(module) (\(pathDescription))"
            }
        }

        /// The lines under the summary: the dependency path, the cause, how to fix it.
        public var details: [ErrorDetail] {
            let others = related.joined(separator: ", ")
            let path = ErrorDetail("Dependency path", pathDescription)
            switch code {
            case .moduleNotProvided:
                return [
                    path,
                    ErrorDetail(
                        "Fix",
                        "pass a \(module) instance to ModuleAssembler, or conform it to "
                            + "AutoInitModuleAssembly."),
                ]
            case .conflictingReplacements:
                return [path, ErrorDetail("Fix", "pass or depend on only one replacement of \(module).")]
            case .replacementCycle:
                return [ErrorDetail("Fix", "remove one of these `replaces` declarations.")]
            case .invalidDefaultOverride:
                return [
                    path,
                    ErrorDetail(
                        "Fix",
                        "add `static var replaces: [any ModuleAssembly.Type] "
                            + "{ [\(module).self] }` to \(others)."),
                ]
            case .cycle:
                return [ErrorDetail("Fix", "move what the modules share into a module that both depend on.")]
            case .replacesItself:
                return [path, ErrorDetail("Fix", "remove \(module).self from \(module).replaces.")]
            case .dependsOnReplacedModule:
                return [
                    path,
                    ErrorDetail(
                        "Fix",
                        "remove \(others).self from \(module).dependencies (a replacement "
                            + "registers what it replaces itself), or keep \(others) and change its services with "
                            + "`decorate(_:name:)` instead of replacing it."),
                ]
            case .duplicateModule:
                return [ErrorDetail("Fix", "pass one instance of each module type.")]
            case .assemblyValidationFailed:
                return [path, ErrorDetail("Fix", "change \(module), or the validation passed to ModuleAssembler.")]
            case .eagerSingletonFailed:
                return resolutionError.map { [ErrorDetail.cause($0)] } ?? []
            case .abstractRegistrationNotProvided:
                return [
                    path, ErrorDetail("Declared at", others),
                    ErrorDetail(
                        "Fix",
                        "add the module that registers it to the ModuleAssembler, or use "
                            + "placeholders in tests (OverrideBehavior's usesAbstractPlaceholders)."),
                ]
            case .moduleNotInGraph:
                return related.isEmpty ? [] : [ErrorDetail("Modules in the graph", others)]
            default:
                return []
            }
        }

        /// ``summary``, then each of ``details`` on a line of its own, as an error prints them.
        public var description: String { ErrorDetail.render(summary: summary, details: details) }
    }

    /// Every problem found, in the order they were found.
    public let problems: [Problem]

    init(_ problems: [Problem]) {
        precondition(!problems.isEmpty, "a ModuleAssemblyError lists at least one problem")
        self.problems = problems
    }

    /// The codes of ``problems``, in order.
    public var codes: [Code] { problems.map(\.code) }

    /// The first problem's code; ``codes`` lists every problem's.
    public var code: Code { problems[0].code }

    /// The problem, or for several, how many there are.
    public var summary: String {
        if problems.count == 1 { return problems[0].summary }
        return "The module graph cannot be assembled (\(problems.count) problems):"
    }

    /// The problem's details, or for several, every problem numbered, with its details beneath.
    public var details: [ErrorDetail] {
        if problems.count == 1 { return problems[0].details }
        return problems.enumerated().map { index, problem in
            ErrorDetail("\(index + 1). \(problem.summary)", details: problem.details)
        }
    }
}

extension ModuleAssemblyError {
    /// The kinds of problem in a ``ModuleAssemblyError``.
    ///
    /// New codes may be added: match with `==`, or switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"moduleNotProvided"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// A module is needed, was not passed in, and does not conform to ``AutoInitModuleAssembly``.
        public static var moduleNotProvided: Self { Self("moduleNotProvided") }
        /// Two modules replace the same module.
        public static var conflictingReplacements: Self { Self("conflictingReplacements") }
        /// Modules replace each other in a loop (`A` replaces `B`, `B` replaces `A`).
        public static var replacementCycle: Self { Self("replacementCycle") }
        /// A ``DefaultModuleAssemblyOverride``'s `OverrideType` does not list the module in its `replaces`.
        public static var invalidDefaultOverride: Self { Self("invalidDefaultOverride") }
        /// Modules depend on each other in a cycle.
        public static var cycle: Self { Self("cycle") }
        /// Two instances of the same module type were passed in.
        public static var duplicateModule: Self { Self("duplicateModule") }
        /// An eager singleton (see ``ServiceEntry/eager()``) could not be created.
        public static var eagerSingletonFailed: Self { Self("eagerSingletonFailed") }
        /// The module asked for (to resolve from or reset) is not in this assembler's graph.
        public static var moduleNotInGraph: Self { Self("moduleNotInGraph") }
        /// A module lists itself in its own ``ModuleAssembly/replaces``.
        public static var replacesItself: Self { Self("replacesItself") }
        /// A module depends on a module that it replaces (directly, or through a chain of replacements): the
        /// replaced module is not assembled, so the dependency could only be the module itself.
        public static var dependsOnReplacedModule: Self { Self("dependsOnReplacedModule") }
        /// The validation passed to the assembler (Knit's `assemblyValidation:`) rejected a module;
        /// ``ModuleAssemblyError/Problem/related`` holds the validation's error.
        public static var assemblyValidationFailed: Self { Self("assemblyValidationFailed") }
        /// A module declares a service with `Container.registerAbstract(_:name:file:line:)` that no module of the
        /// graph registers; ``ModuleAssemblyError/Problem/key`` is the service, ``ModuleAssemblyError/Problem/related``
        /// the declaration's site.
        public static var abstractRegistrationNotProvided: Self { Self("abstractRegistrationNotProvided") }
        /// Warning: a module passed in replaces a module that nothing needs.
        public static var unusedReplacement: Self { Self("unusedReplacement") }
        /// Warning: a contribution was dropped because its dynamic module is not in this assembler's graph.
        public static var contributionDropped: Self { Self("contributionDropped") }
    }
}
