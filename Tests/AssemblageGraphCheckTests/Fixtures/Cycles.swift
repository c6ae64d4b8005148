import Assemblage

struct CycleAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Chicken.self) { r in Chicken(egg: try r.require(Egg.self)) }   // expect: error cycle
        container.register(Egg.self) { r in Egg(chicken: try r.require(Chicken.self)) }
        container.register(Node.self) { r in Node(next: r.resolve(Node.self)!) }   // expect: error cycle
        container.registerIntoCollection(Plugin.self) { r in HostAwarePlugin(host: try r.require(Host.self)) }   // expect: error cycle
        container.register(Host.self) { r in Host(plugins: try r.resolveAll(Plugin.self)) }

        // Broken by Lazy, Provider, initCompleted and an optional resolve: no cycle error.
        container.register(A.self) { r in A(b: try r.require(B.self)) }
        container.register(B.self) { r in B(a: try r.require(Lazy<A>.self)) }
        container.register(C.self) { r in C(d: try r.require(D.self)) }
        container.register(D.self) { r in D(c: try r.require(Provider<C>.self)) }
        container.register(Parent.self) { r in Parent(child: try r.require(Child.self)) }
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = try r.require(Parent.self) }
        container.register(E.self) { r in E(f: r.resolve(F.self)) }
        container.register(F.self) { r in F(e: try r.require(E.self)) }

        // Recursion on argument values can end: a note, not an error.
        container.register(Countdown.self) { (r, n: Int) in
            Countdown(next: n == 0 ? nil : try r.require(Countdown.self, argument: n - 1))   // expect: note notChecked
        }
    }
}

// Two candidate registrations of Ping: whether they form a cycle depends on which one wins.
struct PingAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Ping.self) { r in Ping(pong: try r.require(Pong.self)) }   // expect: note notChecked
        container.register(Pong.self) { r in Pong(ping: try r.require(Ping.self)) }
    }
}

struct PingOverlayAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Ping.self) { _ in Ping(pong: nil) }
    }
}
