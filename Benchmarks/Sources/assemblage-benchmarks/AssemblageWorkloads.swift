// Assemblage's side of every workload. Imports Assemblage only: `Container` and `Resolver` here
// are Assemblage's. The code is the Swinject side's, word for word: the API is source-compatible.
import Assemblage

extension RequestConnection: Disposable {}
extension UnitOfWork: Disposable {}
extension RequestRepository: Disposable {}
extension RequestService: Disposable {}
extension RequestHandler: Disposable {}
extension ValueConnection: Disposable {}
extension ValueWork: Disposable {}
extension ValueRepository: Disposable {}
extension ValueService: Disposable {}
extension ValueHandler: Disposable {}

enum AssemblageWorkloads {
    static var setups: [String: Setup] {
        combine(
            [
                "resolve.transient": { transient(scope: .transient) },
                "resolve.transient.default": { transient(scope: nil) },
                "resolve.singleton": singleton,
                "resolve.graph10": { graph10(scope: .transient) },
                "resolve.graph10.default": { graph10(scope: nil) },
                "resolve.graph10.singletonLeaves": graph10SingletonLeaves,
                "resolve.named": named,
                "resolve.argument1": argument1,
                "resolve.arguments3": arguments3,
                "resolve.parent3": parent3,
                "scope.request5": request5,
                "scope.request5.values": request5Values,
                "scope.hit": scopeHit,
            ], scaleSetups)
    }

    /// A scope per request: five `.scoped` services made from its root, disposed when it ends.
    static func request5() -> Run {
        let c = Container()
        c.register(RequestConnection.self) { _ in RequestConnection() }.inObjectScope(.scoped)
        c.register(UnitOfWork.self) { r in UnitOfWork(connection: r.resolve(RequestConnection.self)!) }
            .inObjectScope(.scoped)
        c.register(RequestRepository.self) { r in RequestRepository(work: r.resolve(UnitOfWork.self)!) }
            .inObjectScope(.scoped)
        c.register(RequestService.self) { r in RequestService(repository: r.resolve(RequestRepository.self)!) }
            .inObjectScope(.scoped)
        c.register(RequestHandler.self) { r in RequestHandler(service: r.resolve(RequestService.self)!) }
            .inObjectScope(.scoped)
        func request() -> RequestHandler {
            let scope = c.makeScope()
            let handler = scope.resolve(RequestHandler.self)!
            try! scope.endSynchronously()
            return handler
        }
        let before = requestDisposals
        Check.distinct(request(), request(), "Assemblage request scope")
        if requestDisposals - before != 10 { Check.fail("Assemblage request scope: expected 10 disposals") }
        return { n in
            for _ in 0..<n { blackHole(request()) }
        }
    }

    /// A scoped instance the scope has made already: the lookup, the claim that finds it ready, the hand-back.
    static func scopeHit() -> Run {
        let c = Container()
        c.register(RequestConnection.self) { _ in RequestConnection() }.inObjectScope(.scoped)
        let scope = c.makeScope()
        let first = scope.resolve(RequestConnection.self)!
        if scope.resolve(RequestConnection.self)! !== first { Check.fail("Assemblage scoped hit: not the same") }
        return { n in
            for _ in 0..<n { blackHole(scope.resolve(RequestConnection.self)!) }
            withExtendedLifetime(scope) {}
        }
    }

    /// The same request with value types: the scope holds each instance as `Any`.
    static func request5Values() -> Run {
        let c = Container()
        c.register(ValueConnection.self) { _ in ValueConnection(id: 1) }.inObjectScope(.scoped)
        c.register(ValueWork.self) { r in ValueWork(connection: r.resolve(ValueConnection.self)!) }
            .inObjectScope(.scoped)
        c.register(ValueRepository.self) { r in ValueRepository(work: r.resolve(ValueWork.self)!) }
            .inObjectScope(.scoped)
        c.register(ValueService.self) { r in ValueService(repository: r.resolve(ValueRepository.self)!) }
            .inObjectScope(.scoped)
        c.register(ValueHandler.self) { r in ValueHandler(service: r.resolve(ValueService.self)!) }
            .inObjectScope(.scoped)
        func request() -> ValueHandler {
            let scope = c.makeScope()
            let handler = scope.resolve(ValueHandler.self)!
            try! scope.endSynchronously()
            return handler
        }
        let before = requestDisposals
        if request().depth != 1 { Check.fail("Assemblage value request scope: wrong chain") }
        if requestDisposals - before != 5 { Check.fail("Assemblage value request scope: expected 5 disposals") }
        return { n in
            for _ in 0..<n { requestDisposals &+= request().depth }
        }
    }

