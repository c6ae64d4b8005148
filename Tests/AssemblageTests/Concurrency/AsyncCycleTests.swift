import Assemblage
import Foundation
import Testing

/// A second service type, to build cycles between two registrations.
final class Peer: Sendable {}

@Suite struct AsyncCycleTests {
    @Test(arguments: [ObjectScope.transient, .graph, .container])
    func asyncFactoryThatAwaitsItselfFailsWithACycle(scope: ObjectScope) async {
        let container = Container()
        container.register(Node.self) { r in Node([try await r.resolveAsync(Node.self)]) }.inObjectScope(scope)
        do {
            _ = try await container.resolveAsync(Node.self)
            Issue.record("expected a cycle")
        } catch {
            #expect(error.code == .cycle)
            #expect(error.cycle == [ServiceKey(Node.self), ServiceKey(Node.self)])
        }
    }

    @Test func cycleThroughTwoAsyncFactoriesIsReportedInOrder() async {
        let container = Container()
        container.register(Node.self) { r in
            _ = try await r.resolveAsync(Peer.self)
            return Node()
        }
        container.register(Peer.self) { r in
            _ = try await r.resolveAsync(Node.self)
            return Peer()
        }
        do {
            _ = try await container.resolveAsync(Node.self)
            Issue.record("expected a cycle")
        } catch {
            #expect(error.code == .cycle)
            #expect(error.cycle == [ServiceKey(Node.self), ServiceKey(Peer.self), ServiceKey(Node.self)])
            #expect(error.description.contains("Circular dependency: Node → Peer → Node"))
        }
    }

    @Test func cycleThroughAChildTaskIsDetected() async {
        let container = Container()
        container.register(Node.self) { r in
            async let inner = r.resolveAsync(Node.self)
            return Node([try await inner])
        }.inObjectScope(.container)
        let code = await finishing(within: 60) { () -> ResolutionError.Code? in
            do {
                _ = try await container.resolveAsync(Node.self)
                return nil
            } catch {
                return (error as? ResolutionError)?.code
            }
        }
        #expect(code == .some(.cycle))
    }

    @Test func crossTaskCycleOfSharedCreationsEndsInCycleErrorsNotAHang() async {
        let container = Container()
        container.register(Node.self) { r in
            try await Task.sleep(nanoseconds: 5_000_000)
            _ = try await r.resolveAsync(Peer.self)
            return Node()
        }.inObjectScope(.container)
        container.register(Peer.self) { r in
            try await Task.sleep(nanoseconds: 5_000_000)
            _ = try await r.resolveAsync(Node.self)
            return Peer()
        }.inObjectScope(.container)
        let errors = await finishing(within: 60) { () -> [ResolutionError?] in
            async let node: ResolutionError? = {
                do {
                    _ = try await container.resolveAsync(Node.self)
                    return nil
                } catch { return error as? ResolutionError }
            }()
            async let peer: ResolutionError? = {
                do {
                    _ = try await container.resolveAsync(Peer.self)
                    return nil
                } catch { return error as? ResolutionError }
            }()
            return await [node, peer]
        }
        #expect(errors?.count == 2)
        #expect(errors?.allSatisfy { $0?.code == .cycle } == true)
    }

    @Test func taskEscapingAFactoryDoesNotSeeAStaleCycle() async throws {
        let container = Container()
        let late = Slot<Task<Node, any Error>>()
        container.register(Node.self) { r in
            late.value = Task {
                try await Task.sleep(nanoseconds: 2_000_000)
                return try await r.resolveAsync(Node.self)  // after the factory returned: not a cycle
            }
            return Node()
        }.inObjectScope(.container)
        let node = try await container.resolveAsync(Node.self)
        let task = try #require(late.value)
        #expect(try await task.value === node)
    }

    @Test func synchronousCyclesStillFailSynchronously() {
        let container = Container()
        container.register(Node.self) { r in Node([try r.require(Node.self)]) }
        #expect(throws: ResolutionError.self) { try container.require(Node.self) }
    }
}
