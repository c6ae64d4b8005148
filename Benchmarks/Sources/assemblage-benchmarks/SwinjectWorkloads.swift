// Swinject 2.10.0's side of every workload. Imports Swinject only: `Container` and `Resolver`
// here are Swinject's. Written as a Swinject user would, with a plain `Container()`.
import Swinject

enum SwinjectWorkloads {
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
            ], scaleSetups)
    }

    /// `scope == nil` keeps Swinject's default (`.graph`).
    static func transient(scope: ObjectScope?) -> Run {
        let c = Container()
        let entry = c.register(Plain.self) { _ in Plain() }
        if let scope { entry.inObjectScope(scope) }
        Check.distinct(Check.notNil(c.resolve(Plain.self), "Plain"), c.resolve(Plain.self)!, "Swinject transient")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(Plain.self)) }
        }
    }

    static func singleton() -> Run {
        let c = Container()
        c.register(Plain.self) { _ in Plain() }.inObjectScope(.container)
        Check.same(Check.notNil(c.resolve(Plain.self), "Plain"), c.resolve(Plain.self)!, "Swinject singleton")
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
        Check.twoGraphs(c.resolve(GraphRoot.self), c.resolve(GraphRoot.self), leavesShared: false, "Swinject graph10")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(GraphRoot.self)) }
        }
    }

    static func graph10SingletonLeaves() -> Run {
        let c = Container()
        registerGraph(in: c, scope: .transient, leafScope: .container)
        Check.twoGraphs(
            c.resolve(GraphRoot.self), c.resolve(GraphRoot.self), leavesShared: true,
            "Swinject graph10.singletonLeaves")
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
            Check.fail("Swinject argument1: wrong argument")
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
            Check.fail("Swinject arguments3: wrong arguments")
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
            "Swinject parent3")
        return { n in
            for _ in 0..<n { blackHole(c.resolve(Plain.self)) }
        }
    }
}
