#if canImport(Testing)
public import Assemblage
public import Testing

/// A Swift Testing trait that gives each test a fresh container, layered over a base container and
/// installed as the task's root while the test runs.
///
/// Each test — and each case of a parameterised test — gets its own `Container(parent: base)`. Everything
/// the base registers resolves; what the test registers into ``Assemblage/Container/root`` (stubs,
/// mocks) wins over the base and disappears with the test. The container is installed as a task-local
/// value, so tests keep running in parallel and never see each other's registrations:
///
/// ```swift
/// import AssemblageTesting
///
/// @Suite(.testContainer(base: AppContainer.shared))
/// struct ProfileTests {
///     @Test func showsTheStubbedUser() throws {
///         Container.root.register(UserService.self) { _ in StubUserService(name: "Ada") }
///         let model = try Container.root.require(ProfileModel.self)
///         #expect(model.title == "Ada")
///     }
///
///     @Test(.testContainer { $0.register(Clock.self) { _ in FixedClock(hour: 9) } })
///     func greetsInTheMorning() throws { … }
/// }
/// ```
///
/// On a suite the trait applies to every test in it (and in nested suites). For XCTest, use
/// ``withTestContainer(base:label:_:)``.
public struct TestContainerTrait: TestTrait, SuiteTrait, TestScoping {
    /// The container to layer over; `nil` for the root container outside the test.
    private let base: Container?
    /// Registers into each test's container before the test runs.
    private let configure: (@Sendable (Container) throws -> Void)?

    init(base: Container?, configure: (@Sendable (Container) throws -> Void)?) {
        self.base = base
        self.configure = configure
    }

    /// `true`: on a suite, every test in it (and in nested suites) gets its own container.
    public var isRecursive: Bool { true }

    /// Scopes each test case, never a suite or a whole parameterised test: every case gets a fresh container.
    ///
    /// - Parameters:
    ///   - test: The test or suite the trait applies to.
    ///   - testCase: The test case about to run, or `nil` for the test or suite as a whole.
    /// - Returns: The trait for a test case, `nil` otherwise.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> TestContainerTrait? {
        testCase == nil ? nil : self
    }

    /// Makes the test's container, lets the trait's closure register into it, and runs the test with it as
    /// the root container.
    ///
    /// - Parameters:
    ///   - test: The test about to run.
    ///   - testCase: The test case about to run.
    ///   - function: Runs the test case.
    /// - Throws: What the configuring closure or the test throws; when the closure throws, the test does not run.
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let container = Container(parent: base ?? Container.root, label: "test \(test.name)")
        try configure?(container)
        try await Container.withRoot(container) { try await function() }
    }
}

extension Trait where Self == TestContainerTrait {
    /// A fresh container for each test, layered over the root container, installed as the root.
    ///
    /// ```swift
    /// @Test(.testContainer) func registersOnlyForItself() { … }
    /// ```
    public static var testContainer: TestContainerTrait { TestContainerTrait(base: nil, configure: nil) }

    /// A fresh container for each test, layered over `base`, installed as the root; `configure`
    /// registers into it before the test runs.
    ///
    /// ```swift
    /// @Test(.testContainer(base: AppContainer.shared) { container in
    ///     container.register(UserService.self) { _ in StubUserService(name: "Ada") }
    /// })
    /// func showsTheStubbedUser() throws { … }
    /// ```
    ///
    /// - Parameters:
    ///   - base: The container to layer over, usually the app's; `nil` for the root container outside
    ///     the test.
    ///   - configure: Registers stubs into each test's container; a throw fails the test before it runs.
    /// - Returns: The trait.
    public static func testContainer(
        base: Container? = nil,
        _ configure: (@Sendable (Container) throws -> Void)? = nil
    ) -> TestContainerTrait {
        TestContainerTrait(base: base, configure: configure)
    }
}
#endif
