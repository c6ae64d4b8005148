/// Applies the runtime's rules to the facts found in source and reports what the source proves broken.
///
/// The rules are those of ``Container`` and ``ModuleAssembler``: a key is a type, a name and the number of
/// runtime arguments; `Lazy<T>` and `Provider<T>` need `T` but break cycles; `Optional<T>` never fails;
/// `[T]` and `[String: T]` are `T`'s collection unless registered themselves; `GraphIdentifier` and `Scope` are
/// answered by the runtime; a module's factories see only what the module and its dependencies (transitively, in
/// declaration order) register.
///
/// What only the running program knows — names that are not literals, types inferred or generic, containers
/// handed to helpers, registrations in code that is not visible — turns an error into a note.
///
/// ```swift
/// let findings = GraphChecker.check(facts, options: .init(closedWorld: true))
/// for finding in findings { print(finding) }   // App.swift:12:5: error: No registration for Clock. …
/// ```
package struct GraphChecker {
    /// How the checked target relates to the rest of the program.
    package struct Options: Sendable {
        /// Whether every registration of the program is visible (an executable or a test target); in a
        /// library, code that depends on it may register what it resolves.
        package var closedWorld: Bool

        /// Creates options.
        package init(closedWorld: Bool) { self.closedWorld = closedWorld }
    }

    static let moduleProtocolRoots: Set<String> = [
        "ModuleAssembly", "AutoInitModuleAssembly", "DynamicModuleAssembly",
        "DefaultModuleAssemblyOverride",
    ]

    let facts: Facts
    let options: Options
    /// Module type names.
    var modules: Set<String> = []
    /// Each module's dependencies, as declared.
    var dependencies: [String: [(name: String, placement: Placement)]] = [:]
    /// The qualified names of every declared type.
    var declaredTypes: Set<String> = []
    /// Why a module's registrations or dependencies cannot all be known from source.
    var openReasons: [String: String] = [:]
    /// Registrations by owner module (`nil`: outside any module).
    var registrationsByModule: [String?: [RegistrationFact]] = [:]
    /// The same, by owner and then by ``typeKey(_:)`` (`"*"` for registrations of unknown type).
    var index: [String?: [String: [RegistrationFact]]] = [:]
    /// Every owner: code outside modules, then each module.
    var allOwners: [String?] = [nil]
    /// Resolved type references.
    var resolved: [TypeReference: String?] = [:]
    var closures: [String: [String]] = [:]
    /// Edges between registrations for the cycle check.
    var edges: [CycleEdge] = []
    var findings: [Finding] = []

    /// Checks the facts.
    ///
    /// - Parameters:
    ///   - facts: What the scanner found in the target and its dependencies.
    ///   - options: How the target relates to the rest of the program.
    /// - Returns: The findings in the target's own files, ordered by location.
    package static func check(_ facts: Facts, options: Options) -> [Finding] {
        var checker = GraphChecker(facts: facts, options: options)
        checker.prepareModules()
        checker.checkModuleCycles()
        checker.checkResolves()
        checker.checkDuplicates()
        checker.checkReplacements()
        checker.checkCycles()
        checker.checkDecorators()
        for note in facts.notes where note.placement.own && !note.placement.ignored {
            checker.findings.append(Finding(.note, .notChecked, at: note.placement.location, note.message))
        }
        var seen = Set<Finding>()
        return checker.findings.filter { seen.insert($0).inserted }.sorted {
            ($0.location, $0.severity == .error ? 0 : 1, $0.message) < (
                $1.location, $1.severity == .error ? 0 : 1, $1.message
            )
        }
    }

    init(facts: Facts, options: Options) {
        self.facts = facts
        self.options = options
    }

    mutating func report(_ severity: Finding.Severity, _ code: Finding.Code, at placement: Placement, _ message: String)
    {
        guard placement.own, !placement.ignored else { return }
        findings.append(Finding(severity, code, at: placement.location, message))
    }

    // MARK: Modules

    /// `roots` and every protocol visible in the sources that inherits from one of them, directly or not.
    func protocolsInheriting(from roots: Set<String>) -> Set<String> {
        var protocols = roots
        var changed = true
        while changed {
            changed = false
            for type in facts.types where type.isProtocol {
                let name = String(type.type.name.split(separator: ".").last ?? "")
                if !protocols.contains(name), type.inherits.contains(where: protocols.contains) {
                    protocols.insert(name)
                    changed = true
                }
            }
        }
        return protocols
    }

    mutating func prepareModules() {
        declaredTypes = Set(facts.types.filter(\.type.exact).map(\.type.name))
        let protocols = protocolsInheriting(from: GraphChecker.moduleProtocolRoots)
        for type in facts.types where !type.isProtocol && type.inherits.contains(where: protocols.contains) {
            modules.insert(resolve(type.type) ?? type.type.name)
        }
        for list in facts.moduleLists where list.kind == .dependencies {
            modules.insert(resolve(list.typeName) ?? list.typeName.name)
        }
        for list in facts.moduleLists where list.kind == .dependencies {
            guard let module = moduleName(list.typeName) else { continue }
            for entry in list.entries {
                if let dependency = moduleName(entry.type) {
                    dependencies[module, default: []].append((dependency, entry.placement))
                } else {
                    openReasons[module] =
                        "\(display(module)) depends on \(entry.type.name), whose source is not visible"
                }
            }
            if !list.literal {
                openReasons[module] = "\(display(module)).dependencies is computed at run time"
            }
        }
        for escape in facts.escapes {
            guard let module = moduleName(escape.typeName), openReasons[module] == nil else { continue }
            openReasons[module] =
                "\(display(module)) hands its container to code the check does not follow "
                + "(\(escape.placement.location.short))"
        }
        for registration in facts.registrations {
            let module = moduleName(registration.owner)
            registrationsByModule[module, default: []].append(registration)
            index[module, default: [:]][registration.key.type.map(typeKey) ?? "*", default: []].append(registration)
        }
        for module in modules { _ = closure(of: module) }
        allOwners = [nil] + modules.sorted()
    }

    /// The qualified name of the declaration a reference names, looked up as Swift does: the enclosing types
    /// from the innermost out, file-private types of the reference's file, then the only type of that name.
    mutating func resolve(_ reference: TypeReference) -> String? {
        if reference.exact { return reference.name }
        if let known = resolved[reference] { return known }
        let result = lookUp(reference)
        resolved[reference] = result
        return result
    }

    private mutating func lookUp(_ reference: TypeReference) -> String? {
        var prefix: [Substring] = []
        if let context = reference.context {
            let outer =
                resolve(TypeReference(name: context, context: nil, file: reference.file, exact: false)) ?? context
            prefix = outer.split(separator: ".")
        }
        let filePrivate = DSLScanner.filePrivatePrefix(reference.file)
        while true {
            if prefix.isEmpty, declaredTypes.contains(filePrivate + reference.name) {
                return filePrivate + reference.name
            }
            let candidate = (prefix.map(String.init) + [reference.name]).joined(separator: ".")
            if declaredTypes.contains(candidate) { return candidate }
            if prefix.isEmpty { break }
            prefix.removeLast()
        }
        let matches = declaredTypes.filter { declared in
            (declared.hasSuffix("." + reference.name) || declared.hasSuffix("/" + reference.name))
                && (!declared.contains("/") || declared.hasPrefix(filePrivate))
        }
        return matches.count == 1 ? matches.first : nil
    }

    /// The module a reference names, or nil when it names no module.
    mutating func moduleName(_ reference: TypeReference?) -> String? {
        guard let reference, let name = resolve(reference) ?? (reference.exact ? reference.name : nil) else {
            return reference.flatMap { modules.contains($0.name) ? $0.name : nil }
        }
        return modules.contains(name) ? name : nil
    }

    /// A qualified name as a reader knows it: without the file prefix of a file-private type.
    func display(_ name: String) -> String {
        name.split(separator: "/").last.map(String.init) ?? name
    }

    /// The module and the modules its container searches, in the runtime's order: for each dependency, the
    /// dependency and then its own closure, each module once.
    mutating func closure(of module: String, visiting: Set<String> = []) -> [String] {
        if let known = closures[module] { return known }
        var result = [module]
        var seen: Set<String> = [module]
        for dependency in dependencies[module] ?? [] where modules.contains(dependency.name) {
            if visiting.contains(dependency.name) || dependency.name == module { continue }
            for name in [dependency.name] + closure(of: dependency.name, visiting: visiting.union([module])).dropFirst()
            where seen.insert(name).inserted {
                result.append(name)
            }
        }
        if visiting.isEmpty { closures[module] = result }
        return result
    }

    mutating func checkModuleCycles() {
        var reported = Set<String>()
        for module in modules.sorted() {
            var path: [(String, Placement?)] = [(module, nil)]
            var found: [(String, Placement?)]?
            func walk(_ current: String, _ path: inout [(String, Placement?)], _ found: inout [(String, Placement?)]?) {
                guard found == nil else { return }
                for dependency in dependencies[current] ?? [] where modules.contains(dependency.name) {
                    if dependency.name == module {
                        found = path + [(dependency.name, dependency.placement)]
                        return
                    }
                    if path.contains(where: { $0.0 == dependency.name }) { continue }
                    path.append((dependency.name, dependency.placement))
                    walk(dependency.name, &path, &found)
                    path.removeLast()
                }
            }
            walk(module, &path, &found)
            guard let cycle = found else { continue }
            let members = Set(cycle.map(\.0))
            let signature = members.sorted().joined(separator: ",")
            guard reported.insert(signature).inserted else { continue }
            let placements = cycle.compactMap(\.1)
            guard !placements.contains(where: \.ignored), let site = placements.first(where: \.own) else { continue }
            report(
                .error, .moduleCycle, at: site,
                "Circular module dependency: "
                    + cycle.map { display($0.0) }.joined(separator: " → ")
                    + ". ModuleAssembler rejects the graph; remove one of "
                    + "these dependencies.")
        }
    }

    // MARK: Keys

    func canonical(_ type: TypeExpression, depth: Int = 0) -> TypeExpression {
        guard depth < 8 else { return type }
        switch type {
        case .named(let components, let arguments):
            if arguments.isEmpty, let last = components.last, let alias = facts.typeAliases[last], alias != type {
                return canonical(alias, depth: depth + 1)
            }
            return .named(components, arguments.map { canonical($0, depth: depth + 1) })
        case .optional(let wrapped): return .optional(canonical(wrapped, depth: depth + 1))
        case .array(let element): return .array(canonical(element, depth: depth + 1))
        case .dictionary(let key, let value):
            return .dictionary(canonical(key, depth: depth + 1), canonical(value, depth: depth + 1))
        case .other: return type
        }
    }

    func sameType(_ lhs: TypeExpression, _ rhs: TypeExpression) -> Bool {
        let left = canonical(lhs)
        let right = canonical(rhs)
        if left == right || left == .placeholder || right == .placeholder { return true }
        // `Outer.Inner` and `Inner`, `MyModule.Service` and `Service`: the same when the last names agree.
        if case .named(let leftComponents, let leftArguments) = left,
            case .named(let rightComponents, let rightArguments) = right,
            leftComponents.last == rightComponents.last, leftArguments.count == rightArguments.count
        {
            return zip(leftArguments, rightArguments).allSatisfy { sameType($0, $1) }
        }
        return false
    }

    enum Match { case yes, maybe, nearMiss, no }

    func match(_ registration: KeyPattern, _ wanted: KeyPattern) -> Match {
        guard let registeredType = registration.type else {
            if case .literal(let name) = registration.name, case .literal(let other) = wanted.name, name != other {
                return .no
            }
            if registration.arity != nil, registration.arity != wanted.arity { return .no }
            return .maybe
        }
        guard let wantedType = wanted.type, sameType(registeredType, wantedType) else { return .no }
        if registration.name == .unknown { return .maybe }
        guard registration.name == wanted.name else { return .nearMiss }
        if let arity = registration.arity, arity != wanted.arity { return .nearMiss }
        return .yes
    }

    /// The modules a scope searches, in order; `nil` for the flat scope of code outside modules.
    func searchOrder(_ module: String?) -> [String?] {
        guard let module else { return allOwners }
        return closures[module] ?? [module]
    }

    struct Lookup {
        var winners: [RegistrationFact] = []
        var maybe: [RegistrationFact] = []
        var nearMisses: [RegistrationFact] = []
    }

    /// The bucket of a type in ``index``: its last name, which every spelling of it shares.
    func typeKey(_ type: TypeExpression) -> String {
        let type = canonical(type)
        return type.lastName ?? type.description
    }

    /// What resolving `key` finds from `module`'s container (or from code outside modules).
    func lookup(_ key: KeyPattern, from module: String?) -> Lookup {
        var result = Lookup()
        let bucket = key.type.map(typeKey) ?? "*"
        for owner in searchOrder(module) {
            var winners: [RegistrationFact] = []
            let candidates = (index[owner]?[bucket] ?? []) + (bucket == "*" ? [] : index[owner]?["*"] ?? [])
            for registration in candidates where registration.kind != .collectionElement {
                switch match(registration.key, key) {
                case .yes: winners.append(registration)
                case .maybe: result.maybe.append(registration)
                case .nearMiss: result.nearMisses.append(registration)
                case .no: break
                }
            }
            if !winners.isEmpty {
                result.winners += winners
                if module != nil { break }
            }
        }
        return result
    }

    /// The collection elements of `type` visible from `module`.
    func elements(of type: TypeExpression, from module: String?) -> [RegistrationFact] {
        searchOrder(module).flatMap { owner in
            (registrationsByModule[owner] ?? []).filter { registration in
                registration.kind == .collectionElement && registration.key.type.map { sameType($0, type) } == true
            }
        }
    }

    /// The registration an alias (`implements`) stands for.
    func target(of registration: RegistrationFact) -> RegistrationFact? {
        switch registration.kind {
        case .alias(let id): return id.map { facts.registrations[$0] }
        default: return registration
        }
    }
}
