/// One run of ``Container/validate(_:)`` or ``Container/validateAsync(_:isolation:)``: the sandbox, the
/// registrations resolved in it, and what failed.
///
/// Every registration is resolved through a scope of the sandbox, so that `.scoped` registrations resolve as they
/// do at run time, and a longer-lived one that captures a scoped one fails as it would
/// (`captiveDependency`).
final class _ValidationRun {
    let container: Container
    let options: ValidationOptions
    let sandbox = _Sandbox()
    /// The mirror of `container`.
    let root: Container
    /// The sandbox scope every registration is resolved through.
    let scope: Scope
    var failures: [(start: ServiceKey?, error: ResolutionError)] = []
    var checkedKeys = Set<ServiceKey>()
    var checked = 0
    /// Registrations with an `async` or main-actor factory: not run by the synchronous pass.
    var isolatedNotRun: [(entry: any _AnyEntry, isolation: ServiceIsolation)] = []
    let visible: (winners: [VisibleRegistration], shadowed: [ValidationIssue], collectionTypes: [ObjectIdentifier])

    /// The mirrors refer to one another through their registrations and fallbacks: those links are cut first, so
    /// that each mirror is freed on its own rather than from inside another's deinit (which, over a chain of ten
    /// thousand modules, would overflow the stack).
    deinit { sandbox.dismantle() }

    init(_ container: Container, _ options: ValidationOptions) {
        self.container = container
        self.options = options
        root = sandbox.mirror(container)
        sandbox.finish()
        scope = root.makeScope(label: "validation")
        scope.recorder = sandbox.recorder
        visible = container.visibleRegistrations()
    }

    /// Runs the samples, resolves every registration without arguments whose factory is synchronous, and every
    /// collection element.
    func resolveSynchronously() {
        for sample in options.samples {
            let mark = sandbox.recorder.edgeCount
            do {
                try sample(scope)
            } catch {
                let error = _asResolutionError(error)
                failures.append((error.path.first, error))
            }
            checkedKeys.formUnion(sandbox.recorder.topLevelKeys(since: mark))
        }
        for registration in visible.winners where !registration.key.hasArguments {
            guard let entry = scope._lookupRetained(registration.key) else { continue }
            let isolation = _isolation(of: entry)
            guard isolation == .nonisolated else {
                isolatedNotRun.append((entry, isolation))
                continue
            }
            checked += 1
            if let error = sandbox.resolveTopLevel(entry, in: scope) { failures.append((registration.key, error)) }
        }
        for type in visible.collectionTypes {
            for element in root.collectionElements(ofTypeID: type) {
                sandbox.recorder.recordElement(element.entry, key: element.entry.key)
                checked += 1
                do {
                    _ = try element.entry._resolveAny(scope)
                } catch {
                    failures.append((element.entry.key, _asResolutionError(error)))
                }
            }
        }
    }

    /// What the sandbox made and disposed at the end of the run, or failed to.
    var disposalFailures: [DisposalError.Failure] = []

    /// Ends the sandbox: its scope, then its containers (newest first), so that what validation made is
    /// disposed — an open connection pool closed — as the app would dispose it.
    func finishSynchronously() {
        do { try scope.endSynchronously() } catch { disposalFailures += error.failures }
        for container in sandbox.containers.reversed() {
            do { try container.shutdownSynchronously() } catch { disposalFailures += error.failures }
        }
    }

    /// ``finishSynchronously()``, awaiting asynchronous disposals.
    func finish() async {
        do { try await scope.end() } catch { disposalFailures += error.failures }
        for container in sandbox.containers.reversed() {
            do { try await container.shutdown() } catch { disposalFailures += error.failures }
        }
    }

    /// Resolves the registrations the synchronous pass could not run, awaiting them.
    func resolveIsolated() async {
        let pending = isolatedNotRun
        isolatedNotRun = []
        for (entry, _) in pending {
            checked += 1
            guard let asynchronous = entry as? any _AsyncEntry else { continue }
            do {
                _ = try await asynchronous._resolveAnyAsync(scope, nil, _UncheckedSendable(()))
            } catch {
                failures.append((entry.key, error))
            }
        }
    }

    func report() -> ValidationReport {
        var issues: [ValidationIssue] = []
        issues += Container.issues(from: failures)
        let notChecked = visible.winners.filter { $0.key.hasArguments && !checkedKeys.contains($0.key) }
        issues += notChecked.map { registration in
            ValidationIssue(
                severity: .warning, kind: .notChecked, key: registration.key, path: [registration.key],
                message: "\(registration.key) (\(registration.container), \(registration.site)) needs runtime "
                    + "arguments, so it was not resolved; add a sample with ValidationOptions.sample { r in "
                    + "_ = try r.require(\(_typeName(registration.key.serviceType, qualified: false)).self, "
                    + "argument…: …) } to check it.")
        }
        checked += checkedKeys.count
        let graph = sandbox.graph()
        issues += container.isolationPaths(in: graph, sandbox: sandbox, failures: failures.map(\.error))
        issues += isolatedNotRun.map { entry, isolation in
            // validate() is synchronous: it checks the paths that reach such a registration, not its factory.
            ValidationIssue(
                severity: .note, kind: .notChecked, key: entry.key, path: [entry.key],
                message: "\(entry.key)'s factory is \(isolation), so validate() does not run it; "
                    + "validateAsync() does.")
        }
        issues += container.captiveDependencies(in: graph, sandbox: sandbox)
        issues += container.replacementIssues()
        if options.reportsShadowedRegistrations { issues += visible.shadowed }
        issues += container.unmatchedDecorators().map { problem in
            ValidationIssue(severity: .warning, kind: .unmatchedDecorator, key: nil, message: problem.message)
        }
        let failedKeys = Set(failures.map(\.error.key))
        issues += sandbox.recorder.failures.filter { failure in
            failure.code == .notRegistered && !failedKeys.contains(failure.key)
        }.uniqued(by: \.key).map { failure in
            ValidationIssue(
                severity: .note, kind: .missingRegistration, key: failure.key, path: failure.path,
                message: "\(failure.key) is resolved optionally along \(failure.pathDescription) and "
                    + "is not registered; the optional API gets nil there.")
        }
        issues += disposalFailures.map { failure in
            ValidationIssue(
                severity: .warning, kind: .factoryFailed, key: failure.key, path: [failure.key],
                message: failure.requiresAsyncDisposal
                    ? "\(failure.key), made by validation, can only be disposed asynchronously: validate() could not "
                        + "dispose it. Use validateAsync()."
                    : "Disposing \(failure.key), made by validation, failed: \(failure.underlying).")
        }
        return ValidationReport(issues: issues, checkedCount: checked, graph: graph)
    }
}
