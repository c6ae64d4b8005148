import Assemblage
import Testing

// How module scopes reach their dependencies: each scope lists its own dependencies' scopes, and a lookup goes on
// into theirs. These tests pin what each scope sees, whatever position a dependency is declared at, and that deep
// graphs of either kind assemble and go away.

private struct WiringLeafC: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) { container.register(String.self, name: "c") { _ in "c" } }
}

private struct WiringLeafD: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) { container.register(String.self, name: "d") { _ in "d" } }
}

/// Depends on C first and D last.
private struct WiringA: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [WiringLeafC.self, WiringLeafD.self] }
    func assemble(container: Container) {
        container.register(String.self, name: "a") { r in "a+" + (r.resolve(String.self, name: "c") ?? "-") }
    }
}

/// Depends on D only.
private struct WiringB: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [WiringLeafD.self] }
    func assemble(container: Container) { container.register(String.self, name: "b") { _ in "b" } }
}

/// Depends on A first (so A's scope leads on to C and D) and B last.
private struct WiringTop: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [WiringA.self, WiringB.self] }
    func assemble(container: Container) {}
}

/// A module of a child assembler that depends first on a module its parent assembled.
private struct WiringChildOfParent: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [WiringB.self, WiringLeafC.self] }
    func assemble(container: Container) {}
}

@Suite struct ModuleWiringTests {
    @Test func aModuleSeesEveryTransitiveDependencyWhateverPositionItIsDeclaredAt() throws {
        let assembler = try ModuleAssembler([WiringTop()], overrideBehavior: .disableDefaultOverrides)
        let top = try assembler.resolver(for: WiringTop.self)
        #expect(["a", "b", "c", "d"].map { top.resolve(String.self, name: $0) } == ["a+c", "b", "c", "d"])
        let a = try assembler.resolver(for: WiringA.self)
        #expect(["a", "b", "c", "d"].map { a.resolve(String.self, name: $0) } == ["a+c", nil, "c", "d"])
    }

    @Test func aDependencyDoesNotSeeWhatItsDependentsOrSiblingsRegister() throws {
        let assembler = try ModuleAssembler([WiringTop()], overrideBehavior: .disableDefaultOverrides)
        let b = try assembler.resolver(for: WiringB.self)
        #expect(["a", "b", "c", "d"].map { b.resolve(String.self, name: $0) } == [nil, "b", nil, "d"])
        let c = try assembler.resolver(for: WiringLeafC.self)
        #expect(["a", "c", "d"].map { c.resolve(String.self, name: $0) } == [nil, "c", nil])
    }

    @Test func aParentsModuleDependedOnFirstIsSearchedWithItsDependencies() throws {
        // In the parent, B is only ever a last dependency; the child's module depends on it first.
        let parent = try ModuleAssembler([WiringTop()], overrideBehavior: .disableDefaultOverrides)
        let child = try ModuleAssembler(
            [WiringChildOfParent()], overrideBehavior: .disableDefaultOverrides, parent: parent)
        let scope = try child.resolver(for: WiringChildOfParent.self)
        #expect(["a", "b", "c", "d"].map { scope.resolve(String.self, name: $0) } == [nil, "b", "c", "d"])
    }

    @Test func aLongLadderOfFirstDependenciesAssemblesResolvesAndGoesAway() throws {
        // Module i depends on module i + 1 first and on a shared leaf last: every module but the last is searched
        // through another module's scope, ten thousand deep.
        weak var weakScope: Container?
        do {
            let assembler = try ModuleAssembler([ladderModuleType(90_000)._makeIfAutoInit()!])
            #expect(assembler.modules.count == 10_001)
            let first = try #require(try assembler.resolver(for: ladderModuleType(90_000)) as? Container)
            weakScope = first
            #expect(first.resolve(Int.self, name: "ladder 99999") == 99_999)
            #expect(first.resolve(String.self) == "leaf")
            #expect(first.resolve(Int.self, name: "ladder 89999") == nil)
            let last = try assembler.resolver(for: ladderModuleType(99_999))
            #expect(last.resolve(Int.self, name: "ladder 90000") == nil)
            #expect(assembler.resolver.resolve(Int.self, name: "ladder 95000") == 95_000)
        }
        #expect(weakScope == nil)
    }

    @Test func aLongLadderValidatesAndItsSandboxGoesAway() throws {
        // The sandbox mirrors ten thousand modules without recursing into each one's fallbacks, looks keys up from
        // the mirrored root through one index (not module by module, which made validation quadratic), and frees
        // the mirrors one by one.
        let assembler = try ModuleAssembler([ladderModuleType(90_000)._makeIfAutoInit()!])
        let report = assembler.validate()
        #expect(report.isValid, "\(report)")
        #expect(report.checkedCount == 10_001)
    }

    @Test func aLongLadderGoesAwayWithTheResolverThatOutlivedItsAssembler() throws {
        weak var weakScope: Container?
        var resolver: (any Resolver)?
        do {
            let assembler = try ModuleAssembler([ladderModuleType(90_000)._makeIfAutoInit()!])
            weakScope = try assembler.resolver(for: ladderModuleType(90_000)) as? Container
            resolver = assembler.resolver
        }
        #expect(resolver?.resolve(Int.self, name: "ladder 99999") == 99_999)
        #expect(weakScope != nil)
        resolver = nil
        #expect(weakScope == nil)
    }
}
