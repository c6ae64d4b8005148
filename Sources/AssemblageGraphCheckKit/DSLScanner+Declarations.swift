extension DSLScanner {
    // MARK: Declarations

    mutating func typeDeclaration(at index: Int) {
        let isProtocol = tokens[index].text == "protocol"
        let isExtension = tokens[index].text == "extension"
        var position = index + 1
        var name = tokens[position].text
        position += 1
        while let dot = token(position), dot.is("."), let part = token(position + 1), part.kind == .identifier {
            name += "." + part.text
            position += 2
        }
        let isPrivate = (max(0, index - 3)..<index).contains {
            tokens[$0].is("private") || tokens[$0].is("fileprivate")
        }
        // Whether code in another file of the module can name the type: not private, not local to a function
        // or closure, not nested in a generic or inaccessible type.
        var accessible = !isPrivate
        for entry in stack {
            switch entry.context {
            case .type(_, _, let generics, let outerAccessible):
                if !generics.isEmpty || !outerAccessible { accessible = false }
            default:
                accessible = false
            }
        }
        let type: TypeReference
        if isExtension {
            type = TypeReference(name: name, context: nil, file: file.path, exact: false)
        } else if let outer = enclosingTypeName {
            type = TypeReference(name: outer.name + "." + name, context: nil, file: file.path, exact: outer.exact)
        } else {
            type = TypeReference(
                name: isPrivate ? DSLScanner.filePrivatePrefix(file.path) + name : name, context: nil,
                file: file.path, exact: true)
        }
        var generics: [String] = []
        if token(position)?.is("<") == true {
            let (names, after) = angleList(from: position)
            generics = names
            position = after
            accessible = false
        }
        var inherits: [String] = []
        var inClause = false
        while let current = token(position), !current.is("{") {
            if current.is(":") && !inClause {
                inClause = true
            } else if current.is("where") {
                inClause = false
            } else if inClause, current.kind == .identifier, current.text != "any" {
                inherits.append(current.text)
            }
            if current.is("(") || current.is("[") { position = file.close(position) }
            if current.is("}") || current.is(";") { return }
            position += 1
        }
        guard position < tokens.count else { return }
        facts.types.append(
            TypeDeclarationFact(
                type: type, inherits: inherits, isProtocol: isProtocol, accessible: accessible && !isExtension,
                own: own, location: file.location(index)))
        push(
            .type(type, isProtocol: isProtocol, generics: generics, accessible: accessible), from: position,
            to: file.close(position))
    }

    /// The prefix of a file-private type's qualified name: such types are distinct in each file.
    package static func filePrivatePrefix(_ path: String) -> String {
        String(path.map { $0 == "." || $0 == "/" ? "_" : $0 }) + "/"
    }

    /// Reads `<A, B: P>` and returns the parameter names and the index after `>`.
    func angleList(from open: Int) -> ([String], Int) {
        var depth = 0
        var names: [String] = []
        var expectName = true
        var position = open
        while let current = token(position) {
            if current.is("<") {
                depth += 1
                expectName = depth == 1
            } else if current.is(">") {
                depth -= 1
                if depth == 0 { return (names, position + 1) }
            } else if current.is(",") && depth == 1 {
                expectName = true
            } else if expectName, current.kind == .identifier, depth == 1 {
                if current.text != "each" {
                    names.append(current.text)
                    expectName = false
                }
            } else if current.is("{") || current.is("(") {
                return (names, position)
            }
            position += 1
        }
        return (names, position)
    }

    mutating func function(at index: Int) {
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
            if let internalName = token(position + 2), internalName.kind == .identifier {
                assembleParameter = internalName.text
            } else {
                assembleParameter = "container"
            }
        }
        position = parametersClose + 1
        while let current = token(position) {
            if current.is("{") {
                push(
                    .function(generics: generics, assembleParameter: assembleParameter), from: position,
                    to: file.close(position))
                return
            }
            if current.is("}") || current.is(";")
                || (current.kind == .identifier
                    && ["func", "var", "let", "init", "case", "static"].contains(current.text))
            {
                return
            }
            if current.is("(") || current.is("[") { position = file.close(position) }
            position += 1
        }
    }

    mutating func typeAlias(at index: Int) {
        guard let name = token(index + 1), name.kind == .identifier, token(index + 2)?.is("=") == true else { return }
        let line = tokens[index + 2].line
        var end = index + 3
        while let current = token(end), current.line == line, !current.is(";"), !current.is("}") { end += 1 }
        if let type = TypeExpression.parse(tokens[(index + 3)..<end]) { facts.typeAliases[name.text] = type }
    }

    mutating func loop(at index: Int) {
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

    mutating func moduleList(at index: Int) {
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
                token(position2 + 1)?.is(".") == true
            {
                // A dotted name ending in `.self`.
                var end = position2 + 1
                var written = current.text
                while end + 1 < bodyEnd, tokens[end].is("."), tokens[end + 1].kind == .identifier,
                    tokens[end + 1].text != "self"
                {
                    written += "." + tokens[end + 1].text
                    end += 2
                }
                if end + 1 < bodyEnd + 1, tokens[end].is("."), token(end + 1)?.text == "self" {
                    entries.append((reference(written), placement(position2)))
                    position2 = end + 2
                    continue
                }
            }
            if current.is("[") {
                brackets += 1
            } else if current.is("]") {
                brackets -= 1
            } else if !(current.is(",") || current.is("return")) {
                literal = false
            }
            position2 += 1
        }
        if brackets != 0 { literal = false }
        let kind: ModuleListFact.Kind = tokens[index].text == "dependencies" ? .dependencies : .replaces
        facts.moduleLists.append(
            ModuleListFact(
                typeName: typeName, kind: kind, entries: entries, literal: literal,
                placement: placement(index)))
    }
}
