// What a container holds, apart from the container: `_Registry`, which a scope's view shares with the container
// the scope was made from.

/// A container's registrations and everything registered with them: the table readers probe, the fallbacks, the
/// registration records, the behaviors and the instances the container owns, with the lock and the atomic words
/// that guard them.
///
/// A ``Container`` holds one; a scope's view holds its container's, so that a lookup through a scope is the
/// container's own lookup, and a registration made through a scope is made in its container.
@usableFromInline
final class _Registry: @unchecked Sendable {
    // @unchecked Sendable: `words` are atomics that follow a publication protocol; every other mutable property
    // is guarded by `writer`. Behaviors are not Sendable; they are called on the registering thread.

    /// 0: the current `_RegistrationTable` (unretained; ``table`` owns it).
    /// 1: the current `_Fallbacks` (unretained; ``fallbackList`` owns it), or nil.
    /// 2: non-nil once an observer was added (see `Container.observers`).
    /// 3: the container's `_ShutdownMark` (retained) once it was shut down, else nil (see `Container.isShutDown`).
    /// 4: non-nil when the inlined lookup must leave this registry's containers to the out-of-line one (see
    ///    `Container.usesSlowLookup`).
    /// 5: the `_Recorder` (retained) of a validation sandbox's container, else nil (see `Container.recorder`).
    /// 6: ``writer``, a word lock.
    /// 7: the `_EntryOwner` (retained) that registrations made here hold, made with the first one (see
    ///    `Container.entryOwner`), else nil.
    @usableFromInline let words: _AtomicWords
    /// Guards every mutable property below.
    let writer: _WordLock
    /// The table readers load now. A table it replaces (outgrown, or emptied by `removeAll`) is retired to
    /// the reclaimer, which frees it once no read section can be using it.
    var table: _RegistrationTable
    /// The fallback list readers load now (replaced whole, and the old one retired, when one is added).
    var fallbackList: _Fallbacks?
    /// What the registry knows about its registrations besides the table: their count, what replaced what, its
    /// decorators and collection contributions (see ``_RegistrationRecords``).
    var records = _RegistrationRecords()
    /// Behaviors, observers, the Swinject debug hook and the state higher layers keep here (see
    /// ``_ContainerHooks``).
    var hooks = _ContainerHooks()
    /// `hooks.behaviors`, copied whenever a behavior is added: registering reads it with one plain load, where
    /// reading it through ``hooks`` (which callers change in place) takes a run-time exclusivity check.
    var behaviors: [any Behavior] = []
    /// The number of the last registration made here (see ``_RegistrationRecords``); kept out of ``records`` for
    /// the same reason.
    var lastOrder: UInt32 = 0
    /// The instances the container made that are disposed when it shuts down, in creation order (made on first
    /// use, see `Container.disposals`).
    var disposalList: _DisposalList?
    /// Once the container is shut down: the empty table readers load from then on (word 0), so that every
    /// resolve misses the inlined probe and the out-of-line lookup refuses it; ``table`` stays the writers'.
    var closedTable: _RegistrationTable?

    /// Publishes `table` to readers, unless the container is shut down (call under the writer lock).
    func publish(_ table: _RegistrationTable) {
        guard closedTable == nil else { return }
        words.storeUnowned(0, table)
    }

    /// A registry told about registrations by `behaviors`; `checkingObservers` false when the caller knows that
    /// none of them is a ``ContainerObserver`` (a module's scope and its exporter), which skips the type test.
    init(behaviors: [any Behavior], checkingObservers: Bool = true) {
        _ = _EntryLayout.isChecked  // before any entry is registered here (see `_EntryLayout`)
        let words = _AtomicWords(count: 8)
        self.words = words
        writer = _WordLock(in: words, at: 6)
        let table = _RegistrationTable(capacity: _RegistrationTable.initialCapacity)
        self.table = table
        words.storeUnowned(0, table)
        if hooks.add(contentsOf: behaviors, checkingObservers: checkingObservers) { markObserved() }
        self.behaviors = hooks.behaviors
    }