    /// `scope == nil` keeps the default scope (`.graph`).
    static func transient(scope: ObjectScope?) -> Run {
        let c = Container()
        let entry = c.register(Plain.self) { _ in Plain() }
        if let scope { entry.inObjectScope(scope) }
        Check.distinct(Check.notNil(c.resolve(Plain.self), "Plain"), c.resolve(Plain.self)!, "Assemblage transient")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(Plain.self)) }
        }
    }

    static func singleton() -> Run {
        let c = Container()
        c.register(Plain.self) { _ in Plain() }.inObjectScope(.container)
        Check.same(Check.notNil(c.resolve(Plain.self), "Plain"), c.resolve(Plain.self)!, "Assemblage singleton")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(Plain.self)) }
        }
    }

    static func registerGraph(in c: Container, scope: ObjectScope?, leafScope: ObjectScope?) {
        func apply<T>(_ entry: ServiceEntry<T>, _ scope: ObjectScope?) {
            if let scope { entry.inObjectScope(scope) }
        }
        apply(c.register(Leaf1.self) { _ in Leaf1() }, leafScope)
        apply(c.register(Leaf2.self) { _ in Leaf2() }, leafScope)
        apply(c.register(Leaf3.self) { _ in Leaf3() }, leafScope)
        apply(c.register(Leaf4.self) { _ in Leaf4() }, leafScope)
        apply(c.register(Leaf5.self) { _ in Leaf5() }, leafScope)
        apply(c.register(Leaf6.self) { _ in Leaf6() }, leafScope)
        apply(
            c.register((any ServiceA).self) { r in
                ServiceAImpl(first: r.resolve(Leaf1.self)!, second: r.resolve(Leaf2.self)!)
            }, scope)
        apply(
            c.register((any ServiceB).self) { r in
                ServiceBImpl(first: r.resolve(Leaf3.self)!, second: r.resolve(Leaf4.self)!)
            }, scope)
        apply(
            c.register((any ServiceC).self) { r in
                ServiceCImpl(first: r.resolve(Leaf5.self)!, second: r.resolve(Leaf6.self)!)
            }, scope)
        apply(
            c.register(GraphRoot.self) { r in
                GraphRoot(
                    a: r.resolve((any ServiceA).self)!,
                    b: r.resolve((any ServiceB).self)!,
                    c: r.resolve((any ServiceC).self)!)
            }, scope)
    }

    static func graph10(scope: ObjectScope?) -> Run {
        let c = Container()
        registerGraph(in: c, scope: scope, leafScope: scope)
        Check.twoGraphs(c.resolve(GraphRoot.self), c.resolve(GraphRoot.self), leavesShared: false, "Assemblage graph10")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(GraphRoot.self)) }
        }
    }

    static func graph10SingletonLeaves() -> Run {
        let c = Container()
        registerGraph(in: c, scope: .transient, leafScope: .container)
        Check.twoGraphs(
            c.resolve(GraphRoot.self), c.resolve(GraphRoot.self), leavesShared: true,
            "Assemblage graph10.singletonLeaves")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(GraphRoot.self)) }
        }
    }

    static func named() -> Run {
        let c = Container()
        for name in Arguments.names {
            c.register(Plain.self, name: name) { _ in Plain() }.inObjectScope(.transient)
        }
        let name = Arguments.names[7]
        _ = Check.notNil(c.resolve(Plain.self, name: name), "Plain named \(name)")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(Plain.self, name: name)) }
        }
    }

    static func argument1() -> Run {
        let c = Container()
        c.register(WithOneArgument.self) { _, id in WithOneArgument(id: id) }.inObjectScope(.transient)
        if Check.notNil(c.resolve(WithOneArgument.self, argument: 42), "WithOneArgument").id != 42 {
            Check.fail("Assemblage argument1: wrong argument")
        }
        return { n in
            for i in 0..<n { blackHole(c.resolve(WithOneArgument.self, argument: i)) }
        }
    }

    static func arguments3() -> Run {
        let c = Container()
        c.register(WithThreeArguments.self) { _, id, label, weight in
            WithThreeArguments(id: id, label: label, weight: weight)
        }.inObjectScope(.transient)
        let label = Arguments.label
        let probe = Check.notNil(c.resolve(WithThreeArguments.self, arguments: 1, label, 2.0), "WithThreeArguments")
        if probe.id != 1 || probe.label != label || probe.weight != 2.0 {
            Check.fail("Assemblage arguments3: wrong arguments")
        }
        return { n in
            for i in 0..<n {
                blackHole(c.resolve(WithThreeArguments.self, arguments: i, label, Double(i)))
            }
        }
    }

    static func parent3() -> Run {
        let top = Container()
        top.register(Plain.self) { _ in Plain() }.inObjectScope(.transient)
        let c = Container(parent: Container(parent: Container(parent: top)))
        Check.distinct(
            Check.notNil(c.resolve(Plain.self), "Plain via parents"), c.resolve(Plain.self)!,
            "Assemblage parent3")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(Plain.self)) }
        }
    }
}
