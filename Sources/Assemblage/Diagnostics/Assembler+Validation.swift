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
    /// Besides what ``Container/validate(_:)`` reports, a module that resolves something only a module it does
    /// not depend on registers is reported as an undeclared dependency (naming both modules and the fix), and
    /// the assembler's warnings (replacements that replace nothing, contributions dropped) are included.
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
                  let owner = module(registering: key), owner != requester else {
                issues.append(issue)
                continue
            }
            issues.append(ValidationIssue(
                severity: .error, kind: .undeclaredDependency, key: key, path: issue.path,
                message: "\(requester) resolves \(key) (\(issue.path.map(\.description).joined(separator: " → "))), "
                    + "which only \(owner) registers, and \(requester) does not depend on \(owner): add "
                    + "\(owner).self to \(requester).dependencies.", affected: issue.affected))
        }
        for warning in warnings {
            issues.append(ValidationIssue(
                severity: warning.code == .unusedReplacement ? .warning : .note,
                kind: warning.code == .unusedReplacement ? .unusedOverride : .resolutionFailed,
                key: warning.key, message: warning.description))
        }
        return ValidationReport(issues: issues, checkedCount: report.checkedCount, graph: report.graph)
    }
}
