import Assemblage
import Testing

private struct ValidationFailure: Error, CustomStringConvertible {
    var description: String { "modules of this app must be auto-init" }
}

private struct FakeNetworkModule: FakeAssembly {
    typealias ReplacedAssembly = NetworkModule
    func assemble(container: Container) {
        container.register(String.self, name: "baseURL") { _ in "https://fake.example.com" }
        container.register(HTTPTransport.self) { _ in LiveTransport(baseURL: "fake") }
    }
}

@Suite("Knit's module assembler spellings")
struct KnitModuleAssemblerTests {
    @Test func knitInitializerTakesTheParentFirstAndAssembles() throws {
        let parent = ModuleAssembler([NetworkModule()], postAssemble: nil)
        let child = ModuleAssembler(parent: parent, [FeedModule()], overrideBehavior: .useDefaultOverrides)
        #expect(child.assemblyError == nil)
        #expect(child.isRegistered(NetworkModule.self))
        #expect(child.isRegistered(StorageModule.self))  // its default override stands for it
        #expect(!child.registeredModules.contains { $0 == NetworkModule.self })
        #expect(try child.resolver.require(FeedService.self).store.kind == "memory")
    }

    @Test func assemblageInitializerStillThrowsWhenCalledWithoutKnitArguments() {
        #expect(throws: ModuleAssemblyError.self) {
            _ = try ModuleAssembler([FeedModule()], overrideBehavior: .disableDefaultOverrides)
        }
    }

    @Test func knitInitializerKeepsTheErrorInsteadOfStoppingTheProcess() throws {
        let parent = try ModuleAssembler([NetworkModule()])
        let log = ModuleEventLog.recording {
            let failed = ModuleAssembler(parent: parent, [FeedModule()], overrideBehavior: .disableDefaultOverrides)
            #expect(failed.assemblyError?.codes == [.moduleNotProvided])
            #expect(failed.modules.isEmpty)
            #expect(failed.resolver.resolve(FeedService.self) == nil)
            #expect(failed.resolver.resolve(HTTPTransport.self) != nil)  // the parent's modules still resolve
        }
        #expect(log.events("assemble").isEmpty)
    }

    @Test func assemblyValidationSeesEveryModuleToAssembleInOrder() throws {
        let seen = ModuleEventLog()
        let assembler = ModuleAssembler(
            [FeedModule(), StorageModule(path: "db")],
            overrideBehavior: .disableDefaultOverrides,
            assemblyValidation: { seen.append("validated \($0)") })
        #expect(assembler.assemblyError == nil)
        #expect(seen.events("validated") == ["NetworkModule", "StorageModule", "AnalyticsModule", "FeedModule"])
    }

    @Test func assemblyValidationThatThrowsFailsBeforeAnythingIsRegistered() throws {
        let log = ModuleEventLog.recording {
            let assembler = ModuleAssembler(
                [FeedModule(), StorageModule(path: "db")],
                overrideBehavior: .disableDefaultOverrides,
                assemblyValidation: { type in
                    guard type != AnalyticsModule.self else { throw ValidationFailure() }
                })
            let error = assembler.assemblyError
            #expect(error?.codes == [.assemblyValidationFailed])
            #expect(error?.problems.first?.module == "AnalyticsModule")
            #expect(error?.problems.first?.path == ["FeedModule", "AnalyticsModule"])
            #expect(error?.problems.first?.related == ["modules of this app must be auto-init"])
        }
        #expect(log.events("assemble").isEmpty)
    }

    @Test func postAssembleRegistersIntoTheRootBeforeTheLoadedHooks() throws {
        let log = ModuleEventLog.recording {
            let assembler = ModuleAssembler(
                [NetworkModule()],
                postAssemble: { container in
                    ModuleEventLog.current?.append("postAssemble")
                    container.register(String.self, name: "extra") { _ in "from postAssemble" }
                })
            #expect(assembler.resolver.resolve(String.self, name: "extra") == "from postAssemble")
        }
        #expect(log.events == ["assemble NetworkModule", "postAssemble", "loaded NetworkModule"])
    }

    @Test func dependencyTreeIsReachableFromEveryResolverOfTheAssembler() throws {
        let assembler = try ModuleAssembler(
            [FeedModule(), StorageModule(path: "db")],
            overrideBehavior: .disableDefaultOverrides)
        #expect(assembler.resolver._dependencyTree() == assembler.tree)
        #expect(try assembler.resolver(for: NetworkModule.self)._dependencyTree() == assembler.tree)
        let scope = assembler.makeScope()
        #expect(scope._dependencyTree() == assembler.tree)
        let tree = assembler.resolver._dependencyTree()
        #expect(tree.sourcePath(moduleType: NetworkModule.self) == ["FeedModule", "NetworkModule"])
        #expect(tree.sourcePath(moduleName: "NetworkModule") == ["FeedModule", "NetworkModule"])
        #expect(tree.sourcePathString(moduleType: NetworkModule.self) == "Dependency path: FeedModule -> NetworkModule")
        #expect(tree.debugDescription == tree.description)
    }

    @Test func dependencyTreeOutlivesTheAssemblerWhileItsResolverLives() throws {
        var assembler: ModuleAssembler? = try ModuleAssembler(
            [FeedModule(), StorageModule(path: "db")],
            overrideBehavior: .disableDefaultOverrides)
        let expected = assembler?.tree
        let resolver = try #require(assembler?.resolver)
        let module = try #require(try assembler?.resolver(for: NetworkModule.self))
        weak let released = assembler
        assembler = nil
        #expect(released == nil, "the assembler itself is gone")
        #expect(resolver._dependencyTree() == expected)
        #expect(module._dependencyTree().sourcePath(moduleType: NetworkModule.self) == ["FeedModule", "NetworkModule"])
    }

    @Test func containerOfNoAssemblerHasAnEmptyTree() {
        let tree = Container()._dependencyTree()
        #expect(tree.inputs.isEmpty)
        #expect(tree.description.isEmpty)
    }

    @Test func fakeAssemblyReplacesItsModuleAndCreatesItself() throws {
        #expect(FakeNetworkModule.replaces.map { "\($0)" } == ["NetworkModule"])
        #expect(FakeNetworkModule.dependencies.isEmpty)
        let assembler = try ModuleAssembler([FeedModule(), FakeNetworkModule()])
        #expect(try assembler.resolver.require(HTTPTransport.self).baseURL == "fake")
        #expect(assembler.tree.standIn(for: "NetworkModule") == "FakeNetworkModule")
    }

    @Test func knitOverrideBehaviorNamesMapOntoAssemblages() {
        #expect(OverrideBehavior.defaultOverridesWhenTesting == .whenTesting)
        #expect(OverrideBehavior(allowDefaultOverrides: true) == .useDefaultOverrides)
        #expect(!OverrideBehavior.disableDefaultOverrides.allowDefaultOverrides)
    }
}
