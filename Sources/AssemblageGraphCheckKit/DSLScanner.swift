/// Reads the literal subset of the registration DSL from a lexed file: registrations (`register`,
/// `registerIntoCollection`, `autoregister`, `registerScopedValue`, `registerInjection`, scene registrations,
/// `implements`, `forward`), resolves inside and outside factories (`resolve`, `require`, `resolveAsync`,
/// `resolveAll`, `resolveAllNamed`, the `~>` operators, `@Injected` and the other property wrappers),
/// decorators, contributions, module `dependencies` and `replaces`, type declarations and type aliases.
///
/// It walks the tokens once, keeping a stack of what encloses the current token (a type, a function, a
/// factory closure, a loop, a `contribute(into:)` closure), so that every call lands in the right graph.
///
/// ```swift
/// var facts = Facts()
/// DSLScanner.scan(SourceFile(path: "App.swift", text: source), own: true, into: &facts)
/// ```
package struct DSLScanner {
    enum Context {
        case type(TypeReference, isProtocol: Bool, generics: [String], accessible: Bool)
        case function(generics: [String], assembleParameter: String?)
        case factory(Int)
        case initCompleted(Int)
        case decorator(Int)
        case contribute(target: TypeReference)
        case loop
    }

    let file: SourceFile
    let own: Bool
    var facts: Facts
    var pending: [Int: [(end: Int, context: Context)]] = [:]
    var stack: [(end: Int, context: Context)] = []

    static let resolveNames: Set<String> = ["resolve", "require", "resolveAsync", "resolveAll", "resolveAllNamed"]
    /// Members of `Container` that register nothing the check cannot see.
    static let containerMembersRead: Set<String> = [
        "register", "registerIntoCollection", "autoregister", "registerScopedValue", "registerAbstract",
        "registerInjection", "decorate",
        "contribute", "forward", "resolve", "require", "resolveAsync", "resolveAll", "resolveAllNamed", "inject",
        "property", "requireProperty", "decodeProperties", "applyPropertyLoader", "applyPropertyLoaders",
        "addPropertySource", "addBehavior", "resetObjectScope", "synchronize", "hasAnyRegistration", "isolation",
        "label",
    ]
    /// The property wrappers that resolve their property's type, and whether a missing registration fails
    /// (`Injected` and `LazyInjected` stop the program; the optional ones give `nil`).
    static let propertyWrappers: [String: Bool] = [
        "Injected": true, "LazyInjected": true, "OptionalInjected": false, "WeakLazyInjected": false,
    ]
    static let typeKeywords: Set<String> = ["struct", "class", "enum", "actor", "extension", "protocol"]
    static let notTypeNames: Set<String> = [
        "func", "var", "let", "subscript", "init", "override", "final",
        "static", "private", "public", "internal", "fileprivate",
        "open", "package", "protocol", "case", "indirect", "mutating",
    ]

    init(file: SourceFile, own: Bool, facts: Facts) {
        self.file = file
        self.own = own
        self.facts = facts
    }

    /// Adds the facts of `file` to `facts`.
    ///
    /// - Parameters:
    ///   - file: A lexed file.
    ///   - own: Whether the file belongs to the checked target (findings are reported only in such files).
    ///   - facts: The facts gathered so far.
    package static func scan(_ file: SourceFile, own: Bool, into facts: inout Facts) {
        var scanner = DSLScanner(file: file, own: own, facts: facts)
        if own && file.requestsAccessors { scanner.facts.accessorsRequested = true }
        if own && file.requestsValidationTests { scanner.facts.validationTestsRequested = true }
        scanner.run()
        facts = scanner.facts
    }

    // MARK: Walking

    var tokens: [Token] { file.tokens }

    func token(_ index: Int) -> Token? { index >= 0 && index < tokens.count ? tokens[index] : nil }

    func placement(_ index: Int) -> Placement {
        let location = file.location(index)
        return Placement(
            location: location, branches: index < file.branches.count ? file.branches[index] : [],
            ignored: file.ignoredLines.contains(location.line), own: own)
    }

    mutating func push(_ context: Context, from start: Int, to end: Int) {
        pending[start, default: []].append((end, context))
    }

    mutating func run() {
        var index = 0
        while index < tokens.count {
            while let last = stack.last, last.end < index { stack.removeLast() }
            if let contexts = pending.removeValue(forKey: index) {
                stack += contexts.sorted { $0.end > $1.end }
            }
            let current = tokens[index]
            if current.kind == .identifier {
                visitIdentifier(at: index)
            } else if current.is("~"), let arrow = token(index + 1), arrow.is(">"), !arrow.spaceBefore {
                operatorResolve(at: index)
            }
            index += 1
        }
    }

    mutating func visitIdentifier(at index: Int) {
        let text = tokens[index].text
        let previous = token(index - 1)
        let next = token(index + 1)
        let isMember = previous?.is(".") == true
        if !isMember, DSLScanner.typeKeywords.contains(text), let next, next.kind == .identifier,
            !DSLScanner.notTypeNames.contains(next.text)
        {
            typeDeclaration(at: index)
            return
        }
        if text == "func", !isMember {
            function(at: index)
            return
        }
        if text == "typealias", !isMember {
            typeAlias(at: index)
            return
        }
        // Loops and conditional branches: what is registered inside may run any number of times, or not at all.
        if ["for", "while", "repeat", "if", "else", "switch"].contains(text), !isMember, next?.is(":") != true {
            if text == "while", previous?.is("}") == true { return }  // repeat { } while …
            loop(at: index)
            return
        }
        if text == "forEach", isMember, let next, next.is("{") || next.is("(") {
            push(.loop, from: index + 1, to: file.close(index + 1))
            return
        }
        if text == "dependencies" || text == "replaces", let previous, previous.is("var") || previous.is("let") {
            moduleList(at: index)
            return
        }
        // The container of `assemble(container:)` handed to other code (`helper(container)`, `let c = container`)
        // or used through a method the check does not read (`container.registerNetworking()`): the module may
        // register more than the check sees.
        if let parameter = assembleParameter, text == parameter, !isMember, next?.is(":") != true,
            previous?.is("func") != true,
            next?.is(".") != true || !DSLScanner.containerMembersRead.contains(token(index + 2)?.text ?? "")
        {
            if let typeName = enclosingTypeName {
                facts.escapes.append(ContainerEscapeFact(typeName: typeName, placement: placement(index)))
            }
            return
        }
        if previous?.is("@") == true, let required = DSLScanner.propertyWrappers[text] {
            propertyWrapper(at: index, required: required)
            return
        }
        guard let next, next.is("(") || next.is("{"), previous?.is("func") != true else { return }
        switch text {
        case "register": registration(at: index, collection: false)
        case "registerIntoCollection": registration(at: index, collection: true)
        case "autoregister": autoregistration(at: index)
        case "registerScopedValue": scopedValue(at: index)
        case "registerAbstract": scopedValue(at: index, form: "abstract registration")
        case "registerInjection": injection(at: index)
        case "decorate": decorator(at: index)
        case "contribute": contribution(at: index)
        case "forward": forward(at: index)
        default:
            if DSLScanner.resolveNames.contains(text), next.is("(") { resolve(at: index) }
        }
    }

    // MARK: Enclosing code

    var enclosingTypeName: TypeReference? {
        for entry in stack.reversed() {
            if case .type(let type, let isProtocol, _, _) = entry.context { return isProtocol ? nil : type }
        }
        return nil
    }

    /// The type whose body holds the current token, or the module a `contribute(into:)` closure targets.
    var owner: (type: TypeReference?, contributed: Bool) {
        for entry in stack.reversed() {
            switch entry.context {
            case .contribute(let target): return (target, true)
            case .type(let type, let isProtocol, _, _): return (isProtocol ? nil : type, false)
            default: continue
            }
        }
        return (nil, false)
    }

    /// A reference to the type named `name` from the current token.
    func reference(_ name: String) -> TypeReference {
        TypeReference(name: name, context: enclosingTypeName?.name, file: file.path, exact: false)
    }

    var genericParameters: Set<String> {
        var names: Set<String> = ["Self"]
        for entry in stack {
            switch entry.context {
            case .type(_, _, let generics, _), .function(let generics, _): names.formUnion(generics)
            default: break
            }
        }
        return names
    }

    var assembleParameter: String? {
        for entry in stack.reversed() {
            if case .function(_, let parameter) = entry.context { return parameter }
        }
        return nil
    }

    var inLoop: Bool {
        stack.contains { if case .loop = $0.context { return true } else { return false } }
    }

    var resolveContext: ResolveFact.Context {
        for entry in stack.reversed() {
            switch entry.context {
            case .factory(let id): return .factory(id)
            case .initCompleted(let id): return .initCompleted(id)
            case .decorator(let id): return .decorator(id)
            default: continue
            }
        }
        return .none
    }

    /// The type whose module scope a factory here resolves from: the enclosing type (for a contribution, the
    /// contributor), or the scope of the registration whose factory this is.
    var factoryScope: TypeReference? {
        for entry in stack.reversed() {
            switch entry.context {
            case .factory(let id), .initCompleted(let id): return facts.registrations[id].scopeType
            case .decorator(let id): return facts.decorators[id].scopeType
            case .type(let type, let isProtocol, _, _): return isProtocol ? nil : type
            default: continue
            }
        }
        return nil
    }
}
