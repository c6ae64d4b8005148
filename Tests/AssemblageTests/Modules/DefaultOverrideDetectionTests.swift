import Assemblage
import Testing

@Suite("Default overrides follow the process")
struct DefaultOverrideDetectionTests {
    @Test func aTestProcessIsDetected() {
        // This suite runs under Swift Testing, in a binary that also links XCTest.
        #expect(OverrideBehavior.isRunningTests)
        #expect(OverrideBehavior.whenTesting == .useDefaultOverrides)
    }

    @Test func theDefaultUsesDefaultOverridesInTests() throws {
        let assembler = try ModuleAssembler([FeedModule()])
        #expect(assembler.overrideBehavior == .useDefaultOverrides)
        #expect(assembler.modules.contains { $0 == InMemoryStorageModule.self })
        #expect(!assembler.modules.contains { $0 == StorageModule.self })
    }

    @Test func anExplicitBehaviourWinsOverTheDetection() throws {
        let error = #expect(throws: ModuleAssemblyError.self) {
            _ = try ModuleAssembler([FeedModule()], overrideBehavior: .disableDefaultOverrides)
        }
        #expect(error?.codes == [.moduleNotProvided])
        let real = try ModuleAssembler(
            [FeedModule(), StorageModule(path: "db")],
            overrideBehavior: .disableDefaultOverrides)
        #expect(real.modules.contains { $0 == StorageModule.self })
    }

    @Test func aModulePassedInWinsOverItsDefaultOverrideInTests() throws {
        let assembler = try ModuleAssembler([FeedModule(), StorageModule(path: "db")])
        #expect(assembler.modules.contains { $0 == StorageModule.self })
        #expect(!assembler.modules.contains { $0 == InMemoryStorageModule.self })
    }
}