    deinit {
        words.exchangeRetained(_shutdownWord, nil)
        words.exchangeRetained(_recorderWord, nil)
        words.exchangeRetained(_entryOwnerWord, nil)
        words.deallocate()
    }

    /// Says, once and for good, that an observer was added (read without the lock by `Container.observers`).
    func markObserved() { words.setFlag(_observedWord) }

    /// Whether an observer was ever added.
    var isObserved: Bool { words.isSet(_observedWord) }
}

/// What a registration holds to reach the container that owns it: the container, weakly (a registration can outlive
/// its container). One per registry, made with its first registration (a scope's view shares its container's), so
/// that registering makes no weak reference of its own: each entry retains the token instead.
final class _EntryOwner: Sendable {
    /// The container, while it exists.
    weak let container: Container?

    init(_ container: Container) { self.container = container }
}

/// The index, among a registry's atomic words, of the one that says it has observers (non-nil).
let _observedWord = 2
/// The index, among a registry's atomic words, of the container's shutdown mark (non-nil once shut down).
@usableFromInline let _shutdownWord = 3
/// The index, among a registry's atomic words, of the slow-lookup flag.
@usableFromInline let _slowLookupWord = 4
/// The index, among a registry's atomic words, of a validation sandbox's recorder.
let _recorderWord = 5
/// The index, among a registry's atomic words, of the registrations' `_EntryOwner`.
let _entryOwnerWord = 7

extension Container {
    /// The token registrations made here hold to reach the registry's owner (see ``_EntryOwner``), made on first
    /// use: a container that never registers anything forms no weak reference to itself.
    final var entryOwner: _EntryOwner {
        words.object(_entryOwnerWord, as: _EntryOwner.self) ?? makeEntryOwner()
    }

    /// Makes the registry's ``entryOwner`` unless another thread just did.
    @inline(never)
    private func makeEntryOwner() -> _EntryOwner {
        writer.withLock {
            if let made = words.object(_entryOwnerWord, as: _EntryOwner.self) { return made }
            let owner = _EntryOwner(registryOwner)
            words.exchangeRetained(_entryOwnerWord, owner)
            return owner
        }
    }

    /// The container whose registry this is: this one, or for a scope's view, the container the scope was made
    /// from (outwards, for scopes of scopes), or the module's container a request scope's view resolves in.
    /// Registrations made through a scope belong to it.
    final var registryOwner: Container {
        var owner = self
        while let storage = owner.scopeStorage {
            // Every scope's view is a Scope; a module's view names its container, any other shares its parent's.
            if let module = (owner as! Scope).moduleView { return module }
            owner = storage.parent
        }
        return owner
    }

    /// The resolver that makes shared instances (`.container`, `.singleton`, `.weak`, multiton, custom scopes)
    /// asked for through this container: the container a scope was made from, never the scope, so that nothing a
    /// shared instance keeps (a resolver, `Provider`, `Lazy`) reaches a scope's instances; any other container
    /// itself (a child resolving its parent's registration makes the instance with its own resolver, as in Swinject
    /// and Resolver, so that an overlay's registrations apply).
    @usableFromInline
    final var _sharedResolver: Container { scopeStorage == nil ? self : registryOwner }
}

// The registry's members, as the container's: the code that registers, looks up and resets reads them here.
extension Container {
    /// The registry's lock.
    final var writer: _WordLock { registry.writer }
    /// The registry's table (under the writer lock).
    final var table: _RegistrationTable {
        get { registry.table }
        set { registry.table = newValue }
    }
    /// The registry's fallback list (under the writer lock).
    final var fallbackList: _Fallbacks? {
        get { registry.fallbackList }
        set { registry.fallbackList = newValue }
    }
    /// The registry's records (under the writer lock); changed in place.
    final var records: _RegistrationRecords {
        get { registry.records }
        _modify { yield &registry.records }
    }
    /// The registry's hooks (under the writer lock); changed in place.
    final var hooks: _ContainerHooks {
        get { registry.hooks }
        _modify { yield &registry.hooks }
    }
    /// The registry's owned instances (under the writer lock).
    final var disposalList: _DisposalList? {
        get { registry.disposalList }
        set { registry.disposalList = newValue }
    }
}
