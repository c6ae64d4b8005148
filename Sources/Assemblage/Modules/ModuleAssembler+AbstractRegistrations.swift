// How a module assembler checks abstract registrations (Container+AbstractRegistration.swift) once every module is
// assembled: every declaration is matched with a registration of the same key anywhere in the graph, first, and only
// then are forwarders or placeholders registered, so that one declaration's placeholder never counts as another's
// provider.

extension ModuleAssembler {
    /// A container that registers a key itself, and whether it is a module's scope (else an assembler's root, whose
    /// registrations no module sees).
    private struct Provider {
        let entry: any _AnyEntry
        let scope: Container
        let isModule: Bool
    }

    /// Matches every abstract registration of `records` and `root` with a provider, and registers forwarders where
    /// the declaring scope cannot see it. Without a provider: a placeholder when `placeholders`, else a problem.
    ///
    /// A replaced module that only declares abstract registrations (Knit's `AbstractAssembly`) is not assembled,
    /// but its declarations are checked against the module replacing it: they are read by assembling it into a
    /// container of its own, which is then dropped.
    ///
    /// `modulesDeclare` tells whether any module of `records` declared an abstract registration (when not, their
    /// containers are not read).
    static func checkAbstractRegistrations(
        records: [_ModuleRecord], root: Container, parent: ModuleAssembler?,
        inputs: [any ModuleAssembly], tree: ModuleTree,
        placeholders: Bool, modulesDeclare: Bool = true
    ) -> [ModuleAssemblyError.Problem] {
        func pathOf(_ record: _ModuleRecord) -> [String] {
            let path = tree.path(to: record.type.type)
            return path.isEmpty ? [record.name] : path
        }
        var declaring: [(container: Container, module: String, path: [String], declarations: [_AbstractRegistration])]
        declaring = (modulesDeclare ? records : []).compactMap { record in
            let declarations = record.container.abstractRegistrations
            if declarations.isEmpty { return nil }
            return (record.container, record.name, pathOf(record), declarations)
        }
        for record in records {
            for replaced in record.type.type.replaces where replaced._declaresOnlyAbstractRegistrations {
                let module = inputs.first { type(of: $0) == replaced } ?? replaced._makeIfAutoInit()
                guard let module else { continue }
                let scratch = Container(label: "\(replaced) (abstract registrations)")
                module.assemble(container: scratch)
                let declarations = scratch.abstractRegistrations
                if declarations.isEmpty { continue }
                declaring.append((record.container, record.name, pathOf(record), declarations))
            }
        }
        let rootDeclarations = root.abstractRegistrations
        if !rootDeclarations.isEmpty {
            declaring.append((root, "ModuleAssembler", ["ModuleAssembler"], rootDeclarations))
        }
        guard !declaring.isEmpty else { return [] }

        var candidates: [(scope: Container, isModule: Bool)] = [(root, false)]
        candidates += records.map { ($0.container, true) }
        var ancestor = parent
        while let assembler = ancestor {
            candidates.append((assembler.root, false))
            candidates += assembler.records.map { ($0.container, true) }
            ancestor = assembler.parent
        }
        func provider(of key: ServiceKey) -> Provider? {
            for candidate in candidates {
                if let entry = candidate.scope.ownEntry(for: key) {
                    return Provider(entry: entry, scope: candidate.scope, isModule: candidate.isModule)
                }
            }
            return nil
        }

        var actions: [() -> Void] = []
        var problems: [ModuleAssemblyError.Problem] = []
        for (container, module, path, declarations) in declaring {
            for declaration in declarations {
                if container.registersOwn(declaration.key) { continue }
                if let found = provider(of: declaration.key) {
                    let visible = found.isModule && container.reaches(found.scope)
                    if !visible { actions.append { declaration.forward(container, found.entry, found.scope) } }
                } else if placeholders {
                    actions.append { declaration.placeholder(container, module) }
                } else {
                    problems.append(
                        .init(
                            .abstractRegistrationNotProvided, module: module, path: path,
                            related: ["\(declaration.site)"], key: declaration.key))
                }
            }
        }
        guard problems.isEmpty else { return problems }
        for action in actions { action() }
        return []
    }
}
