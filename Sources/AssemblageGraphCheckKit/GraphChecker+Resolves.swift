extension GraphChecker {
    /// Checks every resolve with a literal key against what its scope can see, and records the edges that
    /// the cycle check follows.
    mutating func checkResolves() {
        for resolve in facts.resolves {
            guard let writtenType = resolve.key.type else { continue }
            let scope: String? = resolve.context != .none ? moduleName(resolve.scopeType) : nil
            var key = resolve.key
            var collection = resolve.collection
            var wrapper: String?
            let exact = lookup(key, from: scope)
            if exact.winners.isEmpty, collection == nil, key.name == .none, key.arity == 0 {
                switch canonical(writtenType) {
                case .array(let element):
                    collection = .array
                    key.type = element
                case .dictionary(let keyType, let value) where keyType == .named(["String"], []):
                    collection = .dictionary
                    key.type = value
                default: break
                }
            }
            if exact.winners.isEmpty, collection == nil {
                if case .optional(let wrapped) = canonical(writtenType) {
                    wrapper = "Optional"
                    key.type = wrapped
                } else if let arguments = writtenType.arguments(ofGeneric: "Lazy")
                    ?? writtenType.arguments(ofGeneric: "Provider"),
                    arguments.count == 1
                {
                    wrapper = writtenType.lastName
                    key.type = arguments[0]
                }
            }
            if collection != nil {
                // A collection is never missing: an empty one is a valid result. Each element is an edge.
                if resolve.required, let element = key.type {
                    addEdges(from: resolve, to: elements(of: element, from: scope), definite: true)
                }
                continue
            }
            let found = key == resolve.key ? exact : lookup(key, from: scope)
            if !found.winners.isEmpty {
                if resolve.required, wrapper != "Lazy", wrapper != "Provider" {
                    let targets = found.winners.compactMap(target(of:))
                    let exclusive =
                        targets.count > 1
                        && targets.dropFirst().allSatisfy { exclusiveBranches($0.placement, targets[0].placement) }
                    addEdges(
                        from: resolve, to: targets,
                        definite: targets.count == 1 && !exclusive
                            && found.winners.count == targets.count)
                }
                continue
            }
            if wrapper == "Optional" { continue }  // Optional<T> resolves to nil when T is missing
            if isProvidedByTheRuntime(key) { continue }
            reportMissing(resolve, key: key, wrapper: wrapper, scope: scope, found: found)
        }
    }

    /// Whether the runtime answers `key` without a registration: `GraphIdentifier` is the graph being resolved,
    /// and `Scope` the scope resolving (unnamed, without arguments, as `Container` resolves them).
    func isProvidedByTheRuntime(_ key: KeyPattern) -> Bool {
        guard let type = key.type, key.name == .none, key.arity == 0,
            case .named(let components, let arguments) = canonical(type), arguments.isEmpty
        else { return false }
        return ["GraphIdentifier", "Scope"].contains(components.last) && components.count <= 2
            && (components.count == 1 || components.first == "Assemblage")
    }

    /// Whether two places are in different branches of one `#if`, so they never both exist.
    func exclusiveBranches(_ lhs: Placement, _ rhs: Placement) -> Bool {
        lhs.branches.contains { left in rhs.branches.contains { $0.group == left.group && $0.branch != left.branch } }
    }

    private mutating func reportMissing(
        _ resolve: ResolveFact, key: KeyPattern, wrapper: String?, scope: String?,
        found: Lookup
    ) {
        guard resolve.placement.own, !resolve.placement.ignored, let type = key.type else { return }
        var message = "No registration for \(resolve.key)"
        message += scope.map { " visible from \(display($0))." } ?? "."
        if let wrapper { message += " \(wrapper)<\(type)> resolves the registration of \(key), and there is none." }
        if let from = origin(of: resolve) { message += " Resolution path: \(from) → \(resolve.key)." }
        var code = Finding.Code.notRegistered
        let elsewhere = scope == nil ? [] : lookup(key, from: nil).winners
        if let scope, let other = elsewhere.first(where: { moduleName($0.owner) != nil }) ?? elsewhere.first {
            code = .outsideDependencies
            if let owner = moduleName(other.owner).map(display) {
                message +=
                    " \(key) is registered in \(owner) (\(other.placement.location.short)), which \(display(scope)) "
                    + "does not depend on: add \(owner).self to \(display(scope)).dependencies."
            } else {
                message +=
                    " \(key) is registered only outside modules (\(other.placement.location.short)), where a "
                    + "module's container never looks: register it in a module that \(display(scope)) depends on."
            }
        } else {
            let typeName = type.description
            let nearMisses = found.nearMisses.map { $0.key.description }
            var unique: [String] = []
            for miss in nearMisses where !unique.contains(miss) { unique.append(miss) }
            message +=
                unique.isEmpty
                ? " Nothing is registered for \(typeName) under any name or argument list."
                : " Registered for \(typeName): \(unique.joined(separator: ", "))."
        }
        var reasons: [String] = []
        if !resolve.required {
            let form = resolve.form.hasPrefix("@") ? resolve.form : "\(resolve.form)(…)"
            reasons.append("it is resolved with \(form), which gives nil instead of failing")
        }
        if let maybe = found.maybe.first {
            reasons.append(
                "\(maybe.placement.location.short) registers a key the check cannot read, which may be this one")
        }
        if let scope, let reason = openReasons[scope] { reasons.append(reason) }
        if scope == nil, !options.closedWorld {
            reasons.append("code that depends on this library may register it")
        }
        if reasons.isEmpty {
            report(.error, code, at: resolve.placement, message)
        } else {
            report(
                .note, .notChecked, at: resolve.placement,
                "May fail at run time: \(message) Not an error because "
                    + reasons.joined(separator: "; ") + "; validate() checks it at run time.")
        }
    }

    /// The key of the registration whose factory, step or decorator holds the resolve.
    func origin(of resolve: ResolveFact) -> String? {
        switch resolve.context {
        case .factory(let id), .initCompleted(let id): return facts.registrations[id].key.description
        case .decorator(let id): return "decorator of \(facts.decorators[id].key)"
        case .none: return nil
        }
    }

    private mutating func addEdges(from resolve: ResolveFact, to targets: [RegistrationFact], definite: Bool) {
        var sources: [Int] = []
        switch resolve.context {
        case .factory(let id):
            sources = [id]
        case .decorator(let id):
            let decorated = facts.decorators[id].key
            sources = facts.registrations.filter { registration in
                registration.kind != .alias(of: nil) && target(of: registration)?.id == registration.id
                    && registration.key.type != nil && decorated.type != nil
                    && sameType(registration.key.type!, decorated.type!)
                    && (decorated.name == .none || decorated.name == registration.key.name)
            }.map(\.id)
        case .initCompleted, .none:
            return  // property injection and code outside factories break or start no cycle
        }
        for source in sources {
            for target in targets {
                edges.append(CycleEdge(from: source, to: target.id, site: resolve.placement, definite: definite))
            }
        }
    }
}
