/// An identity (a type's metadata or an object's address) as a dictionary key, hashed cheaply.
///
/// `ObjectIdentifier` is hashed with SipHash. The library's own tables keyed by identity (planning a module graph,
/// which looks types up several times per module; the creation coordinator, which records every shared instance
/// being made; the disposal conformances by type; the decorated types) need no protection from chosen collisions:
/// no one outside the process chooses a metadata or object address. A multiplication spreads its bits instead (the
/// figures are in Benchmarks/Results.md, `assemble.moduleTree1000` and `register.10000.container`).
struct _IdentityKey: Hashable, Sendable {
    let id: ObjectIdentifier

    init(_ id: ObjectIdentifier) { self.id = id }
    init(_ type: Any.Type) { id = ObjectIdentifier(type) }

    static func == (lhs: _IdentityKey, rhs: _IdentityKey) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The hash `Dictionary` and `Set` use: the address, mixed with the table's seed, times an odd constant,
    /// folded so that the low bits (the bucket) depend on every bit.
    func _rawHashValue(seed: Int) -> Int {
        let product = (UInt(bitPattern: id) ^ UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
        return Int(bitPattern: product ^ (product >> 29))
    }
}
