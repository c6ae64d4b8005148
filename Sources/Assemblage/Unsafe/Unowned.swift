// The references the resolve path holds without a reference count, and the one way to read them.

/// A reference to an object that does not keep it alive, and that is read without touching its reference count.
///
/// The resolve path reaches registrations, factories, tables and containers through these: a retain and a
/// release on each would be shared-counter traffic on every nested resolve, on every thread (see
/// `Contributing/UnsafeCodeLedger.md`). Whoever makes one promises that something else keeps the object alive for
/// as long as it is used: the owner that holds it strongly (an entry holds its factory, a module's forwarder its
/// target), a read section (registrations and tables are retired, never freed while a reader may hold them), or
/// the caller (a resolver is alive while one of its methods runs). Every such promise is made in this folder or
/// beside the value that makes it.
@frozen @usableFromInline
struct _Unowned<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    /// An unowned reference to `object`.
    @inlinable @inline(__always)
    init(_ object: Object) { reference = .passUnretained(object) }

    @inlinable @inline(__always)
    init(reference: Unmanaged<Object>) { self.reference = reference }

    /// A reference to `object` that keeps it, +1, until ``release()``: for a holder that reads it without
    /// reference-count traffic (an entry's factory box).
    init(retaining object: Object) { reference = .passRetained(object) }

    /// Gives up the reference ``init(retaining:)`` took.
    func release() { reference.release() }

    /// The object whose identity `identifier` is. The caller knows that it is an `Object` and that it is alive.
    @inlinable @inline(__always)
    init(assumingAlive identifier: ObjectIdentifier) {
        reference = unsafeBitCast(identifier, to: Unmanaged<Object>.self)  // both are one object address
    }

    /// Runs `body` with the object borrowed: no retain before it, no release after it.
    @inlinable @inline(__always)
    func with<R>(_ body: (Object) throws -> R) rethrows -> R { try reference._withUnsafeGuaranteedRef(body) }

    /// The object, as a strong reference (retained once it is stored).
    @inlinable @inline(__always)
    var object: Object { reference.takeUnretainedValue() }

    /// The object's identity.
    @inlinable @inline(__always)
    var identifier: ObjectIdentifier { unsafeBitCast(reference, to: ObjectIdentifier.self) }

    /// The same reference as a `T`, which the caller knows the object to be (an entry's key guarantees its
    /// factory's and its own generic types): no dynamic cast.
    @inlinable @inline(__always)
    func assuming<T: AnyObject>(_: T.Type) -> _Unowned<T> {
        _Unowned<T>(reference: .fromOpaque(reference.toOpaque()))
    }
}

/// The object whose identity `identifier` is, which the caller knows to be alive, as a strong reference.
///
/// For the tables that remember objects by identity (a thread's frames, the coordinator's creators, a recorder's
/// edges) and give the object back only while it is known to be alive: a frame's entry is alive while its
/// factory runs; a graph's entries are alive while the resolution that made the graph runs.
func _object(assumingAlive identifier: ObjectIdentifier) -> AnyObject {
    _Unowned<AnyObject>(assumingAlive: identifier).object
}

/// `object`, which the caller knows to be an instance of the class `T`, as a `T`, without a dynamic cast (a
/// disposer found for the instance's exact class; a runtime `as!` on a generic class is a type test every time).
@inlinable @inline(__always)
func _assumeClass<T>(_ object: AnyObject, is _: T.Type) -> T { unsafeBitCast(object, to: T.self) }

/// `value`, which the caller knows to be an instance of a class (``_ScopeInstance/holdsObjects(of:)``), as a
/// reference, without boxing it into `AnyObject` through a runtime conversion.
@inlinable @inline(__always)
func _assumeObject<Value>(_ value: Value) -> AnyObject { unsafeBitCast(value, to: AnyObject.self) }

/// `value` as `T`. When its dynamic type is exactly `T` (checked first: one comparison of type metadata), the
/// value is reinterpreted without the runtime's general cast from `Any`, which is far dearer than the
/// comparison; otherwise it is an ordinary `as!`.
@inlinable @inline(__always)
func _exactCast<T>(_ value: Any, to: T.Type) -> T {
    func open<U>(_ opened: U) -> T {
        if U.self == T.self { return unsafeBitCast(opened, to: T.self) }  // the same type: a no-op
        return opened as! T
    }
    return _openExistential(value, do: open)
}

extension Resolver {
    /// The container behind this resolver, unowned, or `nil` for a resolver of your own: the resolver keeps its
    /// container alive, and the resolve methods that read this run while their resolver is alive.
    @inlinable @inline(__always)
    var _fastContainer: _Unowned<Container>? { _containerIdentity.map { _Unowned(assumingAlive: $0) } }
}
