extension Assembler {
    /// Validates the assembler's whole container (see ``Container/validate(_:)``).
    ///
    /// ```swift
    /// let report = assembler.validate()
    /// ```
    ///
    /// - Parameter options: Sample arguments and reporting choices.
    /// - Returns: The report.
    public func validate(_ options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        container.validate(options)
    }

    /// Explains how resolving `type` is answered (see ``Container/explain(_:name:)``).
    ///
    /// - Parameters:
    ///   - type: The service type.
    ///   - name: The registration name.
    /// - Returns: The explanation.
    public func explain<Service>(_ type: Service.Type, name: String? = nil) -> Explanation {
        container.explain(type, name: name)
    }
}

extension ModuleAssembler {
    /// Validates the whole module graph: every registration of every module, each in its module's scope.
    ///
    /// Every registration is resolved through a sandbox request scope, as ``Container/validate(_:)`` does, so a
    /// module's `.scoped` registrations and declared scoped values are checked as they run in a request (see
    /// ``ModuleAssembler/makeScope(label:)``).
    ///
    /// Besides what ``Container/validate(_:)`` reports, a module that resolves something only a module it does
    /// not depend on registers (a scoped value another module declares included) is reported as an undeclared
    /// dependency (naming both modules and the fix); a module's decorator that matches nothing the module, its
    /// dependencies or the modules depending on it register is reported as an unmatched decorator; and the
    /// assembler's warnings (replacements that replace nothing, contributions dropped) are included.
    ///
    /// ```swift
    /// let report = try ModuleAssembler([AppModule()]).validate()
    /// #expect(report.isValid, "\(report)")
    /// ```
    ///
    /// - Parameter options: Sample arguments and reporting choices.
    /// - Returns: The report.
    public func validate(_ options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        let report = root.validate(options)
        func module(registering key: ServiceKey) -> String? {
            records.first { $0.container.registersOwn(key) }?.type.name
        }
        var issues: [ValidationIssue] = []
        for issue in report.issues {
            guard issue.kind == .missingRegistration, issue.severity == .error, let key = issue.key,
                issue.path.count >= 2, let requester = module(registering: issue.path[issue.path.count - 2]),
                let owner = module(registering: key), owner != requester
            else {
                issues.append(issue)
                continue
            }
            issues.append(
                ValidationIssue(
                    severity: .error, kind: .undeclaredDependency, key: key, path: issue.path,
                    message:
                        "\(requester) resolves \(key) (\(issue.path.map(\.description).joined(separator: " → "))), "
                        + "which only \(owner) registers, and \(requester) does not depend on \(owner): add "
                        + "\(owner).self to \(requester).dependencies.", affected: issue.affected))
        }
        issues += unmatchedModuleDecorators()
        for warning in warnings {
            issues.append(
                ValidationIssue(
                    severity: warning.code == .unusedReplacement ? .warning : .note,
                    kind: warning.code == .unusedReplacement ? .unusedOverride : .resolutionFailed,
                    key: warning.key, message: warning.description))
        }
        return ValidationReport(issues: issues, checkedCount: report.checkedCount, graph: report.graph)
    }

    /// The decorators of every module that match nothing they can wrap: a module's decorator wraps what the module
    /// and its dependencies register, and (exported) what the modules depending on it register.
    func unmatchedModuleDecorators() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for (position, record) in records.enumerated()
        where record.container.writer.withLock({ !record.container.records.decorators.isEmpty }) {
            // The modules that depend on it, transitively: assembled after it (dependencies come first).
            var reaching: Set<ObjectIdentifier> = [ObjectIdentifier(record)]
            var chain: [Container] = []
            var seen = Set<ObjectIdentifier>()
            func add(_ module: _ModuleRecord) {
                for container in module.container.lookupChain() where seen.insert(ObjectIdentifier(container)).inserted
                {
                    chain.append(container)
                }
            }
            add(record)
            for dependent in records[(position + 1)...]
            where dependent.dependencies.contains(where: { reaching.contains(ObjectIdentifier($0)) }) {
                reaching.insert(ObjectIdentifier(dependent))
                add(dependent)
            }
            let place = "\(record.type.name), its dependencies or the modules that depend on it"
            issues += record.container.unmatchedDecorators(searching: chain, where: place).map { problem in
                ValidationIssue(severity: .warning, kind: .unmatchedDecorator, key: nil, message: problem.message)
            }
        }
        return issues
    }
}
