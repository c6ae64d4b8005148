public import _AssemblageShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A scope's instances: the storage behind `Scope` (see Scope.swift).

/// A scope's instances: one allocation holding a one-word lock and eight slots inline.
///
/// Every slot operation is a short critical section under the lock; factories run outside it. A slot is
/// claimed by the thread that makes its instance; another thread asking for it meanwhile sleeps until the
/// scope's ``_ScopeHeader/generation`` changes (a wait that would close a cycle between threads is a `cycle`
/// error instead). Once the scope is marked ended, no other thread touches a slot again, so the thread that ended
/// it disposes and releases them without the lock.
@usableFromInline
final class _ScopeStorage: ManagedBuffer<_ScopeHeader, _ScopeSlot> {
    // Shared between threads through its scope (an @unchecked Sendable container): slots and the mutable header
    // fields are only touched under the lock until the scope ends, and then only by the thread that ended it;
    // `parent` is immutable; the generation is atomic.

    static let inlineCapacity = 8

    static func make(parent: Container) -> _ScopeStorage {
        create(minimumCapacity: inlineCapacity) { _ in _ScopeHeader(parent: parent) } as! _ScopeStorage
    }

    deinit {
        // The last reference is gone: no other thread can reach the storage, so no lock.
        if var ended = withUnsafeMutablePointerToHeader({ Self.takeOver($0) }) {
            // Dropped without being ended: dispose what can be disposed now, and say so when there was any.
            let hadDisposables = ended.lastOwned >= 0
            let failures = disposeOwnedSynchronously(&ended).failures
            releaseAll(&ended)
            if hadDisposables {
                let neverEnded = DisposalError.Failure(
                    key: ServiceKey(Scope.self), underlying: _NeverEnded(),
                    requiresAsyncDisposal: false)
                DisposalError.reportUnhandled(DisposalError(owner: "a scope", failures: [neverEnded] + failures))
            }
        }
        withUnsafeMutablePointers { header, slots in
            _ = slots.deinitialize(count: min(header.pointee.count, Self.inlineCapacity))
        }
    }

    /// The container the scope was made from (read through the header's address: the `header` property itself
    /// costs a dynamic exclusivity check per read).
    ///
    /// Loaded from the field's bytes, which never change: a Swift access to `pointee` would count, for the
    /// thread sanitizer, as an access to the whole header, which threads change under the lock.
    var parent: Container {
        withUnsafeMutablePointerToHeader { header in
            (UnsafeRawPointer(header) + MemoryLayout<_ScopeHeader>.offset(of: \.parent)!)
                .load(as: Unmanaged<Container>.self).takeUnretainedValue()
        }
    }

    /// The generation's bit that says the scope has ended (set under the lock with the `ended` flag).
    @usableFromInline static var endedBit: UInt32 { 0x8000_0000 }

    /// Whether the scope has ended, read without the lock (one atomic load): for the resolve paths, which
    /// refuse everything through an ended scope.
    @inlinable @inline(__always)
    var hasEnded: Bool {
        withUnsafeMutablePointerToHeader { header in
            _asm_load_acquire_u32(
                UnsafeMutableRawPointer(header) + MemoryLayout<_ScopeHeader>.offset(of: \.generation)!)
                & Self.endedBit != 0
        }
    }

