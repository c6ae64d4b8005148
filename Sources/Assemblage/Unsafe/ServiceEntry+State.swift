public import _AssemblageShims

// What a registration keeps besides its factory: its instances, its factory kind and its atomic words.

/// The instances a weak, custom or multiton registration keeps (guarded by the coordinator's lock).
final class _StoredInstances<Service> {
    var storage: (any InstanceStorage)?
    weak var weakInstance: AnyObject?
    var multiton: [[AnyHashable]: Service] = [:]
}

/// Holds a shared (`.container`/`.singleton`) instance; immutable once published.
@usableFromInline
final class _InstanceBox<T>: @unchecked Sendable {  // @unchecked: immutable after publication.
    @usableFromInline let value: T
    @usableFromInline init(_ value: T) { self.value = value }
}

/// The `initCompleted` steps of one registration; immutable, replaced when a step is added. Versions share
/// append-only storage, so adding n steps costs O(n) in all, and the version a step replaces is retired.
@usableFromInline
final class _Completions<Service>: Sendable {  // immutable: a list of @Sendable steps
    typealias Step = @Sendable (any Resolver, Service) throws -> Void
    let steps: _AppendOnlyList<Step>
    init(_ steps: _AppendOnlyList<Step>) { self.steps = steps }
}

/// Which box a registration's ``ServiceEntry/factory`` is, and so which resolve path it takes. A byte: the hot
/// path's test (`factoryKind == .arity0`) is one comparison.
@usableFromInline
enum _FactoryKind: Int8, Sendable {
    /// `_Factory0<Service>` … `_Factory3<Service, A, B, C>`: the fixed-arity boxes, with pack-free paths.
    case arity0 = 0
    case arity1 = 1
    case arity2 = 2
    case arity3 = 3
    /// `_FactoryBox<Service, repeat each Arg>`: four or more arguments.
    case pack = -1
    /// No box: the entry forwards to another registration (``ServiceEntry/implements(_:name:)``).
    case forwarding = -2
    /// `_AsyncFactoryBox<Service, repeat each Arg>`: an `async` factory.
    case async = -3
    /// `_MainActorFactoryBox<Service, repeat each Arg>`: a `@MainActor` factory.
    case mainActor = -4
    /// A forwarder into a module's scope whose target has this entry's service type (``ServiceEntry/factoryAddress``
    /// is the ``_ModuleExportEntry``); ``ServiceEntry/forwarded`` is set too, so every type-erased path treats it as a
    /// forwarder.
    case scopedForwarding = -5

    /// An `async` or `@MainActor` factory: resolved through ``ServiceEntry/_resolveIsolated(_:_:)``.
    @inlinable var isIsolated: Bool { self == .async || self == .mainActor }
}

/// The atomic words of a ``ServiceEntry``: what it publishes to readers that take no lock. Each holds a retained
/// object, or nil.
///
/// Two words every registration uses sit in the entry's own block of three; the others, which most registrations
/// never set, sit in a second block of seven that the third word points to, made the first time one of them is set
/// (a registration's words cost 24 bytes, not 56). Reading a word of the second block when there is none is one
/// load, as reading an empty word of the first is.
@usableFromInline
enum _EntryWord: Int, CaseIterable {
    /// The scope, an `ObjectScope`, or nil for ``ObjectScope/graph``: the default scope of most registrations,
    /// which then cost no reference to it (see ``_AtomicWords/exchangeScope(_:)``).
    case scope = 0
    /// The shared instance of a `.container` or `.singleton` registration: the instance itself when `Service` is
    /// a class, else an `_InstanceBox<Service>`.
    case sharedInstance = 1
    // Word 2 of the first block points to the second block (see `_AtomicWords.extras`).
    /// The `initCompleted` steps, a `_Completions<Service>`.
    case completions = 3
    /// The factory converted to a pack box, made on demand when a fixed-arity factory is resolved through the
    /// variadic path.
    case packBox = 4
    /// The `onDispose` closures, a `_Disposer<Service>`.
    case disposer = 5
    /// Set (to `_ScopedValueMarker.shared`) on the registration `registerScopedValue` makes.
    case scopedValueMarker = 6
    /// The `_DisposalCache` of the last type made.
    case disposalCache = 7
    /// The instances of a weak, custom or multiton registration, a `_StoredInstances<Service>`.
    case storedInstances = 8
    /// The forwarder a lookup from another container finds instead of a module's registration (see
    /// ``ServiceEntry/_exportForwarder(in:)``), made the first time one does.
    case exportForwarder = 9

