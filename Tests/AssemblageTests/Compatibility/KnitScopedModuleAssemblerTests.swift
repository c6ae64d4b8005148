import Assemblage
import Foundation
import Testing

private protocol AppResolver: Resolver {}
private protocol SessionResolver: Resolver {}
extension Container: AppResolver, SessionResolver {}

private struct KnitClock: Sendable { let now: Int }
private struct KnitInbox: Sendable { let clock: KnitClock }

private struct KnitClockModule: AutoInitModuleAssembly {
    typealias TargetResolver = any AppResolver
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) { container.register(KnitClock.self) { _ in KnitClock(now: 42) } }
}

/// Generated dependencies name the app's KnitClockModule; scoping drops it, and the parent graph provides it.
private struct KnitInboxModule: GeneratedModuleAssembly, AutoInitModuleAssembly {
    typealias TargetResolver = any SessionResolver
    static var generatedDependencies: [any ModuleAssembly.Type] { [KnitClockModule.self] }
    func assemble(container: Container) {
        // The parent graph provides KnitClock, which the build-time check cannot see.
        container.register(KnitInbox.self) { r in
            KnitInbox(clock: try r.require(KnitClock.self))  // assemblage-check: ignore
        }
    }
}

/// Declares its dependencies itself, so its generated ones are ignored.
private struct KnitExplicitModule: GeneratedModuleAssembly, AutoInitModuleAssembly {
    typealias TargetResolver = any SessionResolver
    static var generatedDependencies: [any ModuleAssembly.Type] { [KnitInboxModule.self] }
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

private struct KnitPlainModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}

private struct KnitInterfaceModule: AbstractAssembly, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) { container.registerAbstract(KnitClock.self) }
}

private struct KnitImplementationModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [KnitInterfaceModule.self] }
    func assemble(container: Container) { container.register(KnitClock.self) { _ in KnitClock(now: 1) } }
}

/// Broken on purpose: does not register what the abstract module it replaces declares.
private struct KnitForgetfulImplementationModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [KnitInterfaceModule.self] }  // assemblage-check: ignore
    func assemble(container: Container) {}
}

private struct KnitClockUser: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [KnitInterfaceModule.self] }
    func assemble(container: Container) { container.register(Int.self) { r in try r.require(KnitClock.self).now } }
}

@Suite("Knit's resolver-scoped assemblers and abstract assemblies")
struct KnitScopedModuleAssemblerTests {
    @Test func modulesTargetTheirResolverAndScopingKeepsOnlyThoseOfTheSameResolver() {
        #expect(KnitClockModule.resolverType == (any AppResolver).self)
        #expect(KnitPlainModule.resolverType == (any Resolver).self)
        #expect(KnitInboxModule.dependencies.isEmpty)
        #expect(KnitExplicitModule.dependencies.isEmpty)
        #expect(
            KnitInboxModule.scoped([KnitClockModule.self, KnitExplicitModule.self]).map { "\($0)" } == [
                "KnitExplicitModule"
            ])
    }

    @Test func aSessionGraphResolvesWhatItsParentGraphRegisters() throws {
        let app = ScopedModuleAssembler<any AppResolver>(
            [KnitClockModule()], overrideBehavior: .disableDefaultOverrides)
        let session = ScopedModuleAssembler<any SessionResolver>(
            parent: app.internalAssembler, [KnitInboxModule()],
            overrideBehavior: .disableDefaultOverrides)
        #expect(app.assemblyError == nil && session.assemblyError == nil)
        #expect(try session.resolver.require(KnitInbox.self).clock.now == 42)
        #expect(app.resolver.resolve(KnitInbox.self) == nil)
    }

    @Test func aModuleOfAnotherResolverFailsTheAssemblyWithoutStoppingTheProcess() {
        let session = ScopedModuleAssembler<any SessionResolver>(
            [KnitClockModule()],
            overrideBehavior: .disableDefaultOverrides)
        #expect(session.assemblyError?.codes == [.assemblyValidationFailed])
        #expect(
            session.assemblyError?.problems.first?.related.first.map {
                $0.contains("targets AppResolver") && $0.contains("modules of SessionResolver")
            } == true)
        #expect(session.internalAssembler.modules.isEmpty)
    }

    @Test func postAssembleRegistersIntoTheScopedResolver() {
        let app = ScopedModuleAssembler<any Resolver>([KnitPlainModule()]) { container in
            container.register(String.self) { _ in "posted" }
        }
        #expect(app.resolver.resolve(String.self) == "posted")
    }

    @Test func aReplacedAbstractAssemblyIsCheckedAgainstItsReplacement() throws {
        let assembler = try ModuleAssembler(
            [KnitClockUser(), KnitImplementationModule()],
            overrideBehavior: .disableDefaultOverrides)
        #expect(try assembler.resolver.require(Int.self) == 1)
        #expect(!assembler.modules.contains { $0 == KnitInterfaceModule.self })

        let failed = ModuleAssembler(
            parent: nil, [KnitClockUser(), KnitForgetfulImplementationModule()],
            overrideBehavior: .disableDefaultOverrides)
        #expect(failed.assemblyError?.codes == [.abstractRegistrationNotProvided])
        #expect(failed.assemblyError?.problems.first?.module == "KnitForgetfulImplementationModule")
        #expect(failed.assemblyError?.abstractRegistrationErrors?.errors.map(\.serviceType) == ["KnitClock"])
    }

    @Test func knitSpellingsOfOverrideBehaviorAndContainerValidation() {
        let behavior = OverrideBehavior(allowDefaultOverrides: false, useAbstractPlaceholders: true)
        #expect(!behavior.allowDefaultOverrides && behavior.useAbstractPlaceholders)

        let container = Container()
        container.registerAbstract(String.self)
        container.registerAbstract(String.self, name: "named")
        container.register(String.self) { _ in "x" }
        #expect {
            try container.validateAbstractRegistrations()
        } throws: { error in
            let errors = (error as? Container.AbstractRegistrationErrors)?.errors ?? []
            return errors.map(\.name) == ["named"]
                && errors.first?.file.hasSuffix("KnitScopedModuleAssemblerTests.swift") == true
        }
        container.register(String.self, name: "named") { _ in "y" }
        #expect(throws: Never.self) { try container.validateAbstractRegistrations() }
    }

    @Test func unprovidedAbstractRegistrationsDescribeThemselvesAsTheirLocalizedDescription() {
        let container = Container()
        container.registerAbstract(String.self)
        container.registerAbstract(Int.self, name: "count")
        #expect {
            try container.validateAbstractRegistrations()
        } throws: { error in
            let lines = error.localizedDescription.split(separator: "\n")
            return lines.count == 2 && lines[0].contains("String") && lines[1].contains(#"Int (name: "count")"#)
                && error.localizedDescription == "\(error)"
        }
    }
}
