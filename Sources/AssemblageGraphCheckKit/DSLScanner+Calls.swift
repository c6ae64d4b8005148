extension DSLScanner {
    // MARK: Calls

    struct Argument {
        var label: String?
        var range: Range<Int>
    }

    /// The arguments of the call whose name is at `index`, its trailing closure's opening brace, and the index
    /// of its last token.
    func call(at index: Int) -> (arguments: [Argument], trailing: Int?, end: Int) {
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

    /// The type of `T.self` in `range`, or why it cannot be known (`unknown`); nil when the argument is not a
    /// `….self` expression at all.
    func metatype(_ range: Range<Int>) -> (type: TypeExpression?, unknown: String?)? {
        guard range.count >= 3, tokens[range.upperBound - 1].text == "self", tokens[range.upperBound - 2].is(".")
        else { return nil }
        return typeNamed(range.lowerBound..<(range.upperBound - 2))
    }

    /// The type written in `range` (before `.self`, or after a property's colon), or why it cannot be known.
    func typeNamed(_ range: Range<Int>) -> (type: TypeExpression?, unknown: String?) {
        let unreadable = "is not a type name the check can read"
        guard let type = TypeExpression.parse(tokens[range]) else {
            return (nil, unreadable)
        }
        let generics = genericParameters
        if let generic = type.names.first(where: { generics.contains($0) }) {
            return (nil, "depends on the generic parameter \(generic)")
        }
        // `value.self` (a value, not a type): types are capitalised.
        if case .named(let components, _) = type, components.first?.first?.isLowercase == true {
            return (nil, unreadable)
        }
        return (type, nil)
    }

    func name(_ arguments: [Argument]) -> NameValue {
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
    func closureParameters(_ open: Int) -> (parameters: [String?], bodyStart: Int)? {
        let close = file.close(open)
        var position = open + 1
        var parameters: [String?] = []
        var expectParameter = true
        while position < close {
            let current = tokens[position]
            if current.is("in") { return (parameters, position + 1) }
            if current.is("@") {
                position += 2
                continue
            }
            if current.is("[") && parameters.isEmpty {
                position = file.close(position) + 1
                continue
            }
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
                    if tokens[position].kind == .identifier
                        && ["let", "var", "return", "if", "guard", "for", "try"].contains(text) && text != "throws"
                    {
                        return nil
                    }
                    position += 1
                }
                continue
            }
            if current.kind == .identifier, expectParameter {
                if [
                    "let", "var", "return", "if", "guard", "for", "while", "switch", "try", "await", "do", "defer",
                    "throw",
                ]
                .contains(current.text) {
                    return nil
                }
                parameters.append(nil)
                expectParameter = false
                position += 1
                continue
            }
            if current.is(",") && !expectParameter {
                expectParameter = true
                position += 1
                continue
            }
            if current.is("->") || current.is("async") || current.is("throws") {
                // A return type or effects after bare parameters: skip to `in`.
                position += 1
                continue
            }
            if !parameters.isEmpty, current.kind == .identifier {
                position += 1
                continue
            }
            return nil
        }
        return nil
    }

    /// The number of runtime arguments of a factory closure (its parameters minus the resolver), the argument
    /// types when spelled out, and where its body starts.
    func factoryShape(_ open: Int, fixedParameters: Int) -> (arity: Int?, types: [String]?, bodyStart: Int) {
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
            if current.is("{") {
                position = file.close(position)
            } else if current.kind == .identifier, current.text.hasPrefix("$"),
                let number = Int(current.text.dropFirst())
            {
                highest = max(highest, number)
            }
            position += 1
        }
        return (highest >= 0 ? max(0, highest + 1 - fixedParameters) : nil, nil, open + 1)
    }

    /// `Foo(…)` as a factory's whole body: the registered type, when the registration leaves it out.
    func constructedType(bodyStart: Int, close: Int) -> TypeExpression? {
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

    /// `autoregister(T.self, name:, argument: A.self / arguments: A.self, B.self, initializer: T.init)`: a
    /// registration of `T` (or, when `T.self` is left out, of the type whose `init` or `init(a:b:)` is passed,
    /// or that a closure's body only constructs) whose runtime arguments are the metatypes listed, at any arity.
    /// Its parameters are resolved by the initializer's types, which the source does not spell out, so what it
    /// resolves is not read.
    mutating func autoregistration(at index: Int) {
        let (arguments, trailing, end) = call(at: index)
        let knownLabels: Set<String> = ["name", "argument", "arguments", "initializer", "file", "line"]
        if arguments.contains(where: { $0.label.map { !knownLabels.contains($0) } ?? false }) { return }
        var type: TypeExpression?
        var unknown: String?
        if let first = arguments.first, first.label == nil {
            guard let metatype = metatype(first.range) else { return }
            type = metatype.type
            unknown = metatype.unknown
        } else if let initializer = arguments.first(where: { $0.label == "initializer" }),
            let initialized = initializedType(initializer.range)
        {
            type = initialized
        } else if let closure = trailing
            ?? arguments.last.flatMap({ tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil })
        {
            // `autoregister { (a: A) in Clock(a: a) }`: the closure's parameters are what it resolves, and a body
            // that only calls an initialiser names the type, as for a factory.
            type = constructedType(
                bodyStart: closureParameters(closure)?.bodyStart ?? closure + 1, close: file.close(closure))
        }
        // The runtime arguments: `argument: A.self`, or `arguments: A.self, B.self, …` (the unlabelled ones after it).
        var argumentTypes: [String] = []
        var inArguments = false
        for argument in arguments {
            if argument.label == "argument" || argument.label == "arguments" {
                inArguments = true
            } else if argument.label != nil {
                inArguments = false
            }
            guard inArguments else { continue }
            guard let metatype = metatype(argument.range), let argumentType = metatype.type else {
                argumentTypes = []
                unknown = unknown ?? "has runtime arguments the check cannot read"
                break
            }
            argumentTypes.append(argumentType.description)
        }
        let place = placement(index)
        let key = KeyPattern(
            type: type, name: name(arguments), arity: unknown == nil ? argumentTypes.count : nil,
            argumentTypes: argumentTypes.isEmpty ? nil : argumentTypes)
        let id = appendRegistration(.service, key, at: index)
        if let unknown {
            facts.notes.append(
                ScanNote(
                    message: "This autoregistration's type \(unknown), so its key cannot be known from source; "
                        + "resolves that it may satisfy are reported as notes.", placement: place))
        } else if type == nil {
            facts.notes.append(
                ScanNote(
                    message: "This autoregistration's type is inferred from its initializer, so its key cannot be "
                        + "known from source; resolves that it may satisfy are reported as notes.", placement: place))
        }
        chain(after: end, registration: id)
    }

    /// `T.init` or `T.init(a:b:)`: the type `T` whose initialiser an argument names, or nil.
    func initializedType(_ range: Range<Int>) -> TypeExpression? {
        var end = range.upperBound
        if tokens[end - 1].is(")"), let open = range.first(where: { tokens[$0].is("(") && file.close($0) == end - 1 }) {
            end = open  // the argument labels of `init(a:b:)`
        }
        guard end - range.lowerBound >= 3, tokens[end - 1].text == "init", tokens[end - 2].is(".") else { return nil }
        return TypeExpression.parse(tokens[range.lowerBound..<(end - 2)])
    }

    /// Records a registration made by the call at `index`, owned by the enclosing type (or the module a
    /// `contribute(into:)` closure targets), and returns its id.
    mutating func appendRegistration(_ kind: RegistrationFact.Kind, _ key: KeyPattern, at index: Int) -> Int {
        let id = facts.registrations.count
        let (ownerType, contributed) = owner
        facts.registrations.append(
            RegistrationFact(
                id: id, kind: kind, key: key, owner: ownerType, scopeType: enclosingTypeName,
                contributed: contributed, placement: placement(index), inLoop: inLoop))
        return id
    }

    mutating func registration(at index: Int, collection: Bool) {
        let (arguments, trailing, end) = call(at: index)
        let first = arguments.first
        let knownLabels: Set<String> = ["name", "factory", "mainActorFactory", "file", "line", "priority"]
        if !collection, first?.label == "scene" {
            sceneRegistration(at: index)
            return
        }
        // `register(defaults:)` and other methods named `register`: not the container's registration.
        if let label = first?.label, !knownLabels.contains(label) { return }
        var type: TypeExpression?
        var unknown: String?
        var typeWritten = false
        if let first, first.label == nil {
            guard let metatype = metatype(first.range) else { return }  // not the container's register
            type = metatype.type
            unknown = metatype.unknown
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
            if !typeWritten, unknown == nil {
                type = constructedType(bodyStart: shape.bodyStart, close: file.close(open))
            }
        }
        let place = placement(index)
        let key = KeyPattern(
            type: type, name: name(arguments), arity: collection ? 0 : arity,
            argumentTypes: argumentTypes)
        let id = appendRegistration(collection ? .collectionElement : .service, key, at: index)
        if let unknown {
            facts.notes.append(
                ScanNote(
                    message: "This registration's type \(unknown), so its key cannot be known from source; "
                        + "resolves that it may satisfy are reported as notes.", placement: place))
        } else if type == nil {
            facts.notes.append(
                ScanNote(
                    message: "This registration's type is inferred from its factory, so its key "
                        + "cannot be known from source; resolves that it may satisfy are reported as notes.",
                    placement: place))
        }
        if case .unknown = key.name {
            facts.notes.append(
                ScanNote(
                    message: "The name of this registration of \(type?.description ?? "a service") "
                        + "is not a literal; resolves of that type under any name are reported as notes.",
                    placement: place))
        }
        if let open = factoryOpen { push(.factory(id), from: open, to: file.close(open)) }
        chain(after: end, registration: id)
    }

    /// `registerScopedValue(T.self, name:, validationValue:)`: the declaration of a value that each scope
    /// provides. The runtime registers it as a `.scoped` entry of `T` under the name, with no runtime argument,
    /// whose factory is its own (it fails until a scope provides the value, and validation accepts it), so a
    /// resolve of `T` finds it and nothing is resolved on its behalf.
    ///
    /// `registerAbstract(T.self, name:)` is read the same way: the module assembler fails unless some module
    /// provides `T`, and makes the provider resolvable from the declaring module, so the declaration stands for
    /// a registration of `T` in that module.
    mutating func scopedValue(at index: Int, form: String = "scoped value declaration") {
        let (arguments, _, end) = call(at: index)
        guard let first = arguments.first, first.label == nil, let metatype = metatype(first.range) else { return }
        let key = KeyPattern(type: metatype.type, name: name(arguments), arity: 0)
        let id = appendRegistration(.service, key, at: index)
        noteUnreadableKey(of: key, unknownType: metatype.unknown, form: form, at: index)
        chain(after: end, registration: id)
    }

    /// `registerInjection(for: T.self, name:) { r, object in … }`: the runtime registers `T` with one runtime
    /// argument (the object, as an `_InjectionTarget<T>`), and runs the closure, and any `initCompleted` step
    /// chained after it, as property injection. So the closure's resolves are checked against the registering
    /// module's scope, and they start no cycle.
    mutating func injection(at index: Int) {
        let (arguments, trailing, end) = call(at: index)
        guard let target = arguments.first(where: { $0.label == "for" }), let metatype = metatype(target.range)
        else { return }
        let key = KeyPattern(
            type: metatype.type, name: name(arguments), arity: 1,
            argumentTypes: metatype.type.map { ["_InjectionTarget<\($0)>"] })
        let id = appendRegistration(.service, key, at: index)
        noteUnreadableKey(of: key, unknownType: metatype.unknown, form: "injection", at: index)
        let closure =
            trailing ?? arguments.last.flatMap { tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil }
        if let closure { push(.initCompleted(id), from: closure, to: file.close(closure)) }
        chain(after: end, registration: id)
    }

    /// `register(scene: S())` or `register(scene: S.self) { r in … }` (AssemblageScenes): the runtime registers
    /// `AnySceneModule<S.View>` under `S.moduleName`. The call says neither the view type (an associated type of
    /// `S`) nor the name (a static property, by default the type's name), so the key is `AnySceneModule<_>`
    /// under a name the check does not know: a resolve of a scene module that nothing else registers may be
    /// satisfied by it, and is a note.
    mutating func sceneRegistration(at index: Int) {
        let (arguments, trailing, end) = call(at: index)
        let key = KeyPattern(type: .named(["AnySceneModule"], [.placeholder]), name: .unknown, arity: 0)
        let id = appendRegistration(.service, key, at: index)
        var factoryOpen = trailing
        if let argument = arguments.first(where: { $0.label == "factory" }) {
            factoryOpen = tokens[argument.range.lowerBound].is("{") ? argument.range.lowerBound : nil
        }
        if let open = factoryOpen { push(.factory(id), from: open, to: file.close(open)) }
        chain(after: end, registration: id)
    }

    /// The notes for a registration whose type or name the source does not say.
    mutating func noteUnreadableKey(of key: KeyPattern, unknownType: String?, form: String, at index: Int) {
        if let unknownType {
            facts.notes.append(
                ScanNote(
                    message: "This \(form)'s type \(unknownType), so its key cannot be known from source; "
                        + "resolves that it may satisfy are reported as notes.", placement: placement(index)))
        }
        if case .unknown = key.name {
            facts.notes.append(
                ScanNote(
                    message: "The name of this \(form) of \(key.type?.description ?? "a service") "
                        + "is not a literal; resolves of that type under any name are reported as notes.",
                    placement: placement(index)))
        }
    }

    /// `.inObjectScope(…)`, `.implements(…)`, `.initCompleted { … }` after a registration.
    mutating func chain(after end: Int, registration id: Int) {
        var position = end + 1
        while let dot = token(position), dot.is("."), let member = token(position + 1), member.kind == .identifier,
            let open = token(position + 2), open.is("(") || open.is("{")
        {
            let (arguments, trailing, callEnd) = call(at: position + 1)
            switch member.text {
            case "implements":
                let types = arguments.filter { $0.label == nil }.compactMap { metatype($0.range) }
                let named = name(arguments)
                for metatype in types {
                    let key = KeyPattern(
                        type: metatype.type, name: types.count == 1 ? named : .none,
                        arity: facts.registrations[id].key.arity,
                        argumentTypes: facts.registrations[id].key.argumentTypes)
                    facts.registrations.append(
                        RegistrationFact(
                            id: facts.registrations.count, kind: .alias(of: id), key: key,
                            owner: facts.registrations[id].owner, scopeType: facts.registrations[id].scopeType,
                            contributed: facts.registrations[id].contributed, placement: placement(position + 1),
                            inLoop: inLoop))
                }
            case "initCompleted":
                let closure =
                    trailing
                    ?? arguments.first.flatMap { tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil }
                if let closure { push(.initCompleted(id), from: closure, to: file.close(closure)) }
            default:
                break
            }
            position = callEnd + 1
        }
    }

    mutating func forward(at index: Int) {
        let (arguments, _, _) = call(at: index)
        guard arguments.contains(where: { $0.label == "to" }), let first = arguments.first, first.label == nil,
            let metatype = metatype(first.range)
        else { return }
        _ = appendRegistration(
            .alias(of: nil), KeyPattern(type: metatype.type, name: name(arguments), arity: nil), at: index)
    }

    mutating func decorator(at index: Int) {
        let (arguments, trailing, _) = call(at: index)
        guard let first = arguments.first, first.label == nil, let metatype = metatype(first.range) else { return }
        let closure =
            trailing ?? arguments.last.flatMap { tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil }
        let id = facts.decorators.count
        facts.decorators.append(
            DecoratorFact(
                key: KeyPattern(type: metatype.type, name: name(arguments), arity: nil),
                scopeType: enclosingTypeName, placement: placement(index)))
        if let closure { push(.decorator(id), from: closure, to: file.close(closure)) }
    }

    mutating func contribution(at index: Int) {
        let (arguments, trailing, _) = call(at: index)
        guard let target = arguments.first(where: { $0.label == "into" }), let metatype = metatype(target.range),
            case .named(let components, _)? = metatype.type
        else { return }
        let closure =
            trailing ?? arguments.last.flatMap { tokens[$0.range.lowerBound].is("{") ? $0.range.lowerBound : nil }
        if let closure {
            push(
                .contribute(target: reference(components.joined(separator: "."))), from: closure,
                to: file.close(closure))
        }
    }
}
