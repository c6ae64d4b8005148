/// How a resolve of one key is answered: which registration wins, where it came from, what it replaced.
///
/// ```swift
/// print(container.explain(Storage.self))
/// // Storage
/// //   lookup: app → base (found in base)
/// //   registration: base at StorageAssembly.swift:12, scope container, instance cached: yes
/// //   replaced: an earlier registration at StorageAssembly.swift:9 in base
/// //   decorators: 1 (Audit.swift:20)
/// ```
public struct Explanation: Sendable, CustomStringConvertible {
    /// The key explained.
    public let key: ServiceKey
    /// The containers lookup visits, in order, up to the one that has the key (or all of them).
    public let lookupPath: [String]
    /// The container whose registration wins, or `nil` when nothing matches.
    public let winningContainer: String?
    /// Where the winning registration was made.
    public let site: RegistrationSite?
    /// The winning registration's scope.
    public let scope: String?
    /// Whether a shared instance of it exists right now.
    public let isCached: Bool
    /// For a forwarded type: the key it forwards to.
    public let forwardsTo: ServiceKey?
    /// Registrations under the same key that the winning one replaced (earlier sites), in its container.
    public let replaced: [RegistrationSite]
    /// Registrations under the same key hidden because lookup reaches the winner first: (container, site).
    public let shadowed: [(container: String, site: RegistrationSite)]
    /// Decorators that apply to instances of it.
    public let decorators: [RegistrationSite]
    /// When nothing matches: registrations of the same type under another name or argument list.
    public let nearMisses: [ServiceKey]

    /// A readable account, one fact a line.
    public var description: String {
        var lines = [key.description]
        let found = winningContainer.map { " (found in \($0))" } ?? " (not found)"
        lines.append("  lookup: \(lookupPath.joined(separator: " → "))\(found)")
        if let winningContainer, let site, let scope {
            lines.append(
                "  registration: \(winningContainer) at \(site), scope \(scope), instance cached: \(isCached ? "yes" : "no")"
            )
        }
        if let forwardsTo { lines.append("  forwards to: \(forwardsTo)") }
        for site in replaced { lines.append("  replaced: an earlier registration at \(site)") }
        for (container, site) in shadowed { lines.append("  hides: the registration in \(container) at \(site)") }
        if !decorators.isEmpty {
            lines.append("  decorators: \(decorators.count) (\(decorators.map(\.description).joined(separator: ", ")))")
        }
        if winningContainer == nil {
            lines.append(
                nearMisses.isEmpty
                    ? "  nothing of this type is registered"
                    : "  registered instead: \(nearMisses.map(\.description).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}

extension Container {
    /// Explains how resolving `type` (with `name`, without runtime arguments) is answered from this container.
    ///
    /// ```swift
    /// print(container.explain(Storage.self, name: "remote"))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service type.
    ///   - name: The registration name.
    /// - Returns: Which registration wins, from which container, what it replaced or hides, its scope, whether
    ///   an instance is cached, and the decorators that apply.
    public func explain<Service>(_ type: Service.Type, name: String? = nil) -> Explanation {
        explain(ServiceKey(serviceType: Service.self, argumentsType: Void.self, name: name, argumentCount: 0))
    }

    /// Explains how resolving `key` is answered from this container (any argument list).
    ///
    /// - Parameter key: The key, e.g. `ServiceKey(Cat.self, argumentTypes: String.self)`.
    /// - Returns: The explanation.
    public func explain(_ key: ServiceKey) -> Explanation {
        var path: [String] = []
        var winner: (container: Container, entry: any _AnyEntry)?
        var shadowed: [(container: String, site: RegistrationSite)] = []
        for container in lookupChain() {
            let entry = container.ownEntry(for: key)
            if winner == nil { path.append(container.label) }
            guard let entry else { continue }
            if winner == nil {
                winner = (container, entry)
            } else {
                shadowed.append((container.label, entry.site))
            }
        }
        guard let (container, entry) = winner else {
            return Explanation(
                key: key, lookupPath: path, winningContainer: nil, site: nil, scope: nil,
                isCached: false, forwardsTo: nil, replaced: [], shadowed: [], decorators: [],
                nearMisses: nearMisses(for: key))
        }
        let replaced = container.writer.withLock {
            container.records.replacements[key]?.pairs.map(\.replaced) ?? []
        }
        let decorators = lookupChain().flatMap { container in
            container.writer.withLock {
                (container.records.decorators[ObjectIdentifier(key.serviceType)] ?? [])
                    .filter { $0.name == nil || $0.name == key.name }.map(\.site)
            }
        }
        return Explanation(
            key: key, lookupPath: path, winningContainer: container.label, site: entry.site,
            scope: entry.objectScope.description, isCached: entry.hasSharedInstance,
            forwardsTo: entry.forwardTarget?.key, replaced: replaced, shadowed: shadowed,
            decorators: decorators, nearMisses: [])
    }
}