    /// The words of an entry's own block: the two above and the second block's address.
    static var blockCount: Int { 3 }
    /// Where an entry's own block lies in its stored properties: right after its key (``ServiceEntry/_wordStorage``).
    /// (A stored property follows the previous one's size, rounded up to its own alignment: the key's size, not its
    /// stride. `_EntryLayout` checks it once per process, in release builds too.)
    @inlinable static var ownBlockOffset: Int {
        (MemoryLayout<ServiceKey>.size + MemoryLayout<UInt>.alignment - 1) & ~(MemoryLayout<UInt>.alignment - 1)
    }
    /// Where the first block keeps the second block's address.
    @inlinable static var extrasIndex: Int { 2 }
    /// The words of the second block.
    static var extrasCount: Int { 7 }

    /// Whether the word is in the entry's own block (else it is in the second).
    @inlinable var isInline: Bool { rawValue < Self.extrasIndex }
    /// The word's index in its block.
    @inlinable var index: Int { isInline ? rawValue : rawValue &- (Self.extrasIndex &+ 1) }
}

extension ServiceEntry {
    /// What the registration publishes to lock-free readers, one atomic word each (see ``_EntryWord``): the block
    /// in ``_wordStorage``, the entry's second stored property, right after its key (a class lays out its stored
    /// properties in declaration order, and these two have the same layout whatever `Service` is).
    @inlinable @inline(__always)
    var words: _AtomicWords {
        _AtomicWords(borrowing: _getUnsafePointerToStoredProperties(self) + _EntryWord.ownBlockOffset)
    }

    /// Checks (in debug builds) that ``_wordStorage`` is where ``words`` addresses it.
    func checkWordStorage() { assert(wordStorageIsWhereWordsAre, "an entry's second stored property is not its words") }

    /// Whether ``_wordStorage`` is where ``words`` addresses it, and holds the own block's
    /// ``_EntryWord/blockCount`` words.
    var wordStorageIsWhereWordsAre: Bool {
        MemoryLayout.size(ofValue: _wordStorage) == _EntryWord.blockCount * MemoryLayout<UnsafeRawPointer>.stride
            && withUnsafeMutablePointer(to: &_wordStorage) { UnsafeMutableRawPointer($0) } == words.base
    }
}

