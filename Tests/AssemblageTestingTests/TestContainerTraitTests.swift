import Assemblage
import AssemblageTesting
import Testing

@Suite struct TestContainerTraitTests {
    @Test(.testContainer(base: App.container))
    func testSeesAFreshChildOfTheBase() throws {
        let root = Container.root
        #expect(root !== App.container)
        #expect(root.fallbacks.first === App.container)
        #expect(try root.require(Greeter.self).greeting.text == "Hello from the app")
    }

    @Test(.testContainer(base: App.container))
    func stubsOverrideTheBaseForNestedDependenciesAndDoNotLeak() throws {
        Container.root.register(Greeting.self) { _ in Greeting(text: "stub") }
        #expect(try Container.root.require(Greeter.self).greeting.text == "stub")
        #expect(try App.container.require(Greeter.self).greeting.text == "Hello from the app")
    }

    @Test(.testContainer(base: App.container) { $0.register(Greeting.self) { _ in Greeting(text: "configured") } })
    func configureClosureRegistersBeforeTheTestRuns() throws {
        #expect(try Container.root.require(Greeter.self).greeting.text == "configured")
    }

    @Test(.testContainer(base: App.container), arguments: 0..<16)
    func everyCaseGetsItsOwnContainerWhileRunningInParallel(index: Int) async throws {
        #expect(!Container.root.hasAnyRegistration(of: Int.self))
        Container.root.register(Int.self) { _ in index }
        try await Task.sleep(nanoseconds: 1_000_000)
        #expect(try Container.root.require(Int.self) == index)
        let fromChild = try await Task { try Container.root.require(Int.self) }.value
        #expect(fromChild == index)
    }

    /// Without a base, a test's container layers over whatever is the root when the test starts: here the
    /// suite's own test container (so that no test here reads the process-wide root).
    @Suite(.testContainer(base: App.container))
    struct NestedTraits {
        @Test(.testContainer)
        func withoutABaseTheContainerLayersOverTheRoot() throws {
            let suiteContainer = try #require(Container.root.fallbacks.first)
            #expect(suiteContainer.fallbacks.first === App.container)
            #expect(try Container.root.require(Greeter.self).greeting.text == "Hello from the app")
        }
    }

    @Test func theTraitScopesTestCasesOnly() throws {
        let trait = TestContainerTrait.testContainer(base: App.container)
        let test = try #require(Test.current)
        #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
        #expect(trait.scopeProvider(for: test, testCase: Test.Case.current) != nil)
        #expect(trait.isRecursive)
    }

    @Test func aThrowingConfigureFailsBeforeTheTestRuns() async throws {
        let trait = TestContainerTrait.testContainer(base: App.container) { _ in throw SetupFailed() }
        let test = try #require(Test.current)
        let ran = Flag()
        await #expect(throws: SetupFailed.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.set() }
        }
        #expect(!ran.isSet)
    }

    @Test func provideScopeInstallsTheContainerOnlyWhileTheTestRuns() async throws {
        let trait = TestContainerTrait.testContainer(base: App.container)
        let test = try #require(Test.current)
        let outside = Container.root
        let inside = Slot()
        try await trait.provideScope(for: test, testCase: Test.Case.current) { inside.set(Container.root) }
        #expect(inside.value !== outside)
        #expect(inside.value?.fallbacks.first === App.container)
        #expect(Container.root === outside)
    }
}

@Suite(.testContainer(base: App.container))
struct SuiteLevelTestContainerTests {
    @Test func firstTestRegistersOnlyForItself() {
        #expect(!Container.root.hasAnyRegistration(of: String.self, name: "mark"))
        Container.root.register(String.self, name: "mark") { _ in "first" }
        #expect(Container.root.resolve(String.self, name: "mark") == "first")
    }

    @Test func secondTestRegistersOnlyForItself() {
        #expect(!Container.root.hasAnyRegistration(of: String.self, name: "mark"))
        Container.root.register(String.self, name: "mark") { _ in "second" }
        #expect(Container.root.resolve(String.self, name: "mark") == "second")
    }
}
