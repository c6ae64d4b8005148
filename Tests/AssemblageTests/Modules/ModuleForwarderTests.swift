import Foundation
import Testing

@testable import Assemblage

// A module's registration found by a lookup from another container resolves in the module through its export
// forwarder, made the first time such a lookup finds it and kept by the registration. These tests pin when it is
// made, that it is made once however many threads race for it, and what a lookup from a dependent reaches.

private struct ForwarderBaseModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(String.self, name: "where") { _ in "base" }
        container.register(String.self, name: "seen") { r in try r.require(String.self, name: "where") }
        container.register(NSObject.self) { _ in NSObject() }.inObjectScope(.container)
        container.registerIntoCollection(String.self) { r in "element of \(try r.require(String.self, name: "where"))" }
    }
}

private struct ForwarderTopModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ForwarderBaseModule.self] }
    func assemble(container: Container) {
        container.register(String.self, name: "where") { _ in "top" }
        container.register(String.self, name: "top") { r in try r.require(String.self, name: "seen") }
    }
}

/// Both of the Knit-style child's modules below see the parent graph; the top one depends on them in this order.
private struct SeesParentFirstModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

private struct SeesParentSecondModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(String.self, name: "contested") { _ in "second module" }
    }
}

private struct SeesParentTopModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [SeesParentFirstModule.self, SeesParentSecondModule.self] }
    func assemble(container: Container) {}
}

private struct SeesParentParentModule: ModuleAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(String.self, name: "contested") { _ in "parent graph" }
    }
}

@Suite struct ModuleForwarderTests {
    private func entry(_ name: String, in container: Container) throws -> ServiceEntry<String> {
        try #require(container.ownEntry(for: ServiceKey(String.self, name: name)) as? ServiceEntry<String>)
    }

    @Test func assemblingMakesNoForwarderUntilALookupFromElsewhereFindsTheRegistration() throws {
        let assembler = try ModuleAssembler([ForwarderTopModule()])
        let base = try #require(try assembler.resolver(for: ForwarderBaseModule.self) as? Container)
        let top = try #require(try assembler.resolver(for: ForwarderTopModule.self) as? Container)
        let seen = try entry("seen", in: base)
        #expect(!seen.words.isSet(.exportForwarder))
        // Resolved in its own module, the registration needs none.
        #expect(try base.require(String.self, name: "seen") == "base")
        #expect(!seen.words.isSet(.exportForwarder))
        // Found from the dependent, it resolves in its module: the base's "where", not the top's.
        #expect(try top.require(String.self, name: "top") == "base")
        let forwarder = try #require(seen.words.object(.exportForwarder, as: AnyObject.self))
        #expect(ObjectIdentifier(forwarder) != ObjectIdentifier(seen))
        // Kept: the dependent and the assembler's resolver find the same forwarder from then on.
        let key = ServiceKey(String.self, name: "seen")
        #expect(_withReadSection { top._lookupRecording(key)?.identifier } == ObjectIdentifier(forwarder))
        let root = try #require(assembler.resolver as? Container)
        #expect(_withReadSection { root._lookupRecording(key)?.identifier } == ObjectIdentifier(forwarder))
        #expect(try root.require(String.self, name: "seen") == "base")
    }

    @Test func threadsRacingTheFirstLookupFromADependentShareOneForwarderAndOneInstance() throws {
        for _ in 0..<20 {
            let assembler = try ModuleAssembler([ForwarderTopModule()])
            let top = try #require(try assembler.resolver(for: ForwarderTopModule.self) as? Container)
            let key = ServiceKey(NSObject.self)
            let found = Locked<[ObjectIdentifier?]>([])
            let made = Locked<[ObjectIdentifier]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let identifier = _withReadSection { top._lookupRecording(key)?.identifier }
                found.withLock { $0.append(identifier) }
                if let object = top.resolve(NSObject.self) { made.withLock { $0.append(ObjectIdentifier(object)) } }
            }
            let lookups = found.withLock { $0 }
            let instances = made.withLock { $0 }
            #expect(Set(lookups).count == 1)
            #expect(lookups.allSatisfy { $0 != nil })
            #expect(Set(instances).count == 1 && instances.count == 8)
        }
    }

    @Test func aDependencysCollectionElementResolvesInItsModule() throws {
        let assembler = try ModuleAssembler([ForwarderTopModule()])
        #expect(try assembler.resolver(for: ForwarderTopModule.self).resolveAll(String.self) == ["element of base"])
        #expect(try assembler.resolver.resolveAll(String.self) == ["element of base"])
    }

    @Test func resettingADependentLeavesItsDependenciesInstances() throws {
        let assembler = try ModuleAssembler([ForwarderTopModule()])
        let top = try #require(try assembler.resolver(for: ForwarderTopModule.self) as? Container)
        let first = try top.require(NSObject.self)
        top.resetObjectScope(.container)
        #expect(try top.require(NSObject.self) === first)
        // The module that owns it resets it.
        try assembler.reset(ForwarderBaseModule.self)
        #expect(try top.require(NSObject.self) !== first)
    }

    @Test func aDependentDoesNotReachTheParentGraphThroughADependencyBeforeItsLaterDependencies() throws {
        // Knit's scoped assemblers: every module of the child also falls back, last, to the parent's resolver. A
        // dependent searches that only last, after all of its dependencies, not inside the first one.
        let parent = try ModuleAssembler([SeesParentParentModule()])
        let child = try ModuleAssembler(
            [SeesParentTopModule()], overrideBehavior: .disableDefaultOverrides, parent: parent, validation: nil,
            postAssemble: nil, seesParent: true)
        #expect(
            try child.resolver(for: SeesParentTopModule.self).require(String.self, name: "contested") == "second module"
        )
        #expect(
            try child.resolver(for: SeesParentFirstModule.self).require(String.self, name: "contested")
                == "parent graph")
        let top = try #require(try child.resolver(for: SeesParentTopModule.self) as? Container)
        let labels = top.lookupChain().map(\.label)
        let parentRoot = try #require(labels.firstIndex(of: "ModuleAssembler"))
        #expect(labels.filter { $0 == "ModuleAssembler" }.count == 1)
        #expect(try #require(labels.firstIndex(of: "SeesParentSecondModule")) < parentRoot)
    }
}
