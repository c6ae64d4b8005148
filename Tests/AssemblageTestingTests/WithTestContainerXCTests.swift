import Assemblage
import AssemblageTesting
import XCTest

/// The XCTest-friendly helper, exercised from XCTest (which `swift test` runs beside Swift Testing).
final class WithTestContainerXCTests: XCTestCase {
    func testOperationSeesAFreshChildOfTheBaseAsRoot() throws {
        let outer = Container(label: "outer")
        try Container.withRoot(outer) {
            try withTestContainer(base: App.container) { container in
                XCTAssertTrue(Container.root === container)
                XCTAssertTrue(container.fallbacks.first === App.container)
                XCTAssertEqual(try container.require(Greeter.self).greeting.text, "Hello from the app")
            }
            XCTAssertTrue(Container.root === outer)  // restored after the section
        }
    }

    func testStubsDoNotLeakIntoTheBaseOrTheNextCall() throws {
        try withTestContainer(base: App.container) { container in
            container.register(Greeting.self) { _ in Greeting(text: "stub") }
            XCTAssertEqual(try Container.root.require(Greeter.self).greeting.text, "stub")
        }
        XCTAssertEqual(try App.container.require(Greeter.self).greeting.text, "Hello from the app")
        withTestContainer(base: App.container) { container in
            XCTAssertEqual(container.resolve(Greeter.self)?.greeting.text, "Hello from the app")
        }
    }

    func testAsyncOperationKeepsTheContainerAcrossSuspensions() async throws {
        let text = try await withTestContainer(base: App.container) { container in
            container.register(Greeting.self) { _ in Greeting(text: "async stub") }
            try await Task.sleep(nanoseconds: 1_000)
            return try await Container.root.resolveAsync(Greeter.self).greeting.text
        }
        XCTAssertEqual(text, "async stub")
    }

    func testErrorsFromTheOperationPropagate() {
        XCTAssertThrowsError(try withTestContainer(base: App.container) { _ in throw SetupFailed() }) { error in
            XCTAssertTrue(error is SetupFailed)
        }
    }
}
