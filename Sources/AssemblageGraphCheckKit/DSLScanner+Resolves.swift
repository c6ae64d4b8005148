extension DSLScanner {
    // MARK: Resolves

    /// `resolve`, `require`, `resolveAsync`, `resolveAll` or `resolveAllNamed` with `T.self`, a name and runtime
    /// arguments.
    mutating func resolve(at index: Int) {
        let method = tokens[index].text
        let (arguments, _, end) = call(at: index)
        guard let first = arguments.first, first.label == nil, let metatype = metatype(first.range) else { return }
        var arity = 0
        if let position = arguments.firstIndex(where: { $0.label == "argument" || $0.label == "arguments" }) {
            arity = arguments[position].label == "argument" ? 1 : arguments.count - position
        }
        let forced = token(end + 1).map { $0.is("!") && !$0.spaceBefore } ?? false
        let collection: ResolveFact.Collection? =
            method == "resolveAll" ? .array : method == "resolveAllNamed" ? .dictionary : nil
        recordResolve(
            method, metatype, name: name(arguments), arity: arity, required: method != "resolve" || forced,
            collection: collection, context: resolveContext, at: index)
    }

    /// `@Injected var x: T`, `@LazyInjected`, `@OptionalInjected var x: T?` or `@WeakLazyInjected var x: T?`,
    /// with an optional `name:`: a resolve of `T` from the root container (or the container passed), when the
    /// owner is made or the property first read. It is not the resolve of a factory, whatever code surrounds it.
    mutating func propertyWrapper(at index: Int, required: Bool) {
        var position = index + 1
        var arguments: [Argument] = []
        if let open = token(position), open.is("("), !open.spaceBefore {
            arguments = call(at: index).arguments
            position = file.close(position) + 1
            // Assemblage's wrappers take only `name:` and `container:`; another library's wrapper of the same
            // name (`@Injected(\.service)`) resolves from a container of its own.
            if arguments.contains(where: { $0.label != "name" && $0.label != "container" }) { return }
        }
        // Modifiers and other attributes, up to `var`.
        while let current = token(position), !current.is("var") {
            if current.is("@") {
                position += 2
                if let open = token(position), open.is("("), !open.spaceBefore { position = file.close(position) + 1 }
                continue
            }
            if current.is("(") {  // `private(set)`
                position = file.close(position) + 1
                continue
            }
            guard current.kind == .identifier, !current.is("let"), !current.is("func") else { return }
            position += 1
        }
        guard token(position + 1)?.kind == .identifier, let colon = token(position + 2), colon.is(":") else { return }
        // The type: the rest of the line, up to an initial value, accessors or the next declaration.
        let typeStart = position + 3
        var typeEnd = typeStart
        while let current = token(typeEnd), current.line == colon.line,
            !current.is("=") && !current.is("{") && !current.is(";") && !current.is("}")
        {
            typeEnd += 1
        }
        var written = typeNamed(typeStart..<typeEnd)
        // `@OptionalInjected var x: T?` resolves `T`: the wrapper's optional is its own.
        if !required, case .optional(let wrapped)? = written.type { written.type = wrapped }
        recordResolve(
            "@\(tokens[index].text)", written, name: name(arguments), arity: 0, required: required, collection: nil,
            context: .none, at: index)
    }

    /// SwinjectAutoregistration's operators at the `~` of `~>`: `r ~> T.self`, `r ~> (T.self, name: "n")`,
    /// `r ~> (T.self, argument: a)` and `r ~> (T.self, name: "n", arguments: (a, b))` (or the deprecated
    /// `arguments: a, b`) are resolves that stop the program when `T` is missing; `r~>` resolves the type its
    /// context expects, which the source does not say.
    mutating func operatorResolve(at index: Int) {
        let start = index + 2
        guard let first = token(start) else { return }
        if first.is("(") {
            let arguments = call(at: index + 1).arguments
            guard let service = arguments.first, service.label == nil, let metatype = metatype(service.range) else {
                return
            }
            var arity = 0
            if arguments.contains(where: { $0.label == "argument" }) {
                arity = 1
            } else if let listIndex = arguments.firstIndex(where: { $0.label == "arguments" }) {
                // `arguments: (a, b)`, or the deprecated comma form `arguments: a, b`: one argument a value.
                let following = arguments[(listIndex + 1)...].prefix { $0.label == nil }.count
                arity = following == 0 ? tupleCount(arguments[listIndex].range) : 1 + following
            }
            recordResolve(
                "~>", metatype, name: name(arguments), arity: arity, required: true, collection: nil,
                context: resolveContext, at: index)
            return
        }
        if first.line != tokens[index].line || first.is(")") || first.is(",") || first.is("]") || first.is("}") {
            // The postfix form, `vet: r~>`: the type is the parameter's, or the declaration's.
            facts.notes.append(
                ScanNote(
                    message: "This ~> resolves the type its context expects, which the source does not name; it "
                        + "cannot be checked from source.", placement: placement(index)))
            return
        }
        // `T.self`: the tokens up to `.self`, on the operator's line.
        var position = start
        while let current = token(position), current.line == first.line,
            !(current.is("self") && token(position - 1)?.is(".") == true)
        {
            if current.is(",") || current.is(")") || current.is("}") || current.is("{") || current.is(";") { break }
            if current.is("(") || current.is("[") { position = file.close(position) }
            position += 1
        }
        if let end = token(position), end.is("self"), let metatype = metatype(start..<(position + 1)) {
            recordResolve(
                "~>", metatype, name: .none, arity: 0, required: true, collection: nil, context: resolveContext,
                at: index)
        }
    }

    /// The number of elements of the tuple in `range`: `(a, b)` has two; anything else is one value.
    func tupleCount(_ range: Range<Int>) -> Int {
        guard tokens[range.lowerBound].is("("), file.close(range.lowerBound) == range.upperBound - 1 else { return 1 }
        var count = 1
        var position = range.lowerBound + 1
        while position < range.upperBound - 1 {
            if tokens[position].is(",") { count += 1 }
            if tokens[position].is("(") || tokens[position].is("[") || tokens[position].is("{") {
                position = file.close(position)
            }
            position += 1
        }
        return count
    }

    /// Records a resolve of the key written at `index`, or a note when its type or name cannot be read.
    mutating func recordResolve(
        _ form: String, _ written: (type: TypeExpression?, unknown: String?), name: NameValue, arity: Int,
        required: Bool, collection: ResolveFact.Collection?, context: ResolveFact.Context, at index: Int
    ) {
        let place = placement(index)
        if let unknown = written.unknown {
            facts.notes.append(
                ScanNote(
                    message: "This \(form) asks for a type that \(unknown); it cannot be checked from source.",
                    placement: place))
            return
        }
        if case .unknown = name {
            facts.notes.append(
                ScanNote(
                    message: "This \(form) of \(written.type?.description ?? "a service") uses a name "
                        + "that is not a literal; it cannot be checked from source.", placement: place))
            return
        }
        facts.resolves.append(
            ResolveFact(
                key: KeyPattern(type: written.type, name: name, arity: arity), form: form, required: required,
                collection: collection, context: context, scopeType: factoryScope, placement: place))
    }
}
