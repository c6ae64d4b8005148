/// Storage that immutable lists share: elements are only ever appended, never changed or removed, so a list
/// that covers the first `count` elements reads them with no lock while a longer list is being made.
///
/// Writers (serialised by the lock of whoever owns the list) initialise the element at `used` and then
/// publish the longer list with a release store; a reader that acquired a list reads only below its count.
final class _AppendOnlyStorage<Element>: ManagedBuffer<_AppendOnlyStorageHeader, Element> {
    // Not Sendable itself (`ManagedBuffer` is not): the lists that share it are `@unchecked Sendable`, because
    // elements below any published count are immutable, and `used` and the slots above it are touched only by
    // writers, under their owner's lock. The elements follow the header in the object's own allocation (one
    // allocation a storage, not two). The header is reached through its pointer, not `header`, whose accesses the
    // runtime checks for exclusivity one by one.

    /// Storage for at least `capacity` elements, none initialised.
    static func make(capacity: Int) -> _AppendOnlyStorage<Element> {
        let buffer = create(minimumCapacity: capacity) { _ in _AppendOnlyStorageHeader(slots: capacity) }
        return buffer as! _AppendOnlyStorage<Element>  // `create` makes an instance of the class it is called on
    }

    /// How many elements fit (as asked for: the allocation may hold more).
    var slots: Int { withUnsafeMutablePointerToHeader { $0.pointee.slots } }

    /// How many slots are initialised (writers only).
    var used: Int {
        get { withUnsafeMutablePointerToHeader { $0.pointee.used } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.used = newValue } }
    }

    /// The first element's address (valid while this storage lives).
    @inline(__always)
    var base: UnsafeMutablePointer<Element> { withUnsafeMutablePointerToElements { $0 } }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.used) }
    }
}

/// What an ``_AppendOnlyStorage`` keeps before its elements.
struct _AppendOnlyStorageHeader {
    /// How many elements fit.
    let slots: Int
    /// How many slots are initialised.
    var used = 0
}

/// An immutable list that shares append-only storage with the lists made from it by appending.
///
/// Appending to the newest list writes one slot of the shared storage (doubling it when full), so building a
/// list of n elements one by one costs O(n) in all, and each published version costs O(1) more memory, where
/// copying the whole list each time costs O(n²) in time and, while old versions live, in memory.
struct _AppendOnlyList<Element>: @unchecked Sendable {
    // @unchecked Sendable: its storage's elements below `count` are immutable (see `_AppendOnlyStorage`).
    private let storage: _AppendOnlyStorage<Element>?
    /// The number of elements in this list.
    let count: Int

    /// An empty list.
    init() {
        storage = nil
        count = 0
    }

    private init(storage: _AppendOnlyStorage<Element>, count: Int) {
        self.storage = storage
        self.count = count
    }

    /// This list with `element` after its last (writers only, under their owner's lock).
    func appending(_ element: Element) -> _AppendOnlyList {
        if let storage, storage.used == count, count < storage.slots {
            (storage.base + count).initialize(to: element)
            storage.used = count + 1
            return _AppendOnlyList(storage: storage, count: count + 1)
        }
        let larger = _AppendOnlyStorage<Element>.make(capacity: Swift.max(4, count * 2))
        if let storage { larger.base.initialize(from: storage.base, count: count) }
        (larger.base + count).initialize(to: element)
        larger.used = count + 1
        return _AppendOnlyList(storage: larger, count: count + 1)
    }

    /// This list with `elements` after its last.
    func appending<S: Sequence<Element>>(contentsOf elements: S) -> _AppendOnlyList {
        var list = self
        for element in elements { list = list.appending(element) }
        return list
    }

    /// The element at `index` (below ``count``).
    @inline(__always)
    subscript(index: Int) -> Element {
        storage!.base[index]  // an index below `count` implies storage
    }

    /// The elements, as an array.
    var array: [Element] { (0..<count).map { self[$0] } }
}
