import Assemblage
import Testing

private protocol ManyInputsModule: ModuleAssembly, AutoInitModuleAssembly {}
extension ManyInputsModule {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {}
}
private struct ManyInputs1: ManyInputsModule {}
private struct ManyInputs2: ManyInputsModule {}
private struct ManyInputs3: ManyInputsModule {}
private struct ManyInputs4: ManyInputsModule {}
private struct ManyInputs5: ManyInputsModule {}
private struct ManyInputs6: ManyInputsModule {}
private struct ManyInputs7: ManyInputsModule {}
private struct ManyInputs8: ManyInputsModule {}
private struct ManyInputsPulledIn: ManyInputsModule {}
private struct ManyInputsPulling: ManyInputsModule {
    static var dependencies: [any ModuleAssembly.Type] { [ManyInputsPulledIn.self, ManyInputs1.self] }
}

@Suite("Module tree")
struct ModuleTreeTests {
    @Test func aTreeOfManyInputsListsWhatTheyPulledInAndNotTheInputsAgain() throws {
        // Nine modules passed in (the tree then tells inputs apart by a set): one pulls in a module not passed in,
        // and a module that was passed in.
        let inputs: [any ModuleAssembly] = [
            ManyInputsPulling(), ManyInputs1(), ManyInputs2(), ManyInputs3(), ManyInputs4(), ManyInputs5(),
            ManyInputs6(), ManyInputs7(), ManyInputs8(),
        ]
        let tree = try ModuleAssembler(inputs).tree
        #expect(tree.inputs.count == 9)
        #expect(tree.modules == tree.inputs + ["ManyInputsPulledIn"])
        #expect(tree.source(of: "ManyInputsPulledIn") == "ManyInputsPulling")
        #expect(tree.source(of: "ManyInputs1") == nil)
        #expect(tree.path(to: ManyInputsPulledIn.self) == ["ManyInputsPulling", "ManyInputsPulledIn"])
    }

    @Test func textFormListsInputsAndIndentsWhatEachPulledIn() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        #expect(
            assembler.tree.description == """
                AppModule
                  - CheckoutModule
                  - FeedModule
                    - AnalyticsModule
                    - NetworkModule
                  - ProfileModule
                StorageModule
                """)
    }

    @Test func pathLeadsFromAnInputToTheModule() throws {
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        #expect(assembler.tree.path(to: NetworkModule.self) == ["AppModule", "FeedModule", "NetworkModule"])
        #expect(assembler.tree.path(to: "AnalyticsModule") == ["AppModule", "FeedModule", "AnalyticsModule"])
        #expect(assembler.tree.path(to: AppModule.self) == ["AppModule"])
        #expect(assembler.tree.source(of: "NetworkModule") == "FeedModule")
        #expect(assembler.tree.source(of: "AppModule") == nil)
    }

    @Test func copiesOfATreeAskedFromManyTasksAtOnceGiveTheSameSources() async throws {
        // The table of sources is built on first use; every copy and every task sees the same one.
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        let tree = assembler.tree
        let sources = await withTaskGroup(of: [String?].self) { group in
            for _ in 0..<8 {
                let copy = tree
                group.addTask { ["NetworkModule", "AnalyticsModule", "AppModule"].map { copy.source(of: $0) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sources.count == 8)
        #expect(sources.allSatisfy { $0 == ["FeedModule", "FeedModule", nil] })
        #expect(tree == assembler.tree)
    }

    @Test func aModuleOutsideTheTreeHasNoPath() throws {
        let assembler = try ModuleAssembler([FeedModule(), StorageModule(path: "app.db")])
        #expect(assembler.tree.path(to: CheckoutModule.self).isEmpty)
        #expect(assembler.tree.source(of: "CheckoutModule") == nil)
        #expect(assembler.tree.standIn(for: "CheckoutModule") == nil)
        #expect(!assembler.tree.modules.contains("CheckoutModule"))
    }

    @Test func replacedModuleShowsTheModuleUsedInItsPlace() throws {
        let assembler = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        #expect(assembler.tree.standIn(for: "StorageModule") == "InMemoryStorageModule")
        #expect(
            assembler.tree.description == """
                FeedModule
                  - AnalyticsModule
                  - NetworkModule
                  - StorageModule (InMemoryStorageModule)
                InMemoryStorageModule
                """)
    }

    @Test func defaultOverrideIsShownAsTheStandIn() throws {
        let assembler = try ModuleAssembler([FeedModule()], overrideBehavior: .useDefaultOverrides)
        #expect(assembler.tree.standIn(for: "StorageModule") == "InMemoryStorageModule")
        #expect(assembler.tree.description.contains("  - StorageModule (InMemoryStorageModule)"))
        #expect(assembler.tree.path(to: StorageModule.self) == ["FeedModule", "StorageModule"])
    }

    @Test func everyModuleIsListedOnceUnderTheModuleThatAskedFirst() throws {
        // NetworkModule is asked for by FeedModule, AnalyticsModule, ProfileModule and CheckoutModule.
        let assembler = try ModuleAssembler([AppModule(), StorageModule(path: "app.db")])
        let lines = assembler.tree.description.split(separator: "\n")
        #expect(lines.filter { $0.hasSuffix("NetworkModule") }.count == 1)
        #expect(assembler.tree.modules.count == Set(assembler.tree.modules).count)
    }

    @Test func moduleReusedFromTheParentIsListedWithoutAStandIn() throws {
        let parent = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        let child = try ModuleAssembler([ProfileModule()], parent: parent)
        #expect(
            child.tree.description == """
                ProfileModule
                  - NetworkModule
                  - StorageModule
                """)
        #expect(child.tree.standIn(for: "StorageModule") == nil)
    }

    @Test func treesCompareByTheirContent() throws {
        let first = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        let second = try ModuleAssembler([FeedModule(), InMemoryStorageModule()])
        let other = try ModuleAssembler([InMemoryStorageModule(), FeedModule()])
        #expect(first.tree == second.tree)
        #expect(first.tree != other.tree)
    }
}
