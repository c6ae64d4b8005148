// The baseline: what the same objects cost when built by hand, with no container.
// Imports neither library. Construction is written inline at the call site, as an app without
// DI would write it; singletons are stored `let`s of a composition root, created at setup.

enum HandWritten {
    static var setups: [String: Setup] {
        combine(
            [
                "resolve.transient": transient,
                "resolve.transient.default": transient,
                "resolve.singleton": singleton,
                "resolve.graph10": graph10,
                "resolve.graph10.default": graph10,
                "resolve.graph10.singletonLeaves": graph10SingletonLeaves,
                "resolve.named": transient,
                "resolve.argument1": argument1,
                "resolve.arguments3": arguments3,
                "resolve.parent3": transient,
                "scope.request5": request5,
                "scope.request5.values": request5Values,
                "scope.hit": scopeHit,
            ], scaleSetups)
    }

    /// What a request scope is without a container: an object that keeps what the request made, to dispose it
    /// last-made-first when the request ends.
    final class RequestScope {
        var made: [any HandDisposable] = []
        init() { made.reserveCapacity(5) }
        func end() {
            for item in made.reversed() { item.dispose() }
            made.removeAll()
        }
    }

    static func request5() -> Run {
        @inline(__always)
        func request() -> RequestHandler {
            let scope = RequestScope()
            let connection = RequestConnection()
            scope.made.append(connection)
            let work = UnitOfWork(connection: connection)
            scope.made.append(work)
            let repository = RequestRepository(work: work)
            scope.made.append(repository)
            let service = RequestService(repository: repository)
            scope.made.append(service)
            let handler = RequestHandler(service: service)
            scope.made.append(handler)
            blackHole(scope)  // a server keeps the request's scope in its request context: it is not on the stack
            scope.end()
            return handler
        }
        Check.distinct(request(), request(), "hand request scope")
        return { n in
            for _ in 0..<n { blackHole(request()) }
        }
    }

    /// A request's context that holds the connection it made.
    final class RequestContext {
        let connection = RequestConnection()
    }

    static func scopeHit() -> Run {
        let context = RequestContext()
        blackHole(context)  // a server keeps it in the request: it is not on the stack
        return { n in
            for _ in 0..<n { blackHole(context.connection) }
        }
    }

    /// A request scope over values: what it made, as existentials.
    final class ValueRequestScope {
        var made: [any HandValueDisposable] = []
        init() { made.reserveCapacity(5) }
        func end() {
            for item in made.reversed() { item.dispose() }
            made.removeAll()
        }
    }

    static func request5Values() -> Run {
        @inline(__always)
        func request() -> ValueHandler {
            let scope = ValueRequestScope()
            let connection = ValueConnection(id: 1)
            scope.made.append(connection)
            let work = ValueWork(connection: connection)
            scope.made.append(work)
            let repository = ValueRepository(work: work)
            scope.made.append(repository)
            let service = ValueService(repository: repository)
            scope.made.append(service)
            let handler = ValueHandler(service: service)
            scope.made.append(handler)
            blackHole(scope)  // kept in a request context, as above
            scope.end()
            return handler
        }
        let before = requestDisposals
        if request().depth != 1 || requestDisposals - before != 5 { Check.fail("hand value request scope") }
        return { n in
            for _ in 0..<n { requestDisposals &+= request().depth }
        }
    }

    static func transient() -> Run {
        Check.distinct(Plain(), Plain(), "hand transient")
        return { n in
            for _ in 0..<n { blackHole(Plain()) }
        }
    }

    /// A composition root that owns the app's singletons.
    final class Composition {
        let shared = Plain()
        let leaf1 = Leaf1(), leaf2 = Leaf2(), leaf3 = Leaf3()
        let leaf4 = Leaf4(), leaf5 = Leaf5(), leaf6 = Leaf6()
    }

    static func singleton() -> Run {
        let root = Composition()
        return { n in
            for _ in 0..<n { blackHole(root.shared) }
        }
    }

    @inline(__always)
    static func makeGraph() -> GraphRoot {
        GraphRoot(
            a: ServiceAImpl(first: Leaf1(), second: Leaf2()),
            b: ServiceBImpl(first: Leaf3(), second: Leaf4()),
            c: ServiceCImpl(first: Leaf5(), second: Leaf6())
        )
    }

    static func graph10() -> Run {
        Check.twoGraphs(makeGraph(), makeGraph(), leavesShared: false, "hand graph10")
        return { n in
            for _ in 0..<n { blackHole(makeGraph()) }
        }
    }

    @inline(__always)
    static func makeGraph(sharing root: Composition) -> GraphRoot {
        GraphRoot(
            a: ServiceAImpl(first: root.leaf1, second: root.leaf2),
            b: ServiceBImpl(first: root.leaf3, second: root.leaf4),
            c: ServiceCImpl(first: root.leaf5, second: root.leaf6)
        )
    }

    static func graph10SingletonLeaves() -> Run {
        let root = Composition()
        Check.twoGraphs(
            makeGraph(sharing: root), makeGraph(sharing: root), leavesShared: true,
            "hand graph10.singletonLeaves")
        return { n in
            for _ in 0..<n { blackHole(makeGraph(sharing: root)) }
        }
    }

    static func argument1() -> Run {
        { n in
            for i in 0..<n { blackHole(WithOneArgument(id: i)) }
        }
    }

    static func arguments3() -> Run {
        let label = Arguments.label
        return { n in
            for i in 0..<n {
                blackHole(WithThreeArguments(id: i, label: label, weight: Double(i)))
            }
        }
    }
}

/// Values shared by the argument workloads of all contestants.
enum Arguments {
    /// A short (inline, non-allocating) string, as most real arguments are.
    static let label = "label"
    /// The names of the named workload; the one resolved is `names[7]`.
    static let names = (0..<10).map { "service.\($0)" }
}

/// The hand-written side's disposal protocol.
protocol HandDisposable: AnyObject {
    func dispose()
}

extension RequestConnection: HandDisposable {}
extension UnitOfWork: HandDisposable {}
extension RequestRepository: HandDisposable {}
extension RequestService: HandDisposable {}
extension RequestHandler: HandDisposable {}

/// The same protocol for values.
protocol HandValueDisposable {
    func dispose()
}

extension ValueConnection: HandValueDisposable {}
extension ValueWork: HandValueDisposable {}
extension ValueRepository: HandValueDisposable {}
extension ValueService: HandValueDisposable {}
extension ValueHandler: HandValueDisposable {}
