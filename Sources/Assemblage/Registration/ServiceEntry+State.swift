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
@usableFromInline
enum _EntryWord: Int, CaseIterable {
    /// The scope, an `ObjectScope`.
    case scope
    /// The shared instance of a `.container` or `.singleton` registration, an `_InstanceBox<Service>`.
    case sharedInstance
    /// The `initCompleted` steps, a `_Completions<Service>`.
    case completions
    /// The factory converted to a pack box, made on demand when a fixed-arity factory is resolved through the
    /// variadic path.
    case packBox
    /// The `onDispose` closures, a `_Disposer<Service>`.
    case disposer
    /// Set (to `_ScopedValueMarker.shared`) on the registration `registerScopedValue` makes.
    case scopedValueMarker
    /// The `_DisposalCache` of the last type made.
    case disposalCache
}

extension _AtomicWords {
    @inlinable @inline(__always)
    func loadAcquire(_ word: _EntryWord) -> UnsafeMutableRawPointer? { loadAcquire(word.rawValue) }

    @inlinable @inline(__always)
    func storeRelease(_ word: _EntryWord, _ value: UnsafeMutableRawPointer?) { storeRelease(word.rawValue, value) }

    @inlinable @inline(__always)
    func exchange(_ word: _EntryWord, _ value: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        exchange(word.rawValue, value)
    }

    /// The address of `word`, for the C shim's sequentially consistent load.
    @inlinable @inline(__always)
    func address(of word: _EntryWord) -> UnsafeMutableRawPointer {
        base + word.rawValue &* MemoryLayout<UnsafeRawPointer>.stride
    }
}
