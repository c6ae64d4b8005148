import Assemblage
import Testing

/// Needs a payments module that nobody can provide.
struct PaymentsModule: RecordingModule {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    let merchantID: String
    func register(into container: Container) {}
}
struct StoreFrontModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, PaymentsModule.self] }
    func register(into container: Container) {}
}
struct ShopAppModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [StoreFrontModule.self] }
    func register(into container: Container) {}
}

// A cycle: Auth → Session → Token → Auth (which the build-time graph check reports, hence the comment below).
struct AuthModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [SessionModule.self] }
    func register(into container: Container) {}
}
struct SessionModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [TokenModule.self] }
    func register(into container: Container) {}
}
struct TokenModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [AuthModule.self] }  // assemblage-check: ignore
    func register(into container: Container) {}
}
struct SelfDependentModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [SelfDependentModule.self] }  // assemblage-check: ignore
    func register(into container: Container) {}
}

// A default override that forgot to declare what it replaces.
struct CacheModule: RecordingModule, AutoInitModuleAssembly, DefaultModuleAssemblyOverride {
    typealias OverrideType = ForgetfulCacheFake
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func register(into container: Container) {}
}
struct ForgetfulCacheFake: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func register(into container: Container) {}
}
struct CacheUserModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [CacheModule.self] }
    func register(into container: Container) {}
}

// Modules that replace each other.
struct PingModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [PongModule.self] }
    func register(into container: Container) {}
}
struct PongModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [PingModule.self] }
    func register(into container: Container) {}
}

/// Lists itself in `replaces`.
struct SelfReplacingModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [SelfReplacingModule.self] }
    func register(into container: Container) {}
}
/// Reaches the self-replacing module as a dependency.
struct SelfReplacingUserModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [SelfReplacingModule.self] }
    func register(into container: Container) {}
}
/// Reaches the module that replaces and depends on NetworkModule as a dependency.
struct LoggingNetworkUserModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [LoggingNetworkModule.self] }
    func register(into container: Container) {}
}
/// Replaces InMemoryStorageModule (itself a replacement of StorageModule) and depends on StorageModule: through
/// the chain of replacements, the dependency is the module itself.
struct WrappingStorageModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [StorageModule.self] }
    static var replaces: [any ModuleAssembly.Type] { [InMemoryStorageModule.self] }
    func register(into container: Container) {}
}

/// Everything wrong at once.
struct BrokenAppModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [StoreFrontModule.self, AuthModule.self, CacheUserModule.self]
    }
    func register(into container: Container) {}
}

/// Fails the test if it registers anything.
struct SideEffectModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [PaymentsModule.self] }
    func register(into container: Container) {}
}

func assemblyError(_ body: () throws -> Void) -> ModuleAssemblyError? {
    do {
        try body()
        return nil
    } catch let error as ModuleAssemblyError {
        return error
    } catch {
        return nil
    }
}

@Suite struct ModuleErrorTests {
    @Test func missingModuleIsReportedWithItsDependencyPath() throws {
        let error = try #require(assemblyError { _ = try ModuleAssembler([ShopAppModule()]) })
        #expect(error.codes == [.moduleNotProvided])
        let problem = try #require(error.problems.first)
        #expect(problem.module == "PaymentsModule")
        #expect(problem.path == ["ShopAppModule", "StoreFrontModule", "PaymentsModule"])
        #expect(problem.pathDescription == "ShopAppModule → StoreFrontModule → PaymentsModule")
        #expect(error.description.contains("Dependency path: ShopAppModule → StoreFrontModule → PaymentsModule"))
        #expect(error.description.contains("conform it to AutoInitModuleAssembly"))
    }

    @Test func passingTheMissingModuleFixesIt() throws {
        let assembler = try ModuleAssembler([ShopAppModule(), PaymentsModule(merchantID: "m-1")])
        #expect(moduleNames(assembler) == ["NetworkModule", "PaymentsModule", "StoreFrontModule", "ShopAppModule"])
    }

