// How validation resolves each registration once.
//
// `validate()` resolves every registration at top level. Without memory, a chain of n registrations (each
// factory requiring the next) is resolved from every start: n(n+1)/2 factory runs, each failure carrying its own
// path, and past the depth limit, one error per start point. In the sandbox each registration's copy is wrapped in
// a `_MemoEntry`: the first resolve of a registration without arguments records its outcome (the instance, or the
// error), and later resolves of it, at top level or nested, reuse it.
//
// An outcome is recorded only when it cannot depend on where the resolve started:
// - a resolve that re-entered a registration still being resolved (a cycle, or a `.graph` instance handed back
//   through `initCompleted`) taints every resolve above the re-entered one: their failures are not recorded, and
//   no success is recorded for a resolve whose dependencies re-entered anything, itself included (elsewhere it
//   may meet the cycle the re-entry closed). A tainted registration is never recorded in that run, so that a
//   later `.graph` hit on its instance (which runs no factory) does not record it either;
// - a `depthLimitExceeded` failure depends on the depth of the start, so it taints everything on the stack.
// Registrations with runtime arguments are never recorded (their outcome depends on the arguments). In a graph
// without cycles, recorded outcomes are exactly what a fresh resolve would give: a cycle through a recorded
// registration would have re-entered it when it was first resolved.
//
// A start that fails with `depthLimitExceeded` is resolved again bottom-up (see `Container.validate`): the
// innermost registration that was being resolved is resolved at top level first, so each later start finds the
// deeper part recorded, and any depth of chain is validated in linear time.

/// The outcomes recorded by one validation run, and the registrations being resolved now.
final class _ValidationMemo: @unchecked Sendable {  // @unchecked: every property is guarded by `lock`.
    enum Outcome {
        case made(Any)
        case failed(ResolutionError)
    }

    /// A registration being resolved: the lowest stack position re-entered while it was on the stack.
    private struct Frame {
        let entry: ObjectIdentifier
        var lowestReentry = Int.max
    }

    private let lock = _Lock()
    private var outcomes: [ObjectIdentifier: Outcome] = [:]
    private var frames: [Frame] = []
    private var positions: [ObjectIdentifier: Int] = [:]
    /// Registrations whose outcome was tainted once in this run: never recorded.
    private var tainted: Set<ObjectIdentifier> = []
    /// The innermost registration being resolved when a depth limit was last hit, and its resolver.
    private var deepest: (entry: _MemoEntry, container: Container)?
    /// Cleared when resolves interleave (a factory resolving on several threads at once): the stack then says
    /// nothing about dependence, so nothing more is recorded.
    private var isReliable = true

    /// The recorded outcome of `entry`, or nil (after which the caller resolves it and calls `leave`).
    func enter(_ entry: _MemoEntry) -> Outcome? {
        let id = ObjectIdentifier(entry)
        return lock.withLock {
            if let outcome = outcomes[id] { return outcome }
            if let position = positions[id], !frames.isEmpty {
                // Re-entered: whatever is above it depends on it being unfinished.
                frames[frames.count - 1].lowestReentry = min(frames[frames.count - 1].lowestReentry, position)
            }
            if positions[id] == nil { positions[id] = frames.count }
            frames.append(Frame(entry: id))
            return nil
        }
    }

    /// Ends the resolve of `entry` begun by `enter`, recording `outcome` when it cannot depend on the start.
    func leave(_ entry: _MemoEntry, container: Container, _ outcome: Outcome) {
        let id = ObjectIdentifier(entry)
        lock.withLock {
            guard let frame = frames.last, frame.entry == id else {
                isReliable = false
                return
            }
            frames.removeLast()
            let position = frames.count
            if positions[id] == position { positions[id] = nil }
            var lowest = frame.lowestReentry
            let recordable: Bool
            switch outcome {
            case .failed(let error) where error.code == .depthLimitExceeded:
                if deepest == nil { deepest = (entry, container) }
                lowest = -1
                recordable = false
            case .failed:
                recordable = lowest >= position
                if !recordable { tainted.insert(id) }
            case .made:
                recordable = lowest == Int.max
                if !recordable { tainted.insert(id) }
            }
            if !frames.isEmpty {
                frames[frames.count - 1].lowestReentry = min(frames[frames.count - 1].lowestReentry, lowest)
            }
            if recordable, isReliable, !entry.key.hasArguments, !tainted.contains(id) { outcomes[id] = outcome }
        }
    }

