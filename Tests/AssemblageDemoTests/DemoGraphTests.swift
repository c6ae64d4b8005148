import Assemblage
import AssemblageTesting
import Testing

@testable import assemblage_demo

// assemblage-check: validation-tests
// The AssemblageGraphCheck plugin, which checks this target, generates a test that asserts the graph of each root
// module of the demo is valid (the comment above asks for it); this suite holds what it cannot generate.

@Suite struct DemoGraphTests {
    @Test func shopGraphWithItsRealDatabaseIsValid() throws {
        let assembler = try ModuleAssembler([ShopAppModule(), DatabaseModule(path: "/tmp/shop.db")])
        _ = assertValidGraph(assembler)
    }
}
