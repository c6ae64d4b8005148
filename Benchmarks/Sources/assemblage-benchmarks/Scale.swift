// Checks and the memory probe of the scale workloads. Imports neither library.
import ScaleFixtures

extension Check {
    /// Two resolves of the 200-module tree's root service: each a chain of 6 distinct objects, the
    /// two sharing none (every registration is `.transient`).
    static func tree200(_ x: Tree200Service0?, _ y: Tree200Service0?, _ what: String) {
        let x = ScaleShapes.objects(notNil(x, what))
        let y = ScaleShapes.objects(notNil(y, what))
        chains(x, y, length: ScaleShapes.tree200ChainLength, what)
    }

    /// One resolve of the 1,000-module tree's root service: a chain of 7 distinct objects.
    static func tree1000(_ x: Tree1000Service0?, _ what: String) {
        let x = ScaleShapes.objects(notNil(x, what))
        chains(x, [], length: ScaleShapes.tree1000ChainLength, what)
    }

    private static func chains(_ x: [AnyObject], _ y: [AnyObject], length: Int, _ what: String) {
        if x.count != length { fail("\(what): expected a chain of \(length) objects, got \(x.count)") }
        let ids = Set((x + y).map(ObjectIdentifier.init))
        if ids.count != x.count + y.count { fail("\(what): objects shared within or between resolves") }
    }
}

/// register.10000 in two steps, for the memory figures. `register` returns a new container with the
/// 10,000 registrations; `resolveAll` resolves each once from it and returns how many resolved.
struct MemoryProbe {
    let register: () -> AnyObject
    let resolveAll: (AnyObject) -> Int
}