    @inline(__always)
    private func locked<R>(_ body: (UnsafeMutablePointer<_ScopeHeader>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointerToHeader { header in
            let lock = Self.lockWord(header)
            _asm_word_lock(lock)
            defer { _asm_word_unlock(lock) }
            return try body(header)
        }
    }

    /// The lock's address (computed from the layout: a Swift access through `pointee` would count, for the
    /// thread sanitizer, as a plain access to the header).
    @inline(__always)
    private static func lockWord(_ header: UnsafeMutablePointer<_ScopeHeader>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(header) + MemoryLayout<_ScopeHeader>.offset(of: \.lock)!
    }

    /// The generation's address.
    @inline(__always)
    private static func generationWord(_ header: UnsafeMutablePointer<_ScopeHeader>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(header) + MemoryLayout<_ScopeHeader>.offset(of: \.generation)!
    }

    /// Under the lock: when threads wait, changes the generation and returns `true` (then call
    /// ``_ScopeWaits/wakeAll()`` after releasing the lock).
    @inline(__always)
    private static func advanceIfWaited(_ header: UnsafeMutablePointer<_ScopeHeader>) -> Bool {
        guard !header.pointee.waits.isEmpty else { return false }
        let word = generationWord(header)
        let generation = _asm_load_acquire_u32(word)
        _asm_store_release_u32(word, (generation & endedBit) | ((generation &+ 1) & ~endedBit))
        return true
    }

    /// Runs `body` on slot `index` (under the lock, or after the end by the thread that ended the scope).
    @inline(__always)
    private func withSlot<R>(
        _ index: Int, _ header: UnsafeMutablePointer<_ScopeHeader>,
        _ body: (inout _ScopeSlot) throws -> R
    ) rethrows -> R {
        if index < Self.inlineCapacity { return try withUnsafeMutablePointerToElements { try body(&$0[index]) } }
        return try body(&header.pointee.overflow[index - Self.inlineCapacity])
    }

    /// Appends a slot (under the lock), moving it in; returns its index. (The inline slots are the first
    /// ``inlineCapacity``: the buffer's real `capacity` asks the allocator, which costs a call per use.)
    @inline(__always)
    private func append(_ header: UnsafeMutablePointer<_ScopeHeader>, _ slot: () -> _ScopeSlot) -> Int {
        let index = header.pointee.count
        if index < Self.inlineCapacity {
            withUnsafeMutablePointerToElements { ($0 + index).initialize(to: slot()) }  // made in place
        } else {
            header.pointee.overflow.append(slot())
        }
        header.pointee.count += 1
        return index
    }

    /// The slot of `entry` (under the lock). The filter test is all of it that the callers inline: a registration
    /// that has no slot yet, as on every first claim, costs no call.
    private func find(
        _ entry: ObjectIdentifier, bit: UInt, _ header: UnsafeMutablePointer<_ScopeHeader>
    ) -> Int? {
        guard header.pointee.filter & UInt64(bit) != 0 else { return nil }
        return scan(entry, header)
    }

    /// ``find(_:_:)`` past the filter: the slots, in order.
    private func scan(_ entry: ObjectIdentifier, _ header: UnsafeMutablePointer<_ScopeHeader>) -> Int? {
        let count = header.pointee.count
        let inline = min(count, Self.inlineCapacity)
        let found: Int? = withUnsafeMutablePointerToElements { slots in
            for index in 0..<inline where slots[index].entryAddress == entry { return index }
            return nil
        }
        if let found { return found }
        guard count > Self.inlineCapacity else { return nil }
        return header.pointee.overflow.firstIndex { $0.entryAddress == entry }.map { $0 + Self.inlineCapacity }
    }

    /// The ready instance of `entry` in this scope, if any.
    func readyInstance(_ entry: ObjectIdentifier, bit: UInt) -> Any? {
        locked { header in
            guard !header.pointee.ended, let index = find(entry, bit: bit, header) else { return nil }
            return withSlot(index, header) { $0.creator == nil ? $0.instance.any : nil }
        }
    }

    @usableFromInline
    enum Claim {
        case ready(_ScopeInstance)
        case create(Int)
    }

    /// The instance of `entry` in this scope, or the right to make it (then call ``complete(_:_:_:)``
    /// or ``abandon(_:)``).
    @usableFromInline
    func claim(
        _ entry: AnyObject, address: ObjectIdentifier, bit: UInt, key: ServiceKey,
        state: ObjectIdentifier
    ) throws(ResolutionError) -> Claim {
        let path = { _Unowned<_ResolutionState>(assumingAlive: state).with { $0.path } }
        return try withUnsafeMutablePointerToHeader { header throws(ResolutionError) -> Claim in
            let lock = Self.lockWord(header)
            _asm_word_lock(lock)
            defer { _asm_word_unlock(lock) }
            while true {
                guard !header.pointee.ended else {
                    throw ResolutionError(code: .scopeEnded, key: key, path: path() + [key])
                }
                guard let index = find(address, bit: bit, header) else {
                    header.pointee.filter |= UInt64(bit)
                    return .create(append(header) { _ScopeSlot(entryAddress: address, entry: entry, creator: state) })
                }
                if let instance: _ScopeInstance = withSlot(index, header, { $0.creator == nil ? $0.instance : nil }) {
                    return .ready(instance)
                }
                let creator = withSlot(index, header) { $0.creator! }
                if creator == state {
                    throw ResolutionError(code: .cycle, key: key, path: path() + [key], cycle: [key, key])
                }
                try checkWaitCycle(from: state, to: creator, key: key, header, path: path())
                header.pointee.waits.append((state, index))
                let generation = Self.generationWord(header)
                let seen = _asm_load_acquire_u32(generation)
                _asm_word_unlock(lock)
                _ScopeWaits.sleep(until: generation, differsFrom: seen)
                _asm_word_lock(lock)
                header.pointee.waits.removeAll { $0.waiter == state }
            }
        }
    }

    /// Throws a cycle error when waiting for `creator` would wait, through the creations other threads wait for
    /// in this scope, for this thread itself.
    private func checkWaitCycle(
        from state: ObjectIdentifier, to creator: ObjectIdentifier, key: ServiceKey,
        _ header: UnsafeMutablePointer<_ScopeHeader>, path: [ServiceKey]
    ) throws(ResolutionError) {
        var thread = creator
        var cycle = [key]
        var steps = 0
        while let wait = header.pointee.waits.first(where: { $0.waiter == thread }), steps <= header.pointee.waits.count
        {
            steps += 1
            let (next, waitedKey) = withSlot(wait.slot, header) { ($0.creator, $0.key) }
            cycle.append(waitedKey)
            guard let next else { return }
            if next == state {
                throw ResolutionError(code: .cycle, key: key, path: path + [key], cycle: cycle + [key])
            }
            thread = next
        }
    }

    /// Moves the instance made for slot `index` (and its disposer) into the slot and wakes threads waiting for it.
    /// Returns `false` when the scope ended while the instance was made: it is disposed at once then, since no one
    /// else will. Both are taken by `inout` and swapped in, so that neither is retained and released on the way.
    @usableFromInline
    func complete(
        _ index: Int, _ instance: inout _ScopeInstance, _ disposer: inout (any _AnyDisposer)?,
        entry: AnyObject
    ) -> Bool {
        var woken = false
        let ended: Bool = locked { header in
            if header.pointee.ended { return true }
            let owned = disposer != nil
            withSlot(index, header) { slot in
                swap(&slot.instance, &instance)  // moved in (the slot's was `.none`), not copied
                slot.creator = nil
                if owned {
                    swap(&slot.disposer, &disposer)
                    slot.previousOwned = header.pointee.lastOwned
                }
            }
            if owned { header.pointee.lastOwned = index }
            woken = Self.advanceIfWaited(header)
            return false
        }
        if woken { _ScopeWaits.wakeAll() }
        guard ended else { return true }
        if let disposer {
            do {
                try instance.disposeSynchronously(with: disposer)
            } catch {
                // Not from the slot: the thread that ended the scope owns the slots now.
                let key = _ScopeSlot(entry: entry).key
                DisposalError.reportUnhandled(
                    DisposalError(
                        owner: "a scope",
                        failures: [
                            DisposalError.Failure(
                                key: key, underlying: error, requiresAsyncDisposal: error is _RequiresAsyncDisposal)
                        ]))
            }
        }
        return false
    }

    /// Gives up slot `index` after its factory failed, so that another resolve may try again.
    @usableFromInline
    func abandon(_ index: Int) {
        var woken = false
        let released: AnyObject? = locked { header in
            guard !header.pointee.ended else { return nil }
            woken = Self.advanceIfWaited(header)
            return withSlot(index, header) { slot in
                slot.creator = nil
                slot.entryAddress = nil
                defer { slot.entry = nil }
                return slot.entry
            }
        }
        if woken { _ScopeWaits.wakeAll() }
        _ = released
    }

    /// Keeps an instance made through the scope (a transient) to dispose it when the scope ends. Returns `false`
    /// when the scope has ended (the caller owns the instance then).
    @discardableResult
    func track(_ instance: __owned _ScopeInstance, _ disposer: any _AnyDisposer, entry: AnyObject) -> Bool {
        locked { header in
            guard !header.pointee.ended else { return false }
            let previous = header.pointee.lastOwned
            header.pointee.lastOwned = append(header) {
                _ScopeSlot(entry: entry, instance: instance, disposer: disposer, previousOwned: previous)
            }
            return true
        }
    }

    /// Stores a provided value for a declared registration.
    func provide<Value>(
        _ value: Value, for entry: ServiceEntry<Value>, key: ServiceKey,
        scope: String
    ) throws(ScopeError) {
        let address = ObjectIdentifier(entry)
        try withUnsafeMutablePointerToHeader { header throws(ScopeError) in
            let lock = Self.lockWord(header)
            _asm_word_lock(lock)
            defer { _asm_word_unlock(lock) }
            if header.pointee.ended { throw ScopeError(code: .scopeEnded, key: key, scope: scope) }
            if find(address, bit: entry.filterBit, header) != nil {
                throw ScopeError(code: .alreadyProvided, key: key, scope: scope)
            }
            header.pointee.filter |= UInt64(entry.filterBit)
            _ = append(header) { _ScopeSlot(entryAddress: address, entry: entry, instance: _ScopeInstance(value)) }
        }
    }

    /// What the thread that ended a scope takes with it: the slot count, the head of the disposal chain and the
    /// overflow slots, moved out of the header. From then on it reads the inline slots without the lock (no other
    /// thread touches a slot of an ended scope) and never the header (woken waiters still change it, under the
    /// lock).
    struct Ended {
        let count: Int
        let lastOwned: Int
        var overflow: [_ScopeSlot]
    }

    /// Marks the scope ended and takes its slots over; nil when it already was. Every other operation checks the
    /// mark first, under the lock.
    func markEnded() -> Ended? {
        var woken = false
        defer { if woken { _ScopeWaits.wakeAll() } }
        return locked { header in
            let ended = Self.takeOver(header)
            if ended != nil { woken = Self.advanceIfWaited(header) }
            return ended
        }
    }

    /// ``markEnded()`` once the lock is held (or, in `deinit`, when no other thread can reach the storage).
    private static func takeOver(_ header: UnsafeMutablePointer<_ScopeHeader>) -> Ended? {
        guard !header.pointee.ended else { return nil }
        header.pointee.ended = true
        let generation = generationWord(header)
        _asm_store_release_u32(generation, _asm_load_acquire_u32(generation) | endedBit)
        let ended = Ended(
            count: header.pointee.count, lastOwned: header.pointee.lastOwned,
            overflow: header.pointee.overflow)
        header.pointee.count = 0  // the slots are the ending thread's now: `releaseAll` deinitializes them
        header.pointee.overflow = []
        header.pointee.lastOwned = -1
        return ended
    }

    /// Slot `index` of an ended scope (its ending thread only).
    @inline(__always)
    private func endedSlot<R>(_ index: Int, _ ended: inout Ended, _ body: (inout _ScopeSlot) -> R) -> R {
        if index < Self.inlineCapacity { return withUnsafeMutablePointerToElements { body(&$0[index]) } }
        return Self.overflowSlot(index, &ended, body)
    }

    /// Slot `index` (past the inline ones) of an ended scope. Out of line: inlined, the optimiser hoists making the
    /// overflow array unique out of the disposal loop, a copy of the empty array on every end.
    @inline(never)
    private static func overflowSlot<R>(_ index: Int, _ ended: inout Ended, _ body: (inout _ScopeSlot) -> R) -> R {
        body(&ended.overflow[index - inlineCapacity])
    }

    /// Disposes the owned instances, newest first; returns how many, and the failures.
    func disposeOwnedSynchronously(
        _ ended: inout Ended, label: String? = nil,
        observers: [any ContainerObserver] = []
    )
        -> (disposed: Int, failures: [DisposalError.Failure])
    {
        var failures: [DisposalError.Failure] = []
        var disposed = 0
        var index = ended.lastOwned
        while index >= 0 {
            // Disposed where it lies: copying the instance and its disposer out costs more than the call.
            let (error, previous): ((any Error)?, Int) = endedSlot(index, &ended) { slot in
                do {
                    try slot.instance.disposeSynchronously(with: slot.disposer!)
                    return (nil, slot.previousOwned)
                } catch {
                    return (error, slot.previousOwned)
                }
            }
            disposed += 1
            if let error {
                failures.append(failure(at: index, &ended, error, label, observers))
            } else if !observers.isEmpty {
                notifyDisposed(index, &ended, label, observers)
            }
            index = previous
        }
        return (disposed, failures)
    }

    /// Disposes the owned instances, newest first, awaiting asynchronous disposals.
    func disposeOwned(_ ended: inout Ended, label: String?, observers: [any ContainerObserver]) async
        -> (disposed: Int, failures: [DisposalError.Failure])
    {
        var failures: [DisposalError.Failure] = []
        var disposed = 0
        var index = ended.lastOwned
        while index >= 0 {
            let (disposer, instance, previous) = endedSlot(index, &ended) {
                ($0.disposer!, $0.instance.any!, $0.previousOwned)
            }
            disposed += 1
            let handed = _UncheckedSendable(instance)  // this scope's, disposed by its ending caller only
            do {
                try await disposer.dispose(handed.value)
                if !observers.isEmpty { notifyDisposed(index, &ended, label, observers) }
            } catch {
                failures.append(failure(at: index, &ended, error, label, observers))
            }
            index = previous
        }
        return (disposed, failures)
    }

    /// `scope "request"` for a scope's label; `a scope` for a scope that was dropped (built only when an observer
    /// or a failure needs it).
    static func ownerDescription(label: String?) -> String { label.map { "scope \"\($0)\"" } ?? "a scope" }

    private func notifyDisposed(
        _ index: Int, _ ended: inout Ended, _ label: String?,
        _ observers: [any ContainerObserver]
    ) {
        let key = endedSlot(index, &ended) { $0.key }
        let owner = Self.ownerDescription(label: label)
        for observer in observers { observer.instanceDisposed(key, owner: owner) }
    }

    private func failure(
        at index: Int, _ ended: inout Ended, _ error: any Error, _ label: String?,
        _ observers: [any ContainerObserver]
    ) -> DisposalError.Failure {
        let owner = Self.ownerDescription(label: label)
        let key = endedSlot(index, &ended) { $0.key }
        let failure = DisposalError.Failure(
            key: key, underlying: error,
            requiresAsyncDisposal: error is _RequiresAsyncDisposal)
        for observer in observers { observer.disposalFailed(failure, owner: owner) }
        return failure
    }

    /// Releases every instance, newest first (after the disposals), deinitializing the slots ``markEnded()`` handed
    /// over.
    func releaseAll(_ ended: inout Ended) {
        while !ended.overflow.isEmpty { ended.overflow.removeLast() }
        let inline = min(ended.count, Self.inlineCapacity)
        withUnsafeMutablePointerToElements { slots in
            // Released inline, not through the witness.
            for index in (0..<inline).reversed() { _ = (slots + index).move() }
        }
    }
}

/// Where threads sleep while another thread makes a scoped instance they asked for: one mutex and condition for
/// every scope (waits are rare and short), each sleeper watching its own scope's generation word.
///
/// No wake-up is lost: a sleeper reads the generation under the scope's lock before releasing it, and checks it
/// again under ``lock`` before each sleep; a waker changes it under the scope's lock, then broadcasts under
/// ``lock``.
enum _ScopeWaits {
    private static let lock = _Lock()
    private static let condition = _Condition()

    /// Sleeps until the word at `generation` is no longer `seen`.
    static func sleep(until generation: UnsafeMutableRawPointer, differsFrom seen: UInt32) {
        lock.withLock {
            while _asm_load_acquire_u32(generation) == seen { lock.wait(on: condition) }
        }
    }

    /// Wakes every sleeper (each checks its own scope's generation and sleeps again if it has not changed).
    static func wakeAll() { lock.withLock { condition.broadcast() } }
}

/// Reported when a scope was dropped without being ended.
struct _NeverEnded: Error, CustomStringConvertible {
    var description: String {
        "the scope was dropped without being ended; its synchronously disposable instances were disposed then. "
            + "Use withScope, or call end()"
    }
}

/// Writes `text` to standard error (the default destination of unhandled disposal failures).
func _writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
