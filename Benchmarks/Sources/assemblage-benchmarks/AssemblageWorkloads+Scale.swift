// Assemblage's side of the module-tree, scale, throughput and memory workloads. Imports Assemblage
// only. The registrations themselves are generated (Generated/ScaleAssemblage.swift).
import Assemblage
import ScaleFixtures

extension AssemblageWorkloads {
    static var scaleSetups: [String: Setup] {
        [
            "resolve.moduleTree200": moduleTree200,
            "resolve.moduleTree200.flat": moduleTree200Flat,
            "register.10000": register10000,
            "register.10000.container": register10000Container,
            "assemble.assembler100": assembler100,
            "assemble.moduleTree1000": moduleTree1000,
            "validate.1000": validate1000,
            "throughput.graph10.threads1": { throughputGraph10(.threads(1)) },
            "throughput.graph10.threads2": { throughputGraph10(.threads(2)) },
            "throughput.graph10.tasks8": { throughputGraph10(.tasks(8)) },
        ]
    }

    static func makeModuleAssembler(_ root: any ModuleAssembly, expecting count: Int) -> ModuleAssembler {
        let assembler: ModuleAssembler
        do {
            assembler = try ModuleAssembler([root])
        } catch {
            Check.fail("ModuleAssembler threw: \(error)")
        }
        if assembler.modules.count != count {
            Check.fail("ModuleAssembler assembled \(assembler.modules.count) modules, expected \(count)")
        }
        return assembler
    }

    /// The tree's root service, from the module assembler's resolver: the lookup goes through the
    /// assembler's root and the modules' scopes.
    static func moduleTree200() -> Run {
        let assembler = makeModuleAssembler(AssemblageScale.tree200Root(), expecting: 200)
        let resolver = assembler.resolver
        Check.tree200(
            resolver.resolve(Tree200Service0.self), resolver.resolve(Tree200Service0.self),
            "Assemblage moduleTree200")
        return { n in
            withExtendedLifetime(assembler) {
                for _ in 0..<n { blackHole(resolver.resolve(Tree200Service0.self)) }
            }
        }
    }

    /// The same registrations applied by an `Assembler` to one container, resolved the same way.
    static func moduleTree200Flat() -> Run {
        let assembler = Assembler(AssemblageScale.tree200Assemblies())
        let resolver = assembler.resolver
        Check.tree200(
            resolver.resolve(Tree200Service0.self), resolver.resolve(Tree200Service0.self),
            "Assemblage moduleTree200.flat")
        return { n in
            withExtendedLifetime(assembler) {
                for _ in 0..<n { blackHole(resolver.resolve(Tree200Service0.self)) }
            }
        }
    }

    /// One operation: a new container, 10,000 registrations, each resolved once. The container is
    /// released after the timed batch (`keepAlive`), so its teardown is not part of the figure.
    static func register10000() -> Run {
        func once() -> Container {
            let c = Container()
            AssemblageRegistrations.registerAll(ScaleShapes.registeredTypes[...], in: c)
            let resolved = AssemblageRegistrations.resolveAll(ScaleShapes.registeredTypes[...], from: c)
            if resolved != ScaleShapes.registeredTypes.count {
                Check.fail("Assemblage register.10000 resolved \(resolved) of \(ScaleShapes.registeredTypes.count)")
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
            AssemblageRegistrations.registerAll(ScaleShapes.registeredTypes[...], in: c, scope: .container)
            let resolved = AssemblageRegistrations.resolveAll(ScaleShapes.registeredTypes[...], from: c)
            if resolved != ScaleShapes.registeredTypes.count {
                Check.fail(
                    "Assemblage register.10000.container resolved \(resolved) of \(ScaleShapes.registeredTypes.count)")
            }
            return c
        }
        _ = once()
        return { n in
            for _ in 0..<n { keepAlive(once()) }
        }
    }

    static func assembler100() -> Run {
        let assemblies = AssemblageRegistrations.batchAssemblies()
        let probe = Assembler(assemblies).resolver
        let count = ScaleShapes.assemblies * ScaleShapes.servicesPerAssembly
        let resolved = AssemblageRegistrations.resolveAll(ScaleShapes.registeredTypes.prefix(count), from: probe)
        if resolved != count { Check.fail("Assemblage assembler100 resolved \(resolved) of \(count)") }
        return { n in
            for _ in 0..<n { keepAlive(Assembler(assemblies)) }
        }
    }

    static func moduleTree1000() -> Run {
        let probe = makeModuleAssembler(AssemblageScale.tree1000Root(), expecting: 1000)
        Check.tree1000(probe.resolver.resolve(Tree1000Service0.self), "Assemblage moduleTree1000")
        return { n in
            for _ in 0..<n {
                keepAlive(makeModuleAssembler(AssemblageScale.tree1000Root(), expecting: 1000))
            }
        }
    }

    /// `validate()` of a container with the 1,000 services of the 1,000-module tree (each resolving
    /// the service of its first child module, so paths are up to 7 deep).
    static func validate1000() -> Run {
        let c = Container()
        _ = Assembler(AssemblageScale.tree1000Assemblies(), container: c)
        let report = c.validate()
        if !report.isValid || report.checkedCount != 1000 {
            Check.fail("Assemblage validate.1000: valid \(report.isValid), checked \(report.checkedCount)\n\(report)")
        }
        return { n in
            var checked = 0
            for _ in 0..<n { checked += c.validate().checkedCount }
            if checked != n * 1000 { Check.fail("Assemblage validate.1000 checked \(checked) for \(n) runs") }
        }
    }

    /// The 10-object `.transient` graph of `resolve.graph10`, from one container shared by every worker.
    static func throughputGraph10(_ mode: Parallel.Mode) -> Run {
        let c = Container()
        registerGraph(in: c, scope: .transient, leafScope: .transient)
        Check.twoGraphs(
            c.resolve(GraphRoot.self), c.resolve(GraphRoot.self), leavesShared: false,
            "Assemblage throughput.graph10")
        let body: WorkerBody = { count in
            var slot: AnyObject?
            for _ in 0..<count { blackHole(c.resolve(GraphRoot.self), into: &slot) }
        }
        return { n in Parallel.run(mode, iterations: n, body) }
    }

    /// register.10000 for the memory figures: registering and resolving as separate steps.
    static var memoryProbe: MemoryProbe {
        MemoryProbe(
            register: {
                let c = Container()
                AssemblageRegistrations.registerAll(ScaleShapes.registeredTypes[...], in: c)
                return c
            },
            resolveAll: { container in
                // The probe passes back what `register` returned.
                AssemblageRegistrations.resolveAll(ScaleShapes.registeredTypes[...], from: container as! Container)
            }
        )
    }
}

/// The registrations of register.10000 and assemble.assembler100. `Reg0` … `Reg9999` go through one
/// generic function, unspecialised (`T` is only known at run time), because 10,000 specialised call
/// sites took the optimiser about ten minutes. The Swinject side is the same code, word for word.
enum AssemblageRegistrations {
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
