public import Assemblage

/// Runs `operation` with a fresh container layered over `base`, installed as the task's root (`Container.root`).
///
/// The container falls back to `base`, so everything the app registers resolves; what the operation
/// registers into it (stubs, mocks) wins over `base` and is gone afterwards. Because it is installed with
/// ``Assemblage/Container/withRoot(_:_:)``, code that resolves from
/// ``Assemblage/Container/root`` sees it — in this task only, so tests running in parallel never see
/// each other's stubs. This is the XCTest-friendly form of the `.testContainer` trait:
///
/// ```swift
/// final class ProfileTests: XCTestCase {
///     func testShowsTheStubbedUser() throws {
///         try withTestContainer(base: AppContainer.shared) { container in
///             container.register(UserService.self) { _ in StubUserService(name: "Ada") }
///             let model = try Container.root.require(ProfileModel.self)
///             XCTAssertEqual(model.title, "Ada")
///         }
///     }
/// }
/// ```
///
/// - Parameters:
///   - base: The container to layer over: the app's container. Defaults to the root container of the
///     caller.
///   - label: A name for the new container in diagnostics.
///   - operation: Receives the new container; runs with it as the task's root.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
@discardableResult
public func withTestContainer<Result>(
    base: Container = .root, label: String = "test",
    _ operation: (Container) throws -> Result
) rethrows -> Result {
    let container = Container(parent: base, label: label)
    return try Container.withRoot(container) { try operation(container) }
}

/// Runs asynchronous `operation` with a fresh container layered over `base`, installed as the task's
/// container across every suspension point and in the child tasks the operation creates.
///
/// ```swift
/// func testLoadsTheSession() async throws {
///     try await withTestContainer(base: AppContainer.shared) { container in
///         container.register(SessionStore.self) { _ in await SessionStore(user: "test") }
///         let store = try await Container.root.resolveAsync(SessionStore.self)
///         XCTAssertEqual(await store.user, "test")
///     }
/// }
/// ```
///
/// - Parameters:
///   - base: The container to layer over. Defaults to the root container of the caller.
///   - label: A name for the new container in diagnostics.
///   - isolation: The actor `operation` runs on; inferred from the caller.
///   - operation: Receives the new container; runs with it as the task's root.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
@discardableResult
public func withTestContainer<Result>(
    base: Container = .root, label: String = "test",
    isolation: isolated (any Actor)? = #isolation,
    _ operation: (Container) async throws -> Result
) async rethrows -> Result {
    let container = Container(parent: base, label: label)
    return try await Container.withRoot(container, isolation: isolation) { try await operation(container) }
}
