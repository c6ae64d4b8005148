/// What ``Container/validate(_:)`` should also check: registrations that need runtime arguments.
///
/// A registration with runtime arguments cannot be resolved without values for them. Give validation a
/// sample resolve for each; the registrations it resolves count as checked, the others are reported as
/// not checked (never silently skipped):
///
/// ```swift
/// var options = ValidationOptions()
/// options.sample { r in _ = try r.require(ProfileViewModel.self, argument: 42) }
/// let report = container.validate(options)
/// ```
public struct ValidationOptions: Sendable {
    var samples: [@Sendable (any Resolver) throws -> Void] = []

    /// Whether registrations hidden by another under the same key in a container searched first are reported
    /// (as notes). On by default; overlays hide base registrations on purpose, so turn it off for them.
    public var reportsShadowedRegistrations = true

    /// Creates options with no samples.
    public init() {}

    /// Adds a sample resolve, run against the validation sandbox.
    ///
    /// - Parameter resolve: Resolves one or more registrations with sample arguments.
    public mutating func sample(_ resolve: @escaping @Sendable (any Resolver) throws -> Void) {
        samples.append(resolve)
    }
}

extension Container {
    /// Resolves every registration visible from this container in a sandbox and reports every problem at once.
    ///
    /// ```swift
    /// let report = container.validate()
    /// guard report.isValid else { fatalError("\(report)") }   // or fail a test, or log at start-up
    /// ```
    ///
    /// ## What it checks
    /// - registrations that cannot be resolved: a missing dependency (with the path to it and near misses), a
    ///   cycle that nothing breaks, a factory, step or decorator that throws;
    /// - captive dependencies: a `.container`, `.singleton`, `.multiton` or custom-scoped service that depends,
    ///   on any path, on a `.transient`, `.graph` or `.weak` one (it keeps one instance of something meant to be
    ///   short-lived);
    /// - registrations that replaced an earlier one under the same key, and (as notes) registrations hidden
    ///   by one in a container searched first;
    /// - decorators that match nothing;
    /// - registrations that need runtime arguments: resolved with the samples in `options`, or reported as
    ///   not checked.
    ///
    /// ## The sandbox
    /// Validation mirrors this container and its fallbacks into throw-away containers that share the factories
    /// but not the instances: nothing it makes is kept, and no scoped instance of the real containers is made
    /// or touched. The factories do run, so keep side effects out of them (or validate in a test). A factory
    /// that force-unwraps `resolve(…)!` still traps on a missing registration, here as at run time; factories
    /// that use `try r.require(…)` let validation report it instead.
    ///
    /// - Parameter options: Sample arguments and reporting choices.
    /// - Returns: The report, with the recorded dependency graph.
    /// - Complexity: Resolves each registration once; O(registrations + dependencies).
    public func validate(_ options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        let run = _ValidationRun(self, options)
        run.resolveSynchronously()
        run.finishSynchronously()
        return run.report()
    }

    /// ``validate(_:)``, and also the registrations whose factories are `async` or isolated to the main actor:
    /// they run in the sandbox too (with `resolveAsync`), so their dependencies, failures and cycles are
    /// reported as well.
    ///
    /// ```swift
    /// let report = await container.validateAsync()
    /// #expect(report.isValid, "\(report)")
    /// ```
    ///
    /// What ``validate(_:)`` reports as "not checked" because it cannot await is checked here. Use it at
    /// start-up of a server, whose graph is mostly asynchronous, or in a test.
    ///
    /// - Parameters:
    ///   - options: Sample arguments and reporting choices.
    ///   - isolation: The caller's actor, inferred.
    /// - Returns: The report, with the recorded dependency graph.
    public func validateAsync(
        _ options: ValidationOptions = ValidationOptions(),
        isolation: isolated (any Actor)? = #isolation
    ) async -> ValidationReport {
        let run = _ValidationRun(self, options)
        run.resolveSynchronously()
        await run.resolveIsolated()
        await run.finish()
        return run.report()
    }