    @Test func missingStorageInTheAppTreeNamesTheFirstPath() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler([AppModule()], overrideBehavior: .disableDefaultOverrides)
            })
        #expect(error.problems.count == 1)
        #expect(error.problems[0].pathDescription == "AppModule → FeedModule → StorageModule")
    }

    @Test func twoReplacementsOfOneModuleConflict() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler([AppModule(), InMemoryStorageModule(), RecordingStorageModule()])
            })
        #expect(error.codes == [.conflictingReplacements])
        #expect(error.problems[0].module == "StorageModule")
        #expect(error.problems[0].related == ["InMemoryStorageModule", "RecordingStorageModule"])
        #expect(error.problems[0].path == ["AppModule", "FeedModule", "StorageModule"])
        #expect(error.description.contains("StorageModule is replaced by more than one module"))
        #expect(error.description.contains("Dependency path: AppModule → FeedModule → StorageModule"))
    }

    @Test func conflictingReplacementsOfAModuleNoOneUsesEndWithTheReplacedModule() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler([InMemoryStorageModule(), RecordingStorageModule()])
            })
        #expect(error.codes == [.conflictingReplacements])
        #expect(error.problems[0].path.last == "StorageModule")
    }

    @Test func explicitReplacementConflictsWithOneReachedAsADependency() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler([AppModule(), RecordingStorageModule(), StorageTestSupportModule()])
            })
        #expect(error.codes == [.conflictingReplacements])
        #expect(error.problems[0].path == ["AppModule", "FeedModule", "StorageModule"])
    }

    @Test func defaultOverrideThatDoesNotReplaceItsBaseIsInvalid() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler([CacheUserModule()], overrideBehavior: .useDefaultOverrides)
            })
        #expect(error.codes == [.invalidDefaultOverride])
        #expect(error.problems[0].module == "CacheModule")
        #expect(error.problems[0].related == ["ForgetfulCacheFake"])
        #expect(error.problems[0].path == ["CacheUserModule", "CacheModule"])
        #expect(error.description.contains("static var replaces: [any ModuleAssembly.Type] { [CacheModule.self] }"))
        // With default overrides disabled the override is not consulted.
        #expect(try ModuleAssembler([CacheUserModule()], overrideBehavior: .disableDefaultOverrides).modules.count == 2)
    }

    @Test func cycleIsPrinted() throws {
        let error = try #require(assemblyError { _ = try ModuleAssembler([AuthModule()]) })
        #expect(error.codes == [.cycle])
        #expect(error.problems[0].path == ["AuthModule", "SessionModule", "TokenModule", "AuthModule"])
        #expect(error.description.contains("AuthModule → SessionModule → TokenModule → AuthModule"))
    }

    @Test func cycleReachedFromSeveralRootsIsReportedOnce() throws {
        let error = try #require(
            assemblyError { _ = try ModuleAssembler([AuthModule(), TokenModule(), SessionModule()]) })
        #expect(error.codes == [.cycle])
    }

    @Test func moduleThatDependsOnItselfIsACycle() throws {
        let error = try #require(assemblyError { _ = try ModuleAssembler([SelfDependentModule()]) })
        #expect(error.codes == [.cycle])
        #expect(error.problems[0].pathDescription == "SelfDependentModule → SelfDependentModule")
    }

    @Test func modulesReplacingEachOtherAreReported() throws {
        let error = try #require(assemblyError { _ = try ModuleAssembler([PingModule(), PongModule()]) })
        #expect(error.codes == [.replacementCycle])
        #expect(error.description.contains("Modules replace each other in a loop"))
    }

    @Test func moduleThatReplacesItselfIsAnErrorNamingItsPath() throws {
        let log = ModuleEventLog.recording {
            let passedIn = assemblyError { _ = try ModuleAssembler([SelfReplacingModule()]) }
            #expect(passedIn?.codes == [.replacesItself])
            #expect(passedIn?.problems.first?.module == "SelfReplacingModule")
            #expect(passedIn?.problems.first?.path == ["SelfReplacingModule"])
            #expect(
                passedIn?.description == "SelfReplacingModule lists itself in its `replaces`; a module cannot "
                    + "stand in for itself.\n  Dependency path: SelfReplacingModule\n"
                    + "  Fix: remove SelfReplacingModule.self from SelfReplacingModule.replaces.")

            let reached = assemblyError { _ = try ModuleAssembler([SelfReplacingUserModule()]) }
            #expect(reached?.codes == [.replacesItself])
            #expect(reached?.problems.first?.path == ["SelfReplacingUserModule", "SelfReplacingModule"])
        }
        #expect(log.events.isEmpty)
    }

    @Test func moduleThatReplacesAndDependsOnTheSameModuleIsAnErrorNamingItsPath() throws {
        let log = ModuleEventLog.recording {
            let error = assemblyError { _ = try ModuleAssembler([LoggingNetworkUserModule()]) }
            #expect(error?.codes == [.dependsOnReplacedModule])
            let problem = error?.problems.first
            #expect(problem?.module == "LoggingNetworkModule")
            #expect(problem?.related == ["NetworkModule"])
            #expect(problem?.path == ["LoggingNetworkUserModule", "LoggingNetworkModule"])
            #expect(
                problem?.description.hasPrefix(
                    "LoggingNetworkModule both replaces and depends on NetworkModule: "
                        + "the replaced module is not assembled, so the dependency would be LoggingNetworkModule itself.\n"
                        + "  Dependency path: LoggingNetworkUserModule → LoggingNetworkModule\n"
                        + "  Fix: remove NetworkModule.self from LoggingNetworkModule.dependencies") == true)
        }
        #expect(log.events.isEmpty)
    }

    @Test func dependencyOnAModuleReplacedThroughAChainIsTheSameError() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler([ProfileModule(), InMemoryStorageModule(), WrappingStorageModule()])
            })
        #expect(error.codes == [.dependsOnReplacedModule])
        #expect(error.problems[0].module == "WrappingStorageModule")
        #expect(error.problems[0].related == ["StorageModule"])
        #expect(error.problems[0].path.last == "WrappingStorageModule")
    }

    @Test func sameModulePassedTwiceIsReported() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler([StorageModule(path: "a"), StorageModule(path: "b")])
            })
        #expect(error.codes == [.duplicateModule])
        #expect(error.problems[0].module == "StorageModule")
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let error = try #require(
            assemblyError {
                _ = try ModuleAssembler(
                    [BrokenAppModule(), InMemoryStorageModule(), RecordingStorageModule()],
                    overrideBehavior: .useDefaultOverrides)
            })
        #expect(Set(error.codes) == [.conflictingReplacements, .moduleNotProvided, .cycle, .invalidDefaultOverride])
        #expect(error.problems.count == 4)
        #expect(error.description.hasPrefix("The module graph cannot be assembled (4 problems):"))
        #expect(error.description.contains("  1. "))
        #expect(error.description.contains("  4. "))
    }

    @Test func nothingIsAssembledWhenTheGraphIsInvalid() throws {
        let log = ModuleEventLog.recording {
            #expect(throws: ModuleAssemblyError.self) {
                _ = try ModuleAssembler([NetworkModule(), AnalyticsModule(), SideEffectModule()])
            }
        }
        #expect(log.events.isEmpty)
    }

    @Test func unknownModuleIsReportedByResolverResetAndResetAll() throws {
        let assembler = try ModuleAssembler([AnalyticsModule()])
        for attempt in [
            { _ = try assembler.resolver(for: FeedModule.self) },
            { try assembler.reset(FeedModule.self) },
            { try assembler.resetAll(FeedModule.self) },
        ] {
            let error = try #require(assemblyError(attempt))
            #expect(error.codes == [.moduleNotInGraph])
            #expect(error.problems[0].module == "FeedModule")
            #expect(error.problems[0].related == ["NetworkModule", "AnalyticsModule"])
            #expect(
                error.description == "FeedModule is not in this module assembler's graph.\n"
                    + "  Modules in the graph: NetworkModule, AnalyticsModule")
        }
    }
}
