// The parts of a scope's storage: its header, its slots and what a slot holds (see ScopeStorage.swift).

/// What a scope's storage holds besides its slots.
@usableFromInline
struct _ScopeHeader {
    let parent: Container
    /// The scope's lock (``_asm_word_lock``), taken and released through its address only (see
    /// `_ScopeStorage.lockWord`). Not the first field: the thread sanitizer records a change of any header field
    /// through `pointee` at the header's first byte.
    var lock: UInt32 = 0
    /// Changed (atomically, under the lock) when a creation that threads wait for completes, is abandoned, or the
    /// scope ends: what a waiting thread sleeps on (see ``_ScopeWaits``). Its top bit (``endedBit``) is set, for
    /// good, when the scope ends, so that a resolve reads the end without the lock.
    @usableFromInline var generation: UInt32 = 0
    /// Slots in use (the first ``_ScopeStorage/inlineCapacity`` are inline, the rest in ``overflow``).
    var count = 0
    var overflow: [_ScopeSlot] = []
    /// The owned slot completed last: the head of the disposal chain (newest first).
    var lastOwned = -1
    var ended = false
    /// A 64-bit filter of the registrations that have a slot (one bit per entry, `ServiceEntry.filterBit`; never
    /// cleared): a registration whose bit is clear has none, and the scan is skipped.
    var filter: UInt64 = 0
    /// Threads waiting for a creation in another thread, and the slot each waits for (under the lock).
    var waits: [(waiter: ObjectIdentifier, slot: Int)] = []

    init(parent: Container) { self.parent = parent }

}

/// One registration's instance in a scope, or one instance the scope disposes.
@usableFromInline
struct _ScopeSlot {
    /// The registration (identity); nil for an instance held only to be disposed (a transient).
    var entryAddress: ObjectIdentifier?
    /// The registration, held so that its address is not reused while the slot exists (and for its key).
    var entry: AnyObject?
    /// The thread state making the instance; nil once it is ready.
    var creator: ObjectIdentifier?
    /// The instance, held as what it is: an object when the service type is a class (copied and disposed without
    /// the runtime's existential machinery), any other value boxed.
    var instance: _ScopeInstance = .none
    var disposer: (any _AnyDisposer)?
    /// The owned slot completed before this one (the disposal chain), or -1.
    var previousOwned = -1

    /// The registration's key, for errors.
    var key: ServiceKey {
        (entry as? any _AnyEntry)?.key
            ?? ServiceKey(serviceType: Any.self, argumentsType: Void.self, name: nil, argumentCount: 0)
    }
}

/// An instance a scope holds: an object when the service type is a class, any other value in a box.
///
/// Both cases are one reference, so a slot is copied and destroyed with retains and releases; an `Any` payload
/// made every slot copy go through the runtime's value witnesses, several times per instance.
@usableFromInline
enum _ScopeInstance {
    case none
    case object(AnyObject)
    case value(_ScopeValueBox)

    /// Whether instances of `T` are held as objects: `T` is a class (or `AnyObject`), one reference wide.
    static func holdsObjects<T>(of _: T.Type) -> Bool {
        T.self is AnyObject.Type && MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
    }

    /// `instance`, held as an object when `asObject` (``holdsObjects(of:)``, decided once per registration: the
    /// runtime's type test and `as AnyObject` are dear in the merged generic code the resolve path runs). The bit casts here and in ``get(as:)`` only move a reference between two static types
    /// of one class instance.
    @inlinable @inline(__always)
    init<T>(_ instance: T, asObject: Bool) {
        self = asObject ? .object(unsafeBitCast(instance, to: AnyObject.self)) : .value(_ScopeValue(instance))
    }

    /// `instance`, held as ``holdsObjects(of:)`` says (where the test's cost does not matter).
    init<T>(_ instance: T) { self.init(instance, asObject: Self.holdsObjects(of: T.self)) }

    /// The instance as `T`, the type it was stored as.
    @inlinable @inline(__always)
    func get<T>(as _: T.Type) -> T {
        switch self {
        case .object(let object): return unsafeBitCast(object, to: T.self)  // stored from a T (see init)
        case .value(let box): return (box as! _ScopeValue<T>).value  // an exact class match: one comparison
        case .none: preconditionFailure("a scope slot without an instance")
        }
    }

    /// The instance as `Any`, or nil.
    var any: Any? {
        switch self {
        case .object(let object): return object
        case .value(let box): return box.any
        case .none: return nil
        }
    }

    /// Disposes the instance synchronously.
    func disposeSynchronously(with disposer: any _AnyDisposer) throws {
        switch self {
        case .object(let object): try disposer.disposeSynchronously(object: object)
        case .value(let box): try disposer.disposeSynchronously(box.any)
        case .none: break
        }
    }
}

/// A value (not a class instance) a scope holds; ``_ScopeValue`` is the typed box.
@usableFromInline
class _ScopeValueBox {
    @usableFromInline init() {}
    /// The value, as `Any`.
    var any: Any { preconditionFailure("_ScopeValue overrides it") }
}

/// A value of type `T` that a scope holds.
@usableFromInline
final class _ScopeValue<T>: _ScopeValueBox {
    @usableFromInline let value: T
    @usableFromInline init(_ value: T) { self.value = value }
    override var any: Any { value }
}
