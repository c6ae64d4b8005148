/// Typed accessors: one method on `Resolver` per registration of the target, so that a call site stops
/// compiling when the registration it relies on disappears.
///
/// A target asks for them with the comment `// assemblage-check: accessors` in any of its files. Generated
/// for registrations without runtime arguments, whose type is declared in the target (so that the generated
/// file can name it) and whose name, if any, is an identifier:
///
/// ```swift
/// let users = try resolver.userManager()          // register(UserManager.self) { … }
/// let client = try resolver.stagingHTTPClient()   // register(HTTPClient.self, name: "staging") { … }
/// ```
extension GraphChecker {
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "func", "import", "init", "inout", "let",
        "operator", "protocol", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch",
        "where", "while", "as", "catch", "false", "is", "nil", "rethrows", "self", "super", "throw", "throws",
        "true", "try", "await", "any", "some", "actor",
    ]

    /// The Swift source of the typed accessors for `facts`' own registrations (empty when none was asked for).
    ///
    /// - Parameter facts: What the scanner found.
    /// - Returns: An `extension Resolver` with one throwing method per registration, or an empty string.
    package static func accessorSource(_ facts: Facts) -> String {
        guard facts.accessorsRequested else { return "" }
        var checker = GraphChecker(facts: facts, options: Options(closedWorld: true))
        checker.prepareModules()
        return checker.accessorSource()
    }

    /// `HTTPClient` → `httpClient`, `UserManager` → `userManager`.
    package static func lowerCamel(_ text: String) -> String {
        let characters = Array(text)
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        if upper == 0 { return text }
        if upper == characters.count { return text.lowercased() }
        let lowered = upper == 1 ? 1 : upper - 1
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.properties.isAlphabetic && first.isASCII)
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0)
        }
    }

    /// The qualified name of the declaration `written` names from `context`, without the fallback of
    /// ``resolve(_:)`` to a unique type of that name elsewhere: the accessor must name exactly what Swift does.
    mutating func strictlyResolve(_ written: String, context: String?, file: String) -> String? {
        var prefix: [Substring] = []
        if let context {
            let outer = resolve(TypeReference(name: context, context: nil, file: file, exact: false)) ?? context
            prefix = outer.split(separator: ".")
        }
        while true {
            let candidate = (prefix.map(String.init) + [written]).joined(separator: ".")
            if declaredTypes.contains(candidate) { return candidate }
            if prefix.isEmpty { return nil }
            prefix.removeLast()
        }
    }

    mutating func accessorSource() -> String {
        var declarations: [String: TypeDeclarationFact] = [:]
        for type in facts.types where type.type.exact { declarations[type.type.name] = type }
        var methods: [String: (type: String, spelled: String, name: String?, site: SourceLocation)] = [:]
        var clashing = Set<String>()
        for registration in facts.registrations
        where registration.placement.own && !registration.placement.ignored
            && registration.kind != .collectionElement && registration.key.arity == 0
        {
            guard case .named(let components, let arguments)? = registration.key.type, arguments.isEmpty,
                let qualified = strictlyResolve(
                    components.joined(separator: "."), context: registration.scopeType?.name,
                    file: registration.placement.location.file),
                let declaration = declarations[qualified], declaration.own, declaration.accessible,
                let typeName = components.last
            else { continue }
            var name: String?
            var method = GraphChecker.lowerCamel(typeName)
            switch registration.key.name {
            case .none: break
            case .literal(let value):
                guard GraphChecker.isIdentifier(value) else { continue }
                name = value
                method = GraphChecker.lowerCamel(value) + typeName
            case .unknown: continue
            }
            guard !GraphChecker.swiftKeywords.contains(method) else { continue }
            if let existing = methods[method] {
                if existing.type != qualified || existing.name != name { clashing.insert(method) }
                continue
            }
            // A protocol is spelled `any P`, so that the file compiles with the ExistentialAny feature too.
            let spelled = declaration.isProtocol ? "any \(qualified)" : qualified
            methods[method] = (qualified, spelled, name, registration.placement.location)
        }
        let generated = methods.filter { !clashing.contains($0.key) }.sorted { $0.key < $1.key }
        guard !generated.isEmpty else { return "" }
        var lines = ["import Assemblage", "", "extension Resolver {"]
        for (method, entry) in generated {
            let key = entry.name.map { "\(entry.type) (name: \"\($0)\")" } ?? entry.type
            let metatype = entry.spelled == entry.type ? "\(entry.type).self" : "(\(entry.spelled)).self"
            let arguments = entry.name.map { "\(metatype), name: \"\($0)\"" } ?? metatype
            lines.append("    /// \(key), registered at \(entry.site.short).")
            lines.append("    func \(method)() throws(ResolutionError) -> \(entry.spelled) {")
            lines.append("        try require(\(arguments))")
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