    /// The innermost registration that was being resolved when the depth limit was last hit (then forgotten).
    func takeDeepest() -> (entry: _MemoEntry, container: Container)? {
        lock.withLock {
            defer { deepest = nil }
            return deepest
        }
    }
}

/// A sandbox copy of a registration that resolves through the run's ``_ValidationMemo``.
final class _MemoEntry: _AnyEntry, _AsyncEntry, Sendable {
    /// The target's key. The first stored property, which a registration table reads in place (see
    /// `_RegistrationTable`): keep it first.
    let key: ServiceKey
    /// The sandbox copy (the node of the recorded graph).
    let target: any _AnyEntry
    let memo: _ValidationMemo

    init(target: any _AnyEntry, memo: _ValidationMemo) {
        self.target = target
        self.memo = memo
        key = target.key
    }

    var objectScope: ObjectScope { target.objectScope }
    var site: RegistrationSite { target.site }
    var hasInitCompleted: Bool { target.hasInitCompleted }
    var isForwarding: Bool { true }
    var hasSharedInstance: Bool { target.hasSharedInstance }
    var forwardTarget: (any _AnyEntry)? { target }
    func _setScope(_ scope: ObjectScope) { target._setScope(scope) }
    func _reset(matching scope: ObjectScope?, includingSingletons: Bool) {}

    // Not optimised: with optimisation, Swift 6.3.1 crashes in CSE on this function (a pack-generic witness with
    // a branch); it runs only in validation, where a call's cost does not matter.
    @_optimize(none)
    func _resolveAny<each Arg>(_ container: Container, _ arguments: repeat each Arg) throws -> Any {
        // A scoped registration keeps its instance in the sandbox's scope anyway, and its outcome depends on who
        // asks (a longer-lived one asking is a captive dependency): never recorded.
        if key.hasArguments || target.objectScope.kind == .scoped {
            return try target._resolveAny(container, repeat each arguments)
        }
        return try resolveRecorded(container)
    }

    /// A resolve without arguments: the recorded outcome, or a resolve whose outcome is recorded.
    private func resolveRecorded(_ container: Container) throws -> Any {
        switch memo.enter(self) {
        case .made(let instance)?: return instance
        case .failed(let error)?: throw error
        case nil: break
        }
        do {
            let instance = try target._resolveAny(container)
            memo.leave(self, container: container, .made(instance))
            return instance
        } catch {
            memo.leave(self, container: container, .failed(_asResolutionError(error)))
            throw error
        }
    }

    func _resolveAnyAsync<each Arg>(
        _ container: Container, _ context: _AsyncContext?,
        _ arguments: _UncheckedSendable<(repeat each Arg)>
    )
        async throws(ResolutionError) -> _UncheckedSendable<Any>
    {
        try await (target as! any _AsyncEntry)._resolveAnyAsync(container, context, arguments)
    }

    func _adoptIntoSandbox(_ container: Container) { target._adoptIntoSandbox(container) }

    /// Never copied: it is made around a copy.
    func _sandboxCopy(forwardingTo target: (any _AnyEntry)?) -> any _AnyEntry { self }

    @usableFromInline var owningContainer: Container? { nil }
    /// Never in a table: the copy that forwards to it is.
    func _exportForwarder(in scope: Container?) -> AnyObject { self }
    var madeExportForwarder: AnyObject? { nil }
}