/// The one-time check, in every build, that a `ServiceEntry` keeps its words where ``_EntryWord/ownBlockOffset``
/// says: every registry checks it as it is made (a `swift_once` test after the first), so that a layout the
/// offset does not match stops the program at its first container, before any word is used.
enum _EntryLayout {
    static let isChecked: Bool = {
        let probe = ServiceEntry<Int>(
            key: ServiceKey(serviceType: Int.self, argumentsType: Void.self, name: nil, argumentCount: 0),
            scope: .graph, site: RegistrationSite(file: #fileID, line: #line), factory0: { _ in 0 })
        precondition(probe.wordStorageIsWhereWordsAre, "a ServiceEntry's words are not where the library reads them")
        return true
    }()
}

extension _AtomicWords {
    // The raw words, for this folder; the typed accessors below are the rest of the library's.

    /// The block holding `word`, or nil when it is in the second block and there is none yet.
    @inlinable @inline(__always)
    func block(of word: _EntryWord) -> _AtomicWords? {
        if word.isInline { return self }
        return loadAcquire(_EntryWord.extrasIndex).map(_AtomicWords.init(borrowing:))
    }

    /// The block holding `word`, the second one made (and published) if there is none yet.
    func blockMade(for word: _EntryWord) -> _AtomicWords {
        if let block = block(of: word) { return block }
        let made = _AtomicWords(count: _EntryWord.extrasCount)
        if compareExchange(_EntryWord.extrasIndex, expected: nil, desired: made.base) { return made }
        made.deallocate()  // another thread published one first
        return block(of: word)!
    }

    @inlinable @inline(__always)
    func exchange(_ word: _EntryWord, _ value: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        word.isInline ? exchange(word.rawValue, value) : exchangeInSecondBlock(word, value)
    }

    /// ``exchange(_:_:)`` of a word of the second block (made when `value` is not nil and there is none).
    @usableFromInline
    func exchangeInSecondBlock(_ word: _EntryWord, _ value: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard value != nil || isSet(_EntryWord.extrasIndex) else { return nil }
        return blockMade(for: word).exchange(word.index, value)
    }

    /// The address of `word`, one of the entry's own block, for the C shim's sequentially consistent load.
    @inlinable @inline(__always)
    func address(of word: _EntryWord) -> UnsafeMutableRawPointer {
        base + word.index &* MemoryLayout<UnsafeRawPointer>.stride
    }

    /// Publishes `object` in the entry word (which then keeps it) unless the word holds an object already; returns
    /// the object the word holds afterwards. Two threads publishing at once both get the first one published.
    func publishOnce(_ word: _EntryWord, _ object: AnyObject) -> AnyObject {
        let block = blockMade(for: word)
        let opaque = Unmanaged.passRetained(object).toOpaque()
        if block.compareExchange(word.index, expected: nil, desired: opaque) { return object }
        Unmanaged<AnyObject>.fromOpaque(opaque).release()
        return block.object(word.index, as: AnyObject.self) ?? object
    }

    /// The entry word of the registration at `entry` (a `ServiceEntry` of any service type, whose words sit at the
    /// same offset whatever the type, see `_EntryLayout`), read without a reference: for the fallback search, which
    /// has the entry's address only.
    @inline(__always)
    static func load(_ word: _EntryWord, ofEntryAt entry: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let words = _AtomicWords(
            borrowing: Unmanaged<AnyObject>.fromOpaque(entry)._withUnsafeGuaranteedRef {
                _getUnsafePointerToStoredProperties($0)
            } + _EntryWord.ownBlockOffset)
        return words.block(of: word)?.loadAcquire(word.index)
    }

    /// Releases and clears every entry word, and frees the second block.
    func releaseEntryWords() {
        releaseObjects(count: _EntryWord.extrasIndex)
        if let extras = exchange(_EntryWord.extrasIndex, nil).map(_AtomicWords.init(borrowing:)) {
            extras.releaseObjects(count: _EntryWord.extrasCount)
            extras.deallocate()
        }
    }

    // MARK: Typed accessors

    /// Whether the word holds anything.
    @inlinable @inline(__always)
    func isSet(_ index: Int) -> Bool { loadAcquire(index) != nil }

    /// Whether the entry word holds anything.
    @inlinable @inline(__always)
    func isSet(_ word: _EntryWord) -> Bool { block(of: word)?.isSet(word.index) ?? false }

    /// Sets the word to a mark that is no object, for good (a flag read without a lock).
    func setFlag(_ index: Int) { storeRelease(index, UnsafeMutableRawPointer(bitPattern: 1)) }

    /// The object the word holds, unowned: the caller knows it is a `T`, and keeps it alive while it uses it
    /// (the word's owner does, under a read section or a lock).
    @inlinable @inline(__always)
    func unowned<T: AnyObject>(_ index: Int, as _: T.Type) -> _Unowned<T>? {
        loadAcquire(index).map { _Unowned(reference: .fromOpaque($0)) }
    }

    /// ``unowned(_:as:)`` for an entry word.
    @inlinable @inline(__always)
    func unowned<T: AnyObject>(_ word: _EntryWord, as type: T.Type) -> _Unowned<T>? {
        block(of: word)?.unowned(word.index, as: type)
    }

    /// The object the word holds, as a strong reference (see ``unowned(_:as:)``).
    @inlinable @inline(__always)
    func object<T: AnyObject>(_ index: Int, as type: T.Type) -> T? { unowned(index, as: type)?.object }

    /// ``object(_:as:)`` for an entry word.
    @inlinable @inline(__always)
    func object<T: AnyObject>(_ word: _EntryWord, as type: T.Type) -> T? { unowned(word, as: type)?.object }

    /// Stores `object` in the word, which keeps it (retained), and gives back what the word held, whose
    /// reference passes to the caller.
    @discardableResult
    func exchangeRetained(_ index: Int, _ object: AnyObject?) -> AnyObject? {
        let old = exchange(index, object.map { Unmanaged.passRetained($0).toOpaque() })
        return old.map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
    }

    /// Stores `scope` in the scope word (nil for ``ObjectScope/graph``), and gives back what the word held.
    @discardableResult
    func exchangeScope(_ scope: ObjectScope) -> AnyObject? { exchangeRetained(.scope, Self.scopeWord(scope)) }

    /// Stores a new entry's scope (its words are empty, so nothing is exchanged): nothing for ``ObjectScope/graph``.
    @inline(__always)
    func storeFirstScope(_ scope: ObjectScope) {
        if let scope = Self.scopeWord(scope) {
            storeRelease(_EntryWord.scope.rawValue, Unmanaged.passRetained(scope).toOpaque())
        }
    }

    /// What the scope word holds for `scope`: nil for ``ObjectScope/graph``, the only scope of that kind.
    @inline(__always)
    static func scopeWord(_ scope: ObjectScope) -> ObjectScope? { scope.kind == .graph ? nil : scope }

    /// ``exchangeRetained(_:_:)`` for an entry word.
    @discardableResult
    func exchangeRetained(_ word: _EntryWord, _ object: AnyObject?) -> AnyObject? {
        let old = exchange(word, object.map { Unmanaged.passRetained($0).toOpaque() })
        return old.map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
    }

    /// Publishes `object` in the word without retaining it: its owner keeps it for as long as the word names it.
    func storeUnowned(_ index: Int, _ object: AnyObject?) {
        storeRelease(index, object.map { Unmanaged.passUnretained($0).toOpaque() })
    }

    /// Releases and clears the first `count` words, each of which holds a retained object or nothing.
    func releaseObjects(count: Int) {
        for index in 0..<count {
            if let pointer = exchange(index, nil) { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
    }

    /// The word read as a count.
    func loadCount(_ index: Int) -> Int { Int(bitPattern: loadAcquire(index)) }

    /// Stores a count in the word.
    func storeCount(_ index: Int, _ count: Int) { storeRelease(index, UnsafeMutableRawPointer(bitPattern: count)) }

    /// The shared instance in the entry word, read without a lock: the instance itself when `asObject` (`T` is a
    /// class, ``_ScopeInstance/holdsObjects(of:)``), else its `_InstanceBox<T>`. The caller is inside a read
    /// section, which keeps the entry alive; what the word holds is guarded by this thread's hazard word, so that
    /// a reset can release the instance at once (its `deinit` runs before `resetObjectScope` returns) unless a
    /// thread is copying it out at that moment.
    ///
    /// Publish the object in the hazard word, check that the slot still holds it, copy the instance out, clear
    /// the word with an opaque call (the copy is retained before it).
    @inlinable @inline(__always)
    func sharedInstance<T>(_ word: _EntryWord, as _: T.Type, asObject: Bool) -> T? {
        guard let box = loadAcquire(word.index) else { return nil }  // one of the entry's own block
        let hazard = _asm_thread_hazard()
        _asm_publish_hazard(hazard, box)
        guard _asm_load_seqcst(address(of: word)) == box else {
            _asm_clear_hazard(hazard)
            return nil
        }
        // A class instance needs no box (nor the box type's metadata, a runtime lookup per service type).
        let instance =
            asObject
            ? Unmanaged<AnyObject>.fromOpaque(box)._withUnsafeGuaranteedRef { _assumeClass($0, is: T.self) }
            : Unmanaged<_InstanceBox<T>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
        _asm_clear_hazard(hazard)
        return instance
    }

    /// What the shared-instance word holds — the instance itself, or its `_InstanceBox` (see
    /// ``sharedInstance(_:as:asObject:)``) — as a strong reference, or nil: read under the same hazard protocol, for
    /// a caller that is not specialised for the service type, where a `T?` would make the runtime look up
    /// `Optional<T>`'s metadata (a search of a cache holding every optional type the program uses).
    ///
    /// The same steps as ``sharedInstance(_:as:asObject:)``, written out again: a generic helper holding them both
    /// changed what the optimiser inlines into the out-of-line lookup, which then cost the graph resolve workloads
    /// more instructions (see `duplicates`: kept on purpose).
    func sharedObject(_ word: _EntryWord) -> AnyObject? {
        assert(word.isInline, "a shared instance is kept in one of the entry's own words")
        guard let box = loadAcquire(word.index) else { return nil }  // one of the entry's own block
        let hazard = _asm_thread_hazard()
        _asm_publish_hazard(hazard, box)
        guard _asm_load_seqcst(address(of: word)) == box else {
            _asm_clear_hazard(hazard)
            return nil
        }
        let object = Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()  // retained: the hazard guards it
        _asm_clear_hazard(hazard)
        return object
    }

    /// The instance in `object`, which ``sharedObject(_:)`` returned for a word published with `asObject`.
    func sharedInstance<T>(in object: AnyObject, as _: T.Type, asObject: Bool) -> T {
        asObject ? _assumeClass(object, is: T.self) : _assumeClass(object, is: _InstanceBox<T>.self).value
    }

    /// Publishes `instance` in the entry word: itself, retained, when `asObject` (see
    /// ``sharedInstance(_:as:asObject:)``), else in a new `_InstanceBox`. What it replaces is retired (released
    /// once no thread can be copying out of it).
    func publishShared<T>(_ word: _EntryWord, _ instance: T, asObject: Bool) {
        let object: AnyObject = asObject ? _assumeObject(instance) : _InstanceBox(instance)
        if let previous = exchange(word, Unmanaged.passRetained(object).toOpaque()) { _Reclaimer.retireBox(previous) }
    }

    /// Takes the shared instance out of the entry word; it (or its box) is retired.
    func withdrawShared(_ word: _EntryWord) {
        if let previous = exchange(word, nil) { _Reclaimer.retireBox(previous) }
    }
}