    /// Failures as issues, one per root cause: a missing registration, a cycle (found from any of its members),
    /// a failing factory. Each issue lists, in ``ValidationIssue/affected``, the registrations resolved at top
    /// level that fail because of it.
    static func issues(from failures: [(start: ServiceKey?, error: ResolutionError)]) -> [ValidationIssue] {
        var groups: [String: Int] = [:]
        var causes: [(failure: ResolutionError, kind: ValidationIssue.Kind, affected: [ServiceKey])] = []
        var seenStarts = Set<ServiceKey>()
        for (start, failure) in failures where failure.code != .requiresAsync && failure.code != .requiresMainActor {
            let identity: String
            let kind: ValidationIssue.Kind
            switch failure.code {
            case .notRegistered:
                identity = "missing \(failure.key)"
                kind = .missingRegistration
            case .cycle:
                identity = "cycle " + Set(failure.cycle.map(\.description)).sorted().joined(separator: ",")
                kind = .cycle
            case .factoryFailed:
                identity = "failed \(failure.key)"
                kind = .factoryFailed
            case .captiveDependency:
                identity = "captive \(failure.key) " + failure.pathDescription
                kind = .captiveDependency
            case .scopedValueNotProvided:
                identity = "scoped value \(failure.key)"
                kind = .notChecked
            default:
                identity = "\(failure.code) \(failure.key)"
                kind = .resolutionFailed
            }
            let group: Int
            if let existing = groups[identity] {
                group = existing
            } else {
                group = causes.count
                groups[identity] = group
                causes.append((failure, kind, []))
            }
            if let start, seenStarts.insert(start).inserted { causes[group].affected.append(start) }
        }
        return causes.map { cause in
            if cause.failure.code == .scopedValueNotProvided {
                // Declared, so not missing: validation just cannot make a value that each scope provides.
                let dependents = cause.affected.filter { $0 != cause.failure.key }
                let names = dependents.map(\.description).joined(separator: ", ")
                let shown = dependents.isEmpty ? "" : " What depends on it (\(names)) was checked up to it."
                return ValidationIssue(
                    severity: .note, kind: .notChecked, key: cause.failure.key, path: cause.failure.path,
                    message: "\(cause.failure.key) is a scoped value that each scope provides, so validation cannot "
                        + "make it.\(shown) Pass registerScopedValue(…, validationValue:) to check past it.",
                    affected: cause.affected)
            }
            var message = ValidationIssue.lines(cause.failure.description)
            if cause.affected.count > 1 {
                let shown = cause.affected.prefix(3).map(\.description).joined(separator: ", ")
                let more = cause.affected.count > 3 ? " and \(cause.affected.count - 3) more" : ""
                message += "\nIt makes \(cause.affected.count) registrations fail: \(shown)\(more)."
            }
            return ValidationIssue(
                severity: .error, kind: cause.kind, key: cause.failure.key, path: cause.failure.path,
                message: message, affected: cause.affected)
        }
    }

