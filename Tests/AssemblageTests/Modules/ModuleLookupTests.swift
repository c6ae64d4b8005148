import Assemblage
import Testing

// The assembler's root answers from an index of every module's registrations instead of searching each module
// in turn; what it finds resolves in its module through a forwarder that knows its type. These tests pin that both
// give the answers the plain search gave.

private struct LookupBaseModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(String.self, name: "where") { _ in "base" }
        container.register(String.self, name: "shared") { _ in "from base" }
        container.register(String.self, name: "replaced") { _ in "first" }
        container.register(String.self, name: "replaced") { _ in "second" }  // assemblage-check: ignore (on purpose)
        container.register(String.self, name: "one") { (r: Resolver, a: Int) in
            "\(try r.require(String.self, name: "where")) \(a)"
        }
        container.register(String.self, name: "two") { (r: Resolver, a: Int, b: String) in
            "\(try r.require(String.self, name: "where")) \(a) \(b)"
        }
        container.register(String.self, name: "three") { (r: Resolver, a: Int, b: String, c: Double) in
            "\(try r.require(String.self, name: "where")) \(a) \(b) \(c)"
        }
    }
}

/// Assembled after `LookupBaseModule` (it depends on it), so the root finds the base's `"shared"` first.
private struct LookupTopModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [LookupBaseModule.self] }
    func assemble(container: Container) {
        container.register(String.self, name: "where") { _ in "top" }
        container.register(String.self, name: "shared") { _ in "from top" }
        container.register(String.self, name: "top") { r in try r.require(String.self, name: "where") }
    }
}

@Suite struct ModuleLookupTests {
    @Test func rootFindsTheEarliestModuleInAssemblyOrderWhenTwoExportOneKey() throws {
        let assembler = try ModuleAssembler([LookupTopModule()])
        #expect(try assembler.resolver.require(String.self, name: "shared") == "from base")
        // Each module still sees its own registration first.
        #expect(try assembler.resolver(for: LookupTopModule.self).require(String.self, name: "shared") == "from top")
    }

    @Test func rootPrefersTheEarlierModuleWhateverOrderTheRegistrationsCameIn() throws {
        let assembler = try ModuleAssembler([LookupTopModule()])
        let base = try #require(try assembler.resolver(for: LookupBaseModule.self) as? Container)
        let top = try #require(try assembler.resolver(for: LookupTopModule.self) as? Container)
        // The later module registered "top" during assembly; the earlier one registers it now: the earlier wins.
        base.register(String.self, name: "top") { _ in "base, after assembly" }
        #expect(try assembler.resolver.require(String.self, name: "top") == "base, after assembly")
        // The later module registers a key the earlier one registers: the earlier one's stays.
        top.register(String.self, name: "one") { (_: Resolver, _: Int) in "top's one" }
        #expect(try assembler.resolver.require(String.self, name: "one", argument: 2) == "base 2")
        // A new key from either module reaches the root.
        top.register(Int.self, name: "new") { _ in 7 }
        #expect(try assembler.resolver.require(Int.self, name: "new") == 7)
    }

    @Test func reRegistrationInsideAModuleReplacesItsExport() throws {
        let assembler = try ModuleAssembler([LookupTopModule()])
        #expect(try assembler.resolver.require(String.self, name: "replaced") == "second")
    }

    @Test func exportsWithArgumentsResolveInTheirModulesScope() throws {
        let root = try ModuleAssembler([LookupTopModule()]).resolver
        #expect(try root.require(String.self, name: "one", argument: 1) == "base 1")
        #expect(try root.require(String.self, name: "two", arguments: 1, "b") == "base 1 b")
        #expect(try root.require(String.self, name: "three", arguments: 1, "b", 3.5) == "base 1 b 3.5")
        #expect(try root.require(String.self, name: "top") == "top")
    }

    @Test func missingKeyThroughTheRootStillNamesItsNearMisses() {
        let root = try? ModuleAssembler([LookupTopModule()]).resolver
        do {
            _ = try root?.require(String.self, name: "nowhere")
            Issue.record("expected notRegistered")
        } catch {
            #expect(error.code == .notRegistered)
            #expect(error.nearMisses.contains { $0.name == "shared" })
        }
    }

    @Test func childAssemblerFindsTheParentsExportsBehindItsOwn() throws {
        let parent = try ModuleAssembler([LookupBaseModule()])
        let child = try ModuleAssembler([LookupTopModule()], parent: parent)
        #expect(try child.resolver.require(String.self, name: "top") == "top")
        #expect(try child.resolver.require(String.self, name: "one", argument: 7) == "base 7")
    }
}

/// Conforms to `AutoInitModuleAssembly` in an extension apart from its `ModuleAssembly` conformance.
private struct LateAutoInitModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(String.self, name: "late") { _ in "late" }
    }
}

extension LateAutoInitModule: AutoInitModuleAssembly {}

private struct NeedsLateModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [LateAutoInitModule.self] }
    func assemble(container: Container) {}
}

private struct NeedsConfigLookupModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

private struct NeedsConfigLookupParent: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NeedsConfigLookupModule.self] }
    func assemble(container: Container) {}
}

@Suite struct ModuleAutoInitTests {
    @Test func dependencyConformingToAutoInitInAnExtensionIsCreated() throws {
        let assembler = try ModuleAssembler([NeedsLateModule()])
        #expect(try assembler.resolver.require(String.self, name: "late") == "late")
    }

    @Test func dependencyThatCannotCreateItselfIsReportedNotCreated() {
        #expect(NeedsConfigLookupModule._makeIfAutoInit() == nil)
        do {
            _ = try ModuleAssembler([NeedsConfigLookupParent()])
            Issue.record("expected moduleNotProvided")
        } catch {
            #expect(error.problems.map(\.code) == [.moduleNotProvided])
            #expect(error.problems.first?.module == "NeedsConfigLookupModule")
        }
    }
}
