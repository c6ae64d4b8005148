import Assemblage
import Testing

// Collections and decorators across a module tree: Top depends on Middle, Middle on Bottom.

private struct Tag: Sendable { let value: String }

private struct BottomModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(String.self, name: "home") { _ in "bottom" }
        container.registerIntoCollection(Plugin.self) { r in
            NamedPlugin("bottom:" + (try r.require(String.self, name: "home")))
        }
        container.register(Tag.self) { _ in Tag(value: "bottom") }
    }
}

private struct MiddleModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [BottomModule.self] }
    func assemble(container: Container) {
        container.registerIntoCollection(Plugin.self, name: "middle", priority: 5) { _ in NamedPlugin("middle") }
        container.decorate(Tag.self) { _, inner in Tag(value: "middle(\(inner.value))") }
        container.register(Tag.self, name: "middle") { _ in Tag(value: "middle-own") }
    }
}

private struct TopModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [MiddleModule.self] }
    func assemble(container: Container) {
        container.register(String.self, name: "home") { _ in "top" }
        container.registerIntoCollection(Plugin.self) { _ in NamedPlugin("top") }
        container.register(Tag.self, name: "top") { _ in Tag(value: "top") }
        container.decorate(Tag.self) { _, inner in Tag(value: "top(\(inner.value))") }
    }
}

@Suite struct ModuleCollectionTests {
    @Test func dependentsSeeTheElementsOfTheirDependencies() throws {
        let assembler = try ModuleAssembler([TopModule()])
        let top = try assembler.resolver(for: TopModule.self)
        #expect(try top.resolveAll(Plugin.self).map(\.id) == ["middle", "top", "bottom:bottom"])
        let middle = try assembler.resolver(for: MiddleModule.self)
        #expect(try middle.resolveAll(Plugin.self).map(\.id) == ["middle", "bottom:bottom"])
        let bottom = try assembler.resolver(for: BottomModule.self)
        #expect(try bottom.resolveAll(Plugin.self).map(\.id) == ["bottom:bottom"])
    }

    @Test func theAssemblersResolverGathersEveryModulesElementsInAssemblyOrder() throws {
        let assembler = try ModuleAssembler([TopModule()])
        #expect(try assembler.resolver.resolveAll(Plugin.self).map(\.id) == ["middle", "bottom:bottom", "top"])
        #expect(assembler.resolver.resolve([Plugin].self)?.count == 3)
        #expect(try assembler.resolver.resolveAllNamed(Plugin.self).keys.sorted() == ["middle"])
    }

    @Test func anElementResolvesInTheScopeOfTheModuleThatRegisteredIt() throws {
        // Top registers its own String "home"; Bottom's element still sees Bottom's.
        let assembler = try ModuleAssembler([TopModule()])
        let ids = try assembler.resolver(for: TopModule.self).resolveAll(Plugin.self).map(\.id)
        #expect(ids.contains("bottom:bottom"))
        #expect(!ids.contains("bottom:top"))
    }

    @Test func elementsContributedAfterAssemblyAreSeenByDependents() throws {
        let assembler = try ModuleAssembler([TopModule()])
        let bottom = try #require(try assembler.resolver(for: BottomModule.self) as? Container)
        bottom.registerIntoCollection(Plugin.self, priority: -1) { _ in NamedPlugin("late") }
        #expect(try assembler.resolver(for: TopModule.self).resolveAll(Plugin.self).map(\.id).last == "late")
    }

    @Test func validationSeesElementsOfDependencies() throws {
        struct Needy: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [] }
            func assemble(container: Container) {
                container.registerIntoCollection(Plugin.self) { r in
                    NamedPlugin(try r.require(String.self, name: "absent"))  // assemblage-check: ignore (on purpose)
                }
            }
        }
        struct Consumer: ModuleAssembly, AutoInitModuleAssembly {
            static var dependencies: [any ModuleAssembly.Type] { [Needy.self] }
            func assemble(container: Container) {}
        }
        let assembler = try ModuleAssembler([Consumer()])
        #expect(throws: ResolutionError.self) { try assembler.resolver.resolveAll(Plugin.self) }
        let report = assembler.validate()
        #expect(!report.isValid)
        #expect(report.issues.contains { $0.kind == .missingRegistration })
        #expect(try ModuleAssembler([TopModule()]).validate().isValid)
    }

    @Test func aDecoratorWrapsTheRegistrationsOfItsModuleAndOfModulesDependingOnIt() throws {
        let assembler = try ModuleAssembler([TopModule()])
        // Middle's decorator wraps Middle's and Top's registrations; Top's decorator is outermost on Top's.
        #expect(try assembler.resolver.require(Tag.self, name: "middle").value == "middle(middle-own)")
        #expect(try assembler.resolver.require(Tag.self, name: "top").value == "top(middle(top))")
        let top = try assembler.resolver(for: TopModule.self)
        #expect(try top.require(Tag.self, name: "middle").value == "middle(middle-own)")
        #expect(try top.require(Tag.self, name: "top").value == "top(middle(top))")
    }

    @Test func aDecoratorDoesNotWrapTheRegistrationsOfItsDependencies() throws {
        // Bottom's Tag is one registration shared by every dependent: neither Middle's nor Top's decorator
        // wraps it, wherever it is resolved from.
        let assembler = try ModuleAssembler([TopModule()])
        #expect(try assembler.resolver.require(Tag.self).value == "bottom")
        #expect(try assembler.resolver(for: TopModule.self).require(Tag.self).value == "bottom")
    }
}
