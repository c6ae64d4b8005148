import ScaleFixtures
// Swinject 2.10.0's side of the module-tree, scale, throughput and memory workloads. Imports
// Swinject only. Swinject has no module tree: its side of every tree workload is an `Assembler` that
// applies the same registrations, as plain assemblies, to one container.
import Swinject

extension SwinjectWorkloads {
    static var scaleSetups: [String: Setup] {
        [
            "resolve.moduleTree200": tree200,
            "resolve.moduleTree200.flat": tree200,
            "register.10000": register10000,
            "register.10000.container": register10000Container,
            "assemble.assembler100": assembler100,
            "assemble.moduleTree1000": tree1000,
            "throughput.graph10.threads1": { throughputGraph10(.threads(1)) },
            "throughput.graph10.threads2": { throughputGraph10(.threads(2)) },
            "throughput.graph10.tasks8": { throughputGraph10(.tasks(8)) },
        ]
    }

    static func tree200() -> Run {
        let assembler = Assembler(SwinjectScale.tree200Assemblies())
        let resolver = assembler.resolver
        Check.tree200(
            resolver.resolve(Tree200Service0.self), resolver.resolve(Tree200Service0.self),
            "Swinject moduleTree200")
        return { n in
            withExtendedLifetime(assembler) {
                for _ in 0..<n { blackHole(resolver.resolve(Tree200Service0.self)) }
            }
        }
    }

    static func register10000() -> Run {
        func once() -> Container {
            let c = Container()
            SwinjectRegistrations.registerAll(ScaleShapes.registeredTypes[...], in: c)
            let resolved = SwinjectRegistrations.resolveAll(ScaleShapes.registeredTypes[...], from: c)
            if resolved != ScaleShapes.registeredTypes.count {
                Check.fail("Swinject register.10000 resolved \(resolved) of \(ScaleShapes.registeredTypes.count)")
            }
            return c
        }
        _ = once()
        return { n in
            for _ in 0..<n { keepAlive(once()) }
        }
    }

    /// register.10000 with every registration in `.container` scope: what setting a scope costs.
    static func register10000Container() -> Run {
        func once() -> Container {
            let c = Container()
            SwinjectRegistrations.registerAll(ScaleShapes.registeredTypes[...], in: c, scope: .container)
            let resolved = SwinjectRegistrations.resolveAll(ScaleShapes.registeredTypes[...], from: c)
            if resolved != ScaleShapes.registeredTypes.count {
                Check.fail(
                    "Swinject register.10000.container resolved \(resolved) of \(ScaleShapes.registeredTypes.count)")
            }
            return c
        }
        _ = once()
        return { n in
            for _ in 0..<n { keepAlive(once()) }
        }
    }

    static func assembler100() -> Run {
        let assemblies = SwinjectRegistrations.batchAssemblies()
        let probe = Assembler(assemblies).resolver
        let count = ScaleShapes.assemblies * ScaleShapes.servicesPerAssembly
        let resolved = SwinjectRegistrations.resolveAll(ScaleShapes.registeredTypes.prefix(count), from: probe)
        if resolved != count { Check.fail("Swinject assembler100 resolved \(resolved) of \(count)") }
        return { n in
            for _ in 0..<n { keepAlive(Assembler(assemblies)) }
        }
    }

    /// Swinject's `Assembler` with the 1,000 assemblies (its closest equivalent of a module tree).
    static func tree1000() -> Run {
        let assemblies = SwinjectScale.tree1000Assemblies()
        Check.tree1000(Assembler(assemblies).resolver.resolve(Tree1000Service0.self), "Swinject moduleTree1000")
        return { n in
            for _ in 0..<n { keepAlive(Assembler(assemblies)) }
        }
    }

    /// The 10-object `.transient` graph of `resolve.graph10`, from one `synchronize()`d container
    /// shared by every worker (an unsynchronized Swinject container must not be used from two threads).
    /// With one thread too, so that the scaling ratio compares like with like.
    static func throughputGraph10(_ mode: Parallel.Mode) -> Run {
        let c = Container()
        registerGraph(in: c, scope: .transient, leafScope: .transient)
        // @unchecked Sendable: a synchronize()d Swinject resolver takes its lock around every resolve.
        let resolver = UncheckedSendable(c.synchronize())
        Check.twoGraphs(
            resolver.value.resolve(GraphRoot.self), resolver.value.resolve(GraphRoot.self),
            leavesShared: false, "Swinject throughput.graph10")
        let body: WorkerBody = { count in
            var slot: AnyObject?
            for _ in 0..<count { blackHole(resolver.value.resolve(GraphRoot.self), into: &slot) }
        }
        return { n in withExtendedLifetime(c) { Parallel.run(mode, iterations: n, body) } }
    }

    /// register.10000 for the memory figures: registering and resolving as separate steps.
    static var memoryProbe: MemoryProbe {
        MemoryProbe(
            register: {
                let c = Container()
                SwinjectRegistrations.registerAll(ScaleShapes.registeredTypes[...], in: c)
                return c
            },
            resolveAll: { container in
                // The probe passes back what `register` returned.
                SwinjectRegistrations.resolveAll(ScaleShapes.registeredTypes[...], from: container as! Container)
            }
        )
    }
}

/// The registrations of register.10000 and assemble.assembler100. `Reg0` … `Reg9999` go through one
/// generic function, unspecialised (`T` is only known at run time), because 10,000 specialised call
/// sites took the optimiser about ten minutes. The Swinject side is the same code, word for word.
enum SwinjectRegistrations {
    /// `container.register(Reg123.self) { _ in Reg123() }`, with the default scope.
    @inline(never)
    static func register<T: ScaleService>(_ type: T.Type, in container: Container) {
        container.register(type) { _ in T() }
    }

    static func registerAll(_ types: ArraySlice<any ScaleService.Type>, in container: Container) {
        for type in types { register(type, in: container) }
    }

    /// `container.register(Reg123.self) { _ in Reg123() }.inObjectScope(scope)`.
    @inline(never)
    static func register<T: ScaleService>(_ type: T.Type, in container: Container, scope: ObjectScope) {
        container.register(type) { _ in T() }.inObjectScope(scope)
    }

    static func registerAll(_ types: ArraySlice<any ScaleService.Type>, in container: Container, scope: ObjectScope) {
        for type in types { register(type, in: container, scope: scope) }
    }

    /// `resolver.resolve(Reg123.self) != nil`.
    @inline(never)
    static func resolves<T: ScaleService>(_ type: T.Type, from resolver: Resolver) -> Bool {
        resolver.resolve(type) != nil
    }

    /// Resolves each of `types` once; returns how many resolved.
    static func resolveAll(_ types: ArraySlice<any ScaleService.Type>, from resolver: Resolver) -> Int {
        var resolved = 0
        for type in types where resolves(type, from: resolver) { resolved += 1 }
        return resolved
    }

    /// One assembly of assemble.assembler100: ten of the `Reg` types.
    struct Batch: Assembly {
        let types: ArraySlice<any ScaleService.Type>
        func assemble(container: Container) { registerAll(types, in: container) }
    }

    /// The 100 assemblies of assemble.assembler100: assembly k registers Reg(10k) … Reg(10k + 9).
    static func batchAssemblies() -> [Assembly] {
        let size = ScaleShapes.servicesPerAssembly
        return (0..<ScaleShapes.assemblies).map { k in
            Batch(types: ScaleShapes.registeredTypes[k * size..<(k + 1) * size])
        }
    }
}
