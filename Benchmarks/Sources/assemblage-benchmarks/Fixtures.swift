// The types that every contestant builds. Hand-written code, Assemblage and Swinject construct
// exactly these classes, so the only difference between the columns is how they get built.
// This file imports neither library.

/// A service with no dependencies.
final class Plain: Sendable {
    init() {}
}

/// A service built from one runtime argument.
final class WithOneArgument: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// A service built from three runtime arguments.
final class WithThreeArguments: Sendable {
    let id: Int
    let label: String
    let weight: Double
    init(id: Int, label: String, weight: Double) {
        self.id = id
        self.label = label
        self.weight = weight
    }
}

// MARK: - The 10-object graph
//
//               GraphRoot
//        ┌──────────┼──────────┐
//     ServiceA   ServiceB   ServiceC        (protocols; ServiceAImpl, ...)
//      ┌─┴─┐      ┌─┴─┐      ┌─┴─┐
//    Leaf1 Leaf2 Leaf3 Leaf4 Leaf5 Leaf6    (concrete classes)
//
// Every node has its own type, so `.graph` scope never shares an instance inside one resolve:
// the `.default` variants measure what the graph bookkeeping costs, not what it saves.

final class Leaf1: Sendable { init() {} }
final class Leaf2: Sendable { init() {} }
final class Leaf3: Sendable { init() {} }
final class Leaf4: Sendable { init() {} }
final class Leaf5: Sendable { init() {} }
final class Leaf6: Sendable { init() {} }

protocol ServiceA: AnyObject, Sendable {
    var first: Leaf1 { get }
    var second: Leaf2 { get }
}

protocol ServiceB: AnyObject, Sendable {
    var first: Leaf3 { get }
    var second: Leaf4 { get }
}

protocol ServiceC: AnyObject, Sendable {
    var first: Leaf5 { get }
    var second: Leaf6 { get }
}

final class ServiceAImpl: ServiceA {
    let first: Leaf1
    let second: Leaf2
    init(first: Leaf1, second: Leaf2) {
        self.first = first
        self.second = second
    }
}

final class ServiceBImpl: ServiceB {
    let first: Leaf3
    let second: Leaf4
    init(first: Leaf3, second: Leaf4) {
        self.first = first
        self.second = second
    }
}

final class ServiceCImpl: ServiceC {
    let first: Leaf5
    let second: Leaf6
    init(first: Leaf5, second: Leaf6) {
        self.first = first
        self.second = second
    }
}

final class GraphRoot: Sendable {
    let a: any ServiceA
    let b: any ServiceB
    let c: any ServiceC
    init(a: any ServiceA, b: any ServiceB, c: any ServiceC) {
        self.a = a
        self.b = b
        self.c = c
    }

    /// The six leaves, in order, for checks.
    var leaves: [AnyObject] { [a.first, a.second, b.first, b.second, c.first, c.second] }

    /// The ten objects of the graph, for checks.
    var objects: [AnyObject] { [self, a, b, c] + leaves }
}

// MARK: - Checks, run once per contestant before anything is timed

enum Check {
    /// Stops the run: a benchmark that measured the wrong thing is worse than none.
    static func fail(_ message: String) -> Never {
        fatalError("benchmark self-check failed: \(message)")
    }

    static func notNil<T>(_ value: T?, _ what: String) -> T {
        guard let value else { fail("\(what) resolved to nil") }
        return value
    }

    static func distinct(_ x: AnyObject, _ y: AnyObject, _ what: String) {
        if x === y { fail("\(what): expected two instances, got one") }
    }

    static func same(_ x: AnyObject, _ y: AnyObject, _ what: String) {
        if x !== y { fail("\(what): expected one shared instance, got two") }
    }

    /// A graph has ten distinct objects.
    static func graph(_ root: GraphRoot?, _ what: String) {
        let root = notNil(root, what)
        let ids = Set(root.objects.map(ObjectIdentifier.init))
        if ids.count != 10 { fail("\(what): expected 10 distinct objects, got \(ids.count)") }
    }

    /// Two resolves of a transient graph share nothing; with singleton leaves they share the leaves only.
    static func twoGraphs(_ x: GraphRoot?, _ y: GraphRoot?, leavesShared: Bool, _ what: String) {
        graph(x, what)
        graph(y, what)
        let x = x!
        let y = y!
        distinct(x, y, "\(what) root")
        distinct(x.a, y.a, "\(what) ServiceA")
        distinct(x.b, y.b, "\(what) ServiceB")
        distinct(x.c, y.c, "\(what) ServiceC")
        for (l, r) in zip(x.leaves, y.leaves) {
            if leavesShared { same(l, r, "\(what) leaf") } else { distinct(l, r, "\(what) leaf") }
        }
    }
}

// MARK: - One request's scope
//
//   RequestHandler → RequestService → RequestRepository → UnitOfWork → RequestConnection
//
// Five services made for one request and disposed when it ends, last made first. `dispose()` counts, so that
// the disposal is real work the optimiser cannot drop; each contestant adopts its own disposal protocol.

/// Counts disposals (single-threaded: the workload runs on one thread).
nonisolated(unsafe) var requestDisposals = 0

final class RequestConnection: @unchecked Sendable {
    init() {}
    func dispose() { requestDisposals &+= 1 }
}

final class UnitOfWork: @unchecked Sendable {
    let connection: RequestConnection
    init(connection: RequestConnection) { self.connection = connection }
    func dispose() { requestDisposals &+= 1 }
}

final class RequestRepository: @unchecked Sendable {
    let work: UnitOfWork
    init(work: UnitOfWork) { self.work = work }
    func dispose() { requestDisposals &+= 1 }
}

final class RequestService: @unchecked Sendable {
    let repository: RequestRepository
    init(repository: RequestRepository) { self.repository = repository }
    func dispose() { requestDisposals &+= 1 }
}

final class RequestHandler: @unchecked Sendable {
    let service: RequestService
    init(service: RequestService) { self.service = service }
    func dispose() { requestDisposals &+= 1 }
}

// The same chain as values: structs of one word each, which a scope holds as `Any` rather than as references
// (`scope.request5.values`).

struct ValueConnection: Sendable {
    let id: Int
    func dispose() { requestDisposals &+= 1 }
}

struct ValueWork: Sendable {
    let connection: ValueConnection
    func dispose() { requestDisposals &+= 1 }
}

struct ValueRepository: Sendable {
    let work: ValueWork
    func dispose() { requestDisposals &+= 1 }
}

struct ValueService: Sendable {
    let repository: ValueRepository
    func dispose() { requestDisposals &+= 1 }
}

struct ValueHandler: Sendable {
    let service: ValueService
    func dispose() { requestDisposals &+= 1 }
    /// The connection's `id`, read through the chain: what the loop keeps, so that nothing is optimised away.
    var depth: Int { service.repository.work.connection.id }
}
