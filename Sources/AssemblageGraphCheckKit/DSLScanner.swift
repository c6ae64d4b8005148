/// Reads the literal subset of the registration DSL from a lexed file: registrations, resolves inside and
/// outside factories, decorators, contributions, module `dependencies` and `replaces`, type declarations and
/// type aliases.
///
/// It walks the tokens once, keeping a stack of what encloses the current token (a type, a function, a
/// factory closure, a loop, a `contribute(into:)` closure), so that every call lands in the right graph.
///
/// ```swift
/// var facts = Facts()
/// DSLScanner.scan(SourceFile(path: "App.swift", text: source), own: true, into: &facts)
/// ```
package struct DSLScanner {
    private enum Context {
        case type(TypeReference, isProtocol: Bool, generics: [String])
        case function(generics: [String], assembleParameter: String?)
        case factory(Int)
        case initCompleted(Int)
        case decorator(Int)
        case contribute(target: TypeReference)
        case loop
    }

    private let file: SourceFile
    private let own: Bool
    private var facts: Facts
    private var pending: [Int: [(end: Int, context: Context)]] = [:]
    private var stack: [(end: Int, context: Context)] = []

    private static let resolveNames: Set<String> = ["resolve", "require", "resolveAsync", "resolveAll", "resolveAllNamed"]
    private static let typeKeywords: Set<String> = ["struct", "class", "enum", "actor", "extension", "protocol"]
    private static let notTypeNames: Set<String> = ["func", "var", "let", "subscript", "init", "override", "final",
                                                    "static", "private", "public", "internal", "fileprivate",
                                                    "open", "package", "protocol", "case", "indirect", "mutating"]

    private init(file: SourceFile, own: Bool, facts: Facts) {
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
        scanner.run()
        facts = scanner.facts
    }

    // MARK: Walking

    private var tokens: [Token] { file.tokens }

    private func token(_ index: Int) -> Token? { index >= 0 && index < tokens.count ? tokens[index] : nil }

    private func placement(_ index: Int) -> Placement {
        let location = file.location(index)
        return Placement(location: location, branches: index < file.branches.count ? file.branches[index] : [],
                         ignored: file.ignoredLines.contains(location.line), own: own)
    }

    private mutating func push(_ context: Context, from start: Int, to end: Int) {
        pending[start, default: []].append((end, context))
    }

    private mutating func run() {
        var index = 0
        while index < tokens.count {
            while let last = stack.last, last.end < index { stack.removeLast() }
            if let contexts = pending.removeValue(forKey: index) {
                stack += contexts.sorted { $0.end > $1.end }
            }
            let current = tokens[index]
            if current.kind == .identifier {
                visitIdentifier(at: index)
            }
            index += 1
        }
    }

    private mutating func visitIdentifier(at index: Int) {
        let text = tokens[index].text
        let previous = token(index - 1)
        let next = token(index + 1)
        let isMember = previous?.is(".") == true
        if !isMember, DSLScanner.typeKeywords.contains(text), let next, next.kind == .identifier,
           !DSLScanner.notTypeNames.contains(next.text) {
            typeDeclaration(at: index)
            return
        }
        if text == "func", !isMember { function(at: index); return }
        if text == "typealias", !isMember { typeAlias(at: index); return }
        if (text == "for" || text == "while" || text == "repeat") && !isMember {
            if text == "while", previous?.is("}") == true { return }   // repeat { } while …
            loop(at: index)
            return
        }
        if text == "forEach", isMember, let next, next.is("{") || next.is("(") {
            push(.loop, from: index + 1, to: file.close(index + 1))
            return
        }
        if (text == "dependencies" || text == "replaces"), let previous, previous.is("var") || previous.is("let") {
            moduleList(at: index)
            return
        }
        if let parameter = assembleParameter, text == parameter, !isMember, next?.is(".") != true,
           next?.is(":") != true, previous?.is("func") != true {
            if let typeName = enclosingTypeName {
                facts.escapes.append(ContainerEscapeFact(typeName: typeName, placement: placement(index)))
            }
            return
        }
        guard let next, next.is("(") || next.is("{"), previous?.is("func") != true else { return }
        guard isMember || previous == nil || !previous!.is("#") else { return }
        switch text {
        case "register": registration(at: index, collection: false)
        case "registerIntoCollection": registration(at: index, collection: true)
        case "decorate": decorator(at: index)
        case "contribute": contribution(at: index)
        case "forward": forward(at: index)
        default:
            if DSLScanner.resolveNames.contains(text), next.is("(") { resolve(at: index) }
        }
    }

    // MARK: Enclosing code

    private var enclosingTypeName: TypeReference? {
        for entry in stack.reversed() {
            if case .type(let type, let isProtocol, _) = entry.context { return isProtocol ? nil : type }
        }
        return nil
    }

    /// The type whose body holds the current token, or the module a `contribute(into:)` closure targets.
    private var owner: (type: TypeReference?, contributed: Bool) {
        for entry in stack.reversed() {
            switch entry.context {
            case .contribute(let target): return (target, true)
            case .type(let type, let isProtocol, _): return (isProtocol ? nil : type, false)
            default: continue
            }
        }
        return (nil, false)
    }

    /// A reference to the type named `name` from the current token.
    private func reference(_ name: String) -> TypeReference {
        TypeReference(name: name, context: enclosingTypeName?.name, file: file.path, exact: false)
    }

    private var genericParameters: Set<String> {
        var names: Set<String> = ["Self"]
        for entry in stack {
            switch entry.context {
            case .type(_, _, let generics), .function(let generics, _): names.formUnion(generics)
            default: break
            }
        }
        return names
    }

    private var assembleParameter: String? {
        for entry in stack.reversed() {
            if case .function(_, let parameter) = entry.context { return parameter }
        }
        return nil
    }

    private var inLoop: Bool {
        stack.contains { if case .loop = $0.context { return true } else { return false } }
    }

    private var resolveContext: ResolveFact.Context {
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
    private var factoryScope: TypeReference? {
        for entry in stack.reversed() {
            switch entry.context {
            case .factory(let id), .initCompleted(let id): return facts.registrations[id].scopeType
            case .decorator(let id): return facts.decorators[id].scopeType
            case .type(let type, let isProtocol, _): return isProtocol ? nil : type
            default: continue
            }
        }
        return nil
    }

    // MARK: Declarations

    private mutating func typeDeclaration(at index: Int) {
        let isProtocol = tokens[index].text == "protocol"
        let isExtension = tokens[index].text == "extension"
        var position = index + 1
        var name = tokens[position].text
        position += 1
        while let dot = token(position), dot.is("."), let part = token(position + 1), part.kind == .identifier {
            name += "." + part.text
            position += 2
        }
        let type: TypeReference
        if isExtension {
            type = TypeReference(name: name, context: nil, file: file.path, exact: false)
        } else if let outer = enclosingTypeName {
            type = TypeReference(name: outer.name + "." + name, context: nil, file: file.path, exact: outer.exact)
        } else {
            let isPrivate = (max(0, index - 3)..<index).contains { tokens[$0].is("private") || tokens[$0].is("fileprivate") }
            type = TypeReference(name: isPrivate ? DSLScanner.filePrivatePrefix(file.path) + name : name, context: nil,
                                 file: file.path, exact: true)
        }
        var generics: [String] = []
        if token(position)?.is("<") == true {
            let (names, after) = angleList(from: position)
            generics = names
            position = after
        }
        var inherits: [String] = []
        var inClause = false
        while let current = token(position), !current.is("{") {
            if current.is(":") && !inClause { inClause = true }
            else if current.is("where") { inClause = false }
            else if inClause, current.kind == .identifier, current.text != "any" { inherits.append(current.text) }
            if current.is("(") || current.is("[") { position = file.close(position) }
            if current.is("}") || current.is(";") { return }
            position += 1
        }
        guard position < tokens.count else { return }
        facts.types.append(TypeDeclarationFact(type: type, inherits: inherits, isProtocol: isProtocol,
                                               location: file.location(index)))
        push(.type(type, isProtocol: isProtocol, generics: generics), from: position, to: file.close(position))
    }

    /// The prefix of a file-private type's qualified name: such types are distinct in each file.
    package static func filePrivatePrefix(_ path: String) -> String {
        String(path.map { $0 == "." || $0 == "/" ? "_" : $0 }) + "/"
    }

    /// Reads `<A, B: P>` and returns the parameter names and the index after `>`.
    private func angleList(from open: Int) -> ([String], Int) {
        var depth = 0
        var names: [String] = []
        var expectName = true
        var position = open
        while let current = token(position) {
            if current.is("<") { depth += 1; expectName = depth == 1 }
            else if current.is(">") { depth -= 1; if depth == 0 { return (names, position + 1) } }
            else if current.is(",") && depth == 1 { expectName = true }
            else if expectName, current.kind == .identifier, depth == 1 {
                if current.text != "each" { names.append(current.text); expectName = false }
            } else if current.is("{") || current.is("(") { return (names, position) }
            position += 1
        }
        return (names, position)
    }

    private mutating func function(at index: Int) {
        guard let nameToken = token(index + 1) else { return }
        var position = index + 2
        var generics: [String] = []
        if token(position)?.is("<") == true {
            let (names, after) = angleList(from: position)
            generics = names
            position = after
        }
        guard token(position)?.is("(") == true else { return }
        let parametersClose = file.close(position)
        var assembleParameter: String?
        if nameToken.text == "assemble", token(position + 1)?.text == "container" {
            if let internalName = token(position + 2), internalName.kind == .identifier { assembleParameter = internalName.text }
            else { assembleParameter = "container" }
        }
        position = parametersClose + 1
        while let current = token(position) {
            if current.is("{") {
                push(.function(generics: generics, assembleParameter: assembleParameter), from: position,
                     to: file.close(position))
                return
            }
            if current.is("}") || current.is(";")
                || (current.kind == .identifier && ["func", "var", "let", "init", "case", "static"].contains(current.text)) {
                return
            }
            if current.is("(") || current.is("[") { position = file.close(position) }
            position += 1
        }
    }

    private mutating func typeAlias(at index: Int) {
        guard let name = token(index + 1), name.kind == .identifier, token(index + 2)?.is("=") == true else { return }
        let line = tokens[index + 2].line
        var end = index + 3
        while let current = token(end), current.line == line, !current.is(";"), !current.is("}") { end += 1 }
        if let type = TypeExpression.parse(tokens[(index + 3)..<end]) { facts.typeAliases[name.text] = type }
    }

    private mutating func loop(at index: Int) {
        var position = index + 1
        while let current = token(position) {
            if current.is("{") {
                push(.loop, from: position, to: file.close(position))
                return
            }
            if current.is("}") { return }
            if current.is("(") || current.is("[") { position = file.close(position) }
            position += 1
        }
    }

    private mutating func moduleList(at index: Int) {
        guard let typeName = enclosingTypeName else { return }
        let isStatic = (max(0, index - 4)..<index).contains { tokens[$0].is("static") || tokens[$0].is("class") }
        guard isStatic else { return }
        var position = index + 1
        var bodyStart = -1
        var bodyEnd = -1
        while let current = token(position) {
            if current.is("{") {
                bodyStart = position + 1
                bodyEnd = file.close(position)
                break
            }
            if current.is("=") {
                bodyStart = position + 1
                bodyEnd = token(position + 1)?.is("[") == true ? file.close(position + 1) + 1 : position + 2
                break
            }
            if current.is("}") { return }
            if current.is("[") || current.is("(") { position = file.close(position) }
            position += 1
        }
        guard bodyStart >= 0, bodyStart <= bodyEnd else { return }
        let body = tokens[bodyStart..<bodyEnd]
        if body.count == 1, body.first?.text == "get" { return }
        var entries: [(type: TypeReference, placement: Placement)] = []
        var literal = true
        var brackets = 0
        var position2 = bodyStart
        while position2 < bodyEnd {
            let current = tokens[position2]
            if current.kind == .identifier, current.text != "self", current.text != "return",
               token(position2 + 1)?.is(".") == true {
                // A dotted name ending in `.self`.
                var end = position2 + 1
                var written = current.text
                while end + 1 < bodyEnd, tokens[end].is("."), tokens[end + 1].kind == .identifier, tokens[end + 1].text != "self" {
                    written += "." + tokens[end + 1].text
                    end += 2
                }
                if end + 1 < bodyEnd + 1, tokens[end].is("."), token(end + 1)?.text == "self" {
                    entries.append((reference(written), placement(position2)))
                    position2 = end + 2
                    continue
                }
            }
            if current.is("[") { brackets += 1 }
            else if current.is("]") { brackets -= 1 }
            else if !(current.is(",") || current.is("return")) { literal = false }
            position2 += 1
        }
        if brackets != 0 { literal = false }
        let kind: ModuleListFact.Kind = tokens[index].text == "dependencies" ? .dependencies : .replaces
        facts.moduleLists.append(ModuleListFact(typeName: typeName, kind: kind, entries: entries, literal: literal,
                                                placement: placement(index)))
    }

    // MARK: Calls

    private struct Argument {
        var label: String?
        var range: Range<Int>
    }

    /// The arguments of the call whose name is at `index`, its trailing closure's opening brace, and the index
    /// of its last token.
    private func call(at index: Int) -> (arguments: [Argument], trailing: Int?, end: Int) {
        var arguments: [Argument] = []
        var end = index
        if tokens[index + 1].is("(") {
            let close = file.close(index + 1)
            var start = index + 2
            var position = start
            while position <= close {
                let current = tokens[position]
                if position == close || current.is(",") {
                    if start < position {
                        var label: String?
                        var valueStart = start
                        if tokens[start].kind == .identifier, start + 1 < position, tokens[start + 1].is(":") {
                            label = tokens[start].text
                            valueStart = start + 2
                        }
                        arguments.append(Argument(label: label, range: valueStart..<position))
                    }
                    start = position + 1
                } else if current.is("(") || current.is("[") || current.is("{") {
                    position = file.close(position)
                }
                position += 1
            }
            end = close
        }
        if let brace = token(end + 1), brace.is("{") { return (arguments, end + 1, file.close(end + 1)) }
        return (arguments, nil, end)
    }

    /// The type of `T.self` in `range`, or nil when the argument is not such an expression.
    private func metatype(_ range: Range<Int>) -> (type: TypeExpression?, generic: String?)? {
        guard range.count >= 3, tokens[range.upperBound - 1].text == "self", tokens[range.upperBound - 2].is(".")
        else { return nil }
        guard let type = TypeExpression.parse(tokens[range.lowerBound..<(range.upperBound - 2)]) else { return (nil, nil) }
        let generics = genericParameters
        if let generic = type.names.first(where: { generics.contains($0) }) { return (nil, generic) }
        return (type, nil)
    }

    private func name(_ arguments: [Argument]) -> NameValue {
        guard let argument = arguments.first(where: { $0.label == "name" }) else { return .none }
        if argument.range.count == 1 {
            let value = tokens[argument.range.lowerBound]
            if value.kind == .string, let literal = value.literal { return .literal(literal) }
            if value.is("nil") { return .none }
        }
        return .unknown
    }

    /// The parameters of the closure opening at `open`, and where its body starts; nil when it has no
    /// parameter clause.
    private func closureParameters(_ open: Int) -> (parameters: [String?], bodyStart: Int)? {
        let close = file.close(open)
        var position = open + 1
        var parameters: [String?] = []
        var expectParameter = true
        while position < close {
            let current = tokens[position]
            if current.is("in") { return (parameters, position + 1) }
            if current.is("@") { position += 2; continue }
            if current.is("[") && parameters.isEmpty { position = file.close(position) + 1; continue }
            if current.is("(") && parameters.isEmpty {
                // `(r, name: String)`: one parameter per top-level comma-separated entry.
                let groupClose = file.close(position)
                var entryStart = position + 1
                var scan = position + 1
                while scan <= groupClose {
                    if scan == groupClose || tokens[scan].is(",") {
                        if entryStart < scan {
                            let colon = (entryStart..<scan).first { tokens[$0].is(":") }
                            let type = colon.map { colon in
                                TypeExpression.parse(tokens[(colon + 1)..<scan])?.description
                                    ?? tokens[(colon + 1)..<scan].map(\.text).joined()
                            }
                            parameters.append(type)
                        }
                        entryStart = scan + 1
                    } else if tokens[scan].is("(") || tokens[scan].is("[") {
                        scan = file.close(scan)
                    }
                    scan += 1
                }
                position = groupClose + 1
                // `async throws -> T` up to `in`.
                while position < close, !tokens[position].is("in") {
                    let text = tokens[position].text
                    if tokens[position].kind == .identifier && ["let", "var", "return", "if", "guard", "for", "try"].contains(text) && text != "throws" {
                        return nil
                    }
                    position += 1
                }
                continue
            }
            if current.kind == .identifier, expectParameter {
                if ["let", "var", "return", "if", "guard", "for", "while", "switch", "try", "await", "do", "defer", "throw"]
                    .contains(current.text) {
                    return nil
                }
                parameters.append(nil)
                expectParameter = false
                position += 1
                continue
            }
            if current.is(",") && !expectParameter { expectParameter = true; position += 1; continue }
            if current.is("->") || current.is("async") || current.is("throws") {
                // A return type or effects after bare parameters: skip to `in`.
                position += 1
                continue
            }
            if !parameters.isEmpty, current.kind == .identifier { position += 1; continue }
            return nil
        }
        return nil
    }

    /// The number of runtime arguments of a factory closure (its parameters minus the resolver), the argument
    /// types when spelled out, and where its body starts.
    private func factoryShape(_ open: Int, fixedParameters: Int) -> (arity: Int?, types: [String]?, bodyStart: Int) {
        if let (parameters, bodyStart) = closureParameters(open) {
            let arguments = Array(parameters.dropFirst(fixedParameters))
            let types = arguments.allSatisfy { $0 != nil } ? arguments.map { $0! } : nil
            return (max(0, parameters.count - fixedParameters), types, bodyStart)
        }
        // `$0`, `$1`: the highest at this closure's own level.
        let close = file.close(open)
        var highest = -1
        var position = open + 1
        while position < close {
            let current = tokens[position]
            if current.is("{") { position = file.close(position) }
            else if current.kind == .identifier, current.text.hasPrefix("$"), let number = Int(current.text.dropFirst()) {
                highest = max(highest, number)
            }
            position += 1
        }
        return (highest >= 0 ? max(0, highest + 1 - fixedParameters) : nil, nil, open + 1)
    }

    /// `Foo(…)` as a factory's whole body: the registered type, when the registration leaves it out.
    private func constructedType(bodyStart: Int, close: Int) -> TypeExpression? {
        var position = bodyStart
        while position < close, tokens[position].is("try") || tokens[position].is("await") { position += 1 }
        var end = position
        while end < close, tokens[end].kind == .identifier || tokens[end].is(".") { end += 1 }
        guard end > position, end < close, tokens[end].is("("), file.close(end) == close - 1 else { return nil }
        var typeEnd = end
        if typeEnd - 2 >= position, tokens[typeEnd - 1].text == "init", tokens[typeEnd - 2].is(".") { typeEnd -= 2 }
        guard let first = tokens[position].text.first, first.isUppercase else { return nil }
        return TypeExpression.parse(tokens[position..<typeEnd])
    }

    private mutating func registration(at index: Int, collection: Bool) {
        let (arguments, trailing, end) = call(at: index)
        let first = arguments.first
        let knownLabels: Set<String> = ["name", "factory", "mainActorFactory", "file", "line", "priority"]
        if let label = first?.label, !knownLabels.contains(label) { return }   // `register(scene:)`, `register(defaults:)`
        var type: TypeExpression?
        var generic: String?
        var typeWritten = false
        if let first, first.label == nil {
            guard let metatype = metatype(first.range) else { return }   // not the container's register
            type = metatype.type
            generic = metatype.generic
            typeWritten = true
        }
        var factoryOpen = trailing
        if let argument = arguments.first(where: { $0.label == "factory" || $0.label == "mainActorFactory" }) {
            factoryOpen = tokens[argument.range.lowerBound].is("{") ? argument.range.lowerBound : nil
        }
        var arity: Int?
        var argumentTypes: [String]?
        if let open = factoryOpen {
            let shape = factoryShape(open, fixedParameters: 1)
            arity = shape.arity
            argumentTypes = shape.types
            if !typeWritten, generic == nil { type = constructedType(bodyStart: shape.bodyStart, close: file.close(open)) }
        }
        let place = placement(index)
        let key = KeyPattern(type: type, name: name(arguments), arity: collection ? 0 : arity,
                             argumentTypes: argumentTypes)
        let id = facts.registrations.count
        let (ownerType, contributed) = owner
        facts.registrations.append(RegistrationFact(
            id: id, kind: collection ? .collectionElement : .service, key: key, owner: ownerType,
            scopeType: enclosingTypeName, contributed: contributed, placement: place, inLoop: inLoop))
        if let generic {
            facts.notes.append(ScanNote(message: "This registration's type depends on the generic parameter \(generic), "
                + "so its key cannot be known from source; validate() checks it at run time.", placement: place))
        } else if type == nil {
            facts.notes.append(ScanNote(message: "This registration's type is inferred from its factory, so its key "
                + "cannot be known from source; resolves that it may satisfy are reported as notes.", placement: place))
        }
        if case .unknown = key.name {
            facts.notes.append(ScanNote(message: "The name of this registration of \(type?.description ?? "a service") "
                + "is not a literal; resolves of that type under any name are reported as notes.", placement: place))
        }
        if let open = factoryOpen { push(.factory(id), from: open, to: file.close(open)) }
        chain(after: end, registration: id)
    }

    /// `.inObjectScope(…)`, `.implements(…)`, `.initCompleted { … }` after a registration.
    private mutating func chain(after end: Int, registration id: Int) {
        var position = end + 1
        while let dot = token(position), dot.is("."), let member = token(position + 1), member.kind == .identifier,
              let open = token(position + 2), open.is("(") || open.is("{") {
            let (arguments, trailing, callEnd) = call(at: position + 1)
            switch member.text {
            case "implements":
                let types = arguments.filter { $0.label == nil }.compactMap { metatype($0.range) }
                let named = name(arguments)
                for metatype in types {
                    let key = KeyPattern(type: metatype.type, name: types.count == 1 ? named : .none,
                                         arity: facts.registrations[id].key.arity,
                                         argumentTypes: facts.registrations[id].key.argumentTypes)
                    facts.registrations.append(RegistrationFact(
                        id: facts.registrations.count, kind: .alias(of: id), key: key,
                        owner: facts.registrations[id].owner, scopeType: facts.registrations[id].scopeType,
                        contributed: facts.registrations[id].contributed, placement: placement(position + 1),
                        inLoop: inLoop))
                }
            case "initCompleted":
                let closure = trailing ?? arguments.first.flatMap { tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil }
                if let closure { push(.initCompleted(id), from: closure, to: file.close(closure)) }
            default:
                break
            }
            position = callEnd + 1
        }
    }

    private mutating func forward(at index: Int) {
        let (arguments, _, _) = call(at: index)
        guard arguments.contains(where: { $0.label == "to" }), let first = arguments.first, first.label == nil,
              let metatype = metatype(first.range) else { return }
        let id = facts.registrations.count
        let (ownerType, contributed) = owner
        facts.registrations.append(RegistrationFact(
            id: id, kind: .alias(of: nil), key: KeyPattern(type: metatype.type, name: name(arguments), arity: nil),
            owner: ownerType, scopeType: enclosingTypeName, contributed: contributed, placement: placement(index),
            inLoop: inLoop))
    }

    private mutating func decorator(at index: Int) {
        let (arguments, trailing, _) = call(at: index)
        guard let first = arguments.first, first.label == nil, let metatype = metatype(first.range) else { return }
        let closure = trailing ?? arguments.last.flatMap { tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil }
        let id = facts.decorators.count
        facts.decorators.append(DecoratorFact(key: KeyPattern(type: metatype.type, name: name(arguments), arity: nil),
                                              scopeType: enclosingTypeName, placement: placement(index)))
        if let closure { push(.decorator(id), from: closure, to: file.close(closure)) }
    }

    private mutating func contribution(at index: Int) {
        let (arguments, trailing, _) = call(at: index)
        guard let target = arguments.first(where: { $0.label == "into" }), let metatype = metatype(target.range),
              case .named(let components, _)? = metatype.type else { return }
        let closure = trailing ?? arguments.last.flatMap { tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil }
        if let closure {
            push(.contribute(target: reference(components.joined(separator: "."))), from: closure, to: file.close(closure))
        }
    }

    private mutating func resolve(at index: Int) {
        let method = tokens[index].text
        let (arguments, _, end) = call(at: index)
        guard let first = arguments.first, first.label == nil, let metatype = metatype(first.range) else { return }
        let place = placement(index)
        var arity = 0
        if let position = arguments.firstIndex(where: { $0.label == "argument" || $0.label == "arguments" }) {
            arity = arguments[position].label == "argument" ? 1 : arguments.count - position
        }
        let key = KeyPattern(type: metatype.type, name: name(arguments), arity: arity)
        if let generic = metatype.generic {
            facts.notes.append(ScanNote(message: "This \(method) asks for a type that depends on the generic parameter "
                + "\(generic); it cannot be checked from source.", placement: place))
            return
        }
        if case .unknown = key.name {
            facts.notes.append(ScanNote(message: "This \(method) of \(metatype.type?.description ?? "a service") uses a name "
                + "that is not a literal; it cannot be checked from source.", placement: place))
            return
        }
        let forced = token(end + 1).map { $0.is("!") && !$0.spaceBefore } ?? false
        let collection: ResolveFact.Collection? = method == "resolveAll" ? .array : method == "resolveAllNamed" ? .dictionary : nil
        facts.resolves.append(ResolveFact(
            key: key, required: method != "resolve" || forced, collection: collection, context: resolveContext,
            scopeType: factoryScope, placement: place))
    }
}