    /// Synchronous paths from a nonisolated factory into a main-actor or async one.
    func isolationPaths(
        in graph: DependencyGraph, sandbox: _Sandbox,
        failures: [ResolutionError]
    ) -> [ValidationIssue] {
        let byID = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0) })
        var issues: [ValidationIssue] = []
        for edge in graph.edges {
            guard let from = byID[edge.from], let to = byID[edge.to],
                sandbox.isolation[edge.from] == .nonisolated,
                let target = sandbox.isolation[edge.to], target != .nonisolated
            else { continue }
            let path =
                failures.first { $0.key == to.key && ($0.code == .requiresAsync || $0.code == .requiresMainActor) }?
                .path ?? [from.key, to.key]
            let text = path.map(\.description).joined(separator: " → ")
            if target == .async {
                issues.append(
                    ValidationIssue(
                        severity: .error, kind: .isolation, key: to.key, path: path,
                        message:
                            "\(from.key) resolves \(to.key) synchronously (\(text)), but \(to.key) has an async factory: "
                            + "that resolve always fails with requiresAsync. Make \(from.key)'s factory async and use "
                            + "`try await r.resolveAsync(…)`."))
            } else {
                issues.append(
                    ValidationIssue(
                        severity: .warning, kind: .isolation, key: to.key, path: path,
                        message: "\(from.key) resolves \(to.key) synchronously (\(text)), but \(to.key)'s factory is "
                            + "isolated to the main actor: it works only when the resolution runs on the main actor and "
                            + "fails with requiresMainActor anywhere else. Register \(from.key) with a mainActorFactory, "
                            + "or resolve \(to.key) with `try await r.resolveAsync(…)`."))
            }
        }
        return issues
    }

    /// Long-lived services that reach a short-lived one along recorded dependencies.
    func captiveDependencies(in graph: DependencyGraph, sandbox: _Sandbox) -> [ValidationIssue] {
        let byID = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0) })
        var adjacency: [String: [String]] = [:]
        for edge in graph.edges { adjacency[edge.from, default: []].append(edge.to) }
        func rank(_ node: DependencyGraph.Node) -> Int { sandbox.lifetimeRank[node.id] ?? 0 }
        var issues: [ValidationIssue] = []
        for node in graph.nodes where rank(node) >= ObjectScope.longLivedRank {
            var visited: Set<String> = [node.id]
            var queue: [(String, [String])] = [(node.id, [node.id])]
            while !queue.isEmpty {
                let (current, path) = queue.removeFirst()
                for next in adjacency[current] ?? [] where visited.insert(next).inserted {
                    guard let target = byID[next] else { continue }
                    let nextPath = path + [next]
                    if target.scope == ObjectScope.scoped.description {
                        continue  // a scoped dependency of a longer-lived one fails to resolve: reported as an error
                    } else if rank(target) < ObjectScope.longLivedRank {
                        let keys = nextPath.compactMap { byID[$0]?.key }
                        issues.append(
                            ValidationIssue(
                                severity: .warning, kind: .captiveDependency, key: node.key, path: keys,
                                message: "\(node.key) (\(node.scope)) holds \(target.key) (\(target.scope)) through "
                                    + keys.map(\.description).joined(separator: " → ") + ": it keeps one "
                                    + "\(target.scope) instance for as long as it lives. Give \(target.key) a longer "
                                    + "scope, or resolve it through Provider/Lazy."))
                    } else if rank(target) < rank(node) {
                        continue  // a longer-lived dependency of its own: reported from there
                    } else {
                        queue.append((next, nextPath))
                    }
                }
            }
        }
        return issues
    }

    /// Registrations that replaced an earlier one under the same key, here and in fallbacks: one issue per
    /// distinct pair of sites.
    func replacementIssues() -> [ValidationIssue] {
        lookupChain().flatMap { container in
            container.writer.withLock { container.records.replacements.map { ($0.key, $0.value.pairs) } }
                .sorted { $0.0.description < $1.0.description }
                .flatMap { key, pairs in
                    pairs.map { pair in
                        ValidationIssue(
                            severity: .warning, kind: .replacedRegistration, key: key, path: [key],
                            message: "\(key) registered at \(pair.by) replaced the registration "
                                + "at \(pair.replaced) in \(container.label); the later one wins.")
                    }
                }
        }
    }

    /// The registrations lookup reaches from here (first per key wins), those hidden, and collection types.
    func visibleRegistrations() -> (
        winners: [VisibleRegistration], shadowed: [ValidationIssue],
        collectionTypes: [ObjectIdentifier]
    ) {
        var winners: [VisibleRegistration] = []
        var byKey: [ServiceKey: VisibleRegistration] = [:]
        var shadowed: [ValidationIssue] = []
        var collectionTypes: [ObjectIdentifier] = []
        for container in lookupChain() {
            for entry in container.currentEntries {
                let registration = VisibleRegistration(key: entry.key, container: container.label, site: entry.site)
                if let winner = byKey[entry.key] {
                    shadowed.append(
                        ValidationIssue(
                            severity: .note, kind: .shadowedRegistration, key: entry.key, path: [entry.key],
                            message: "\(entry.key) registered in \(container.label) at \(entry.site) is hidden by the "
                                + "one in \(winner.container) at \(winner.site), which lookup reaches first."))
                } else {
                    byKey[entry.key] = registration
                    winners.append(registration)
                }
            }
            for type in container.writer.withLock({ Array(container.records.collectionElements.keys) })
            where !collectionTypes.contains(type) {
                collectionTypes.append(type)
            }
        }
        return (winners, shadowed, collectionTypes)
    }

    /// Collection elements of one element type (by type identifier), in collection order.
    func collectionElements(ofTypeID type: ObjectIdentifier) -> [_CollectionElement] {
        let home = registryOwner
        return lookupChain().flatMap { container in
            elementsSeen(
                container.writer.withLock { container.records.collectionElements[type] ?? [] }, in: container,
                from: home)
        }
    }
}

/// The isolation of an entry's factory, following forwarders.
func _isolation(of entry: any _AnyEntry) -> ServiceIsolation {
    var current: any _AnyEntry = entry
    while true {
        if let isolated = current as? any _IsolatedEntry, !current.isForwarding { return isolated.isolation }
        guard let next = current.forwardTarget else { return .nonisolated }
        current = next
    }
}

/// A registration as lookup sees it.
struct VisibleRegistration {
    let key: ServiceKey
    let container: String
    let site: RegistrationSite
}

extension ObjectScope {
    /// Scopes at or above this rank keep instances beyond one resolution (container, singleton, multiton, custom).
    static var longLivedRank: Int { 3 }
}
