// Knit's `ServiceCollection` and `resolveCollection(_:)`: a collection resolved as one value, telling the elements
// a container contributed itself from the ones it sees through its parent. Another spelling of `resolveAll`.

/// The elements of a collection, resolved from a container: Knit's name for what
/// ``Resolver/resolveAll(_:)`` returns, with this container's own elements told apart.
///
/// ```swift
/// let app = Container()
/// app.registerIntoCollection(Animal.self) { _ in Cat() }
/// let screen = Container(parent: app)
/// screen.registerIntoCollection(Animal.self) { _ in Dog() }
///
/// let animals = screen.resolveCollection(Animal.self)
/// animals.entries      // [Dog]: the screen's own
/// animals.allEntries   // [Dog, Cat]: everything the screen sees, as resolveAll returns it
/// ```
public struct ServiceCollection<T> {
    /// The elements this container contributed itself, in collection order: for a container made with
    /// `Container(parent:)`, those not registered in the parent (or its ancestors); for a
    /// ``ModuleAssembler``'s resolver, those of the modules it assembled rather than reused from its parent.
    public let entries: [T]

    /// Every element this container sees — its own, then its parent's and every other fallback's — in
    /// collection order: ``Resolver/resolveAll(_:)``'s result.
    public let allEntries: [T]

    /// Why the collection could not be resolved, when it could not: then both lists are empty. An element's
    /// factory that throws, or a dependency it cannot find, fails the whole collection rather than leaving the
    /// element out; ``Resolver/resolveAll(_:)`` throws this error instead.
    public let error: ResolutionError?

    /// A collection of `entries` after its parent's elements (Knit's initializer).
    ///
    /// ```swift
    /// let collection = ServiceCollection(parent: ServiceCollection(parent: nil, entries: [cat]), entries: [dog])
    /// collection.allEntries   // [dog, cat]
    /// ```
    ///
    /// - Parameters:
    ///   - parent: The parent container's collection, whose ``allEntries`` follow `entries`.
    ///   - entries: This container's elements.
    public init(parent: ServiceCollection<T>?, entries: [T]) {
        self.init(entries: entries, allEntries: entries + (parent?.allEntries ?? []), error: nil)
    }

    init(entries: [T], allEntries: [T], error: ResolutionError?) {
        self.entries = entries
        self.allEntries = allEntries
        self.error = error
    }
}

extension ServiceCollection: Sendable where T: Sendable {}

extension Resolver {
    /// Resolves every element of `Service`'s collection as one ``ServiceCollection``: Knit's spelling of
    /// ``resolveAll(_:)``, which also tells this container's own elements (``ServiceCollection/entries``) from
    /// all it sees (``ServiceCollection/allEntries``).
    ///
    /// ```swift
    /// container.registerIntoCollection(Animal.self) { _ in Cat() }
    /// container.registerIntoCollection(Animal.self) { _ in Dog() }
    /// let animals = container.resolveCollection(Animal.self).entries   // [Cat, Dog]
    /// ```
    ///
    /// Each element is resolved once, in its own scope; an empty collection is a valid result. It does not
    /// throw, as in Knit: when an element cannot be made, the result is empty and its
    /// ``ServiceCollection/error`` says why (Knit stopped the program).
    ///
    /// - Parameter serviceType: The element type.
    /// - Returns: The collection.
    public func resolveCollection<Service>(_ serviceType: Service.Type) -> ServiceCollection<Service> {
        do {
            let container = try _requireContainer(for: "resolveCollection")
            let elements = try container.resolveSourcedCollection(Service.self)
            let inherited = container._collectionParent.map { Set($0.lookupChain().map(ObjectIdentifier.init)) } ?? []
            return ServiceCollection(
                entries: elements.filter { !inherited.contains($0.source) }.map(\.service),
                allEntries: elements.map(\.service), error: nil)
        } catch {
            return ServiceCollection(entries: [], allEntries: [], error: _asResolutionError(error))
        }
    }
}

extension Container {
    /// Where this container's own collection elements end: a module assembler's parent resolver (recorded by
    /// the assembler), or else the container given to `Container(parent:)`, which is its first fallback.
    fileprivate var _collectionParent: Container? {
        let recorded = _moduleExporter(creating: false)?.assemblerParent ?? .unrecorded
        if recorded.isRecorded { return recorded.root }
        return lookupChain().dropFirst().first
    }
}
