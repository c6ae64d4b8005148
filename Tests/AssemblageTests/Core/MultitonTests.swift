import Assemblage
import Foundation
import Testing

final class Connection: @unchecked Sendable {
    let host: String
    let port: Int
    init(host: String, port: Int = 0) {
        self.host = host
        self.port = port
    }
}

@Suite struct MultitonTests {
    @Test func keepsOneInstancePerArgumentValue() {
        let container = Container()
        container.register(Connection.self) { _, host in Connection(host: host) }.inObjectScope(.multiton)
        let a1 = container.resolve(Connection.self, argument: "a")
        let a2 = container.resolve(Connection.self, argument: "a")
        let b = container.resolve(Connection.self, argument: "b")
        #expect(a1 === a2)
        #expect(a1 !== b)
        #expect(b?.host == "b")
    }

    @Test func keysOnEveryArgument() {
        let container = Container()
        container.register(Connection.self) { (_, host: String, port: Int) in Connection(host: host, port: port) }
            .inObjectScope(.multiton)
        #expect(
            container.resolve(Connection.self, arguments: "a", 1)
                === container.resolve(Connection.self, arguments: "a", 1))
        #expect(
            container.resolve(Connection.self, arguments: "a", 1)
                !== container.resolve(Connection.self, arguments: "a", 2))
    }

    @Test func worksThroughTheVariadicPath() {
        let container = Container()
        container.register(Connection.self) { (_, a: String, b: Int, c: Int, d: Int) in
            Connection(host: a, port: b + c + d)
        }
        .inObjectScope(.multiton)
        let first = container.resolve(Connection.self, arguments: "h", 1, 2, 3)
        #expect(first === container.resolve(Connection.self, arguments: "h", 1, 2, 3))
        #expect(first?.port == 6)
    }

    @Test func withoutArgumentsKeepsOneInstance() {
        let container = Container()
        container.register(Connection.self) { _ in Connection(host: "only") }.inObjectScope(.multiton)
        #expect(container.resolve(Connection.self) === container.resolve(Connection.self))
    }

    @Test func resetClearsEveryKey() {
        let container = Container()
        container.register(Connection.self) { _, host in Connection(host: host) }.inObjectScope(.multiton)
        let a = container.resolve(Connection.self, argument: "a")
        weak let weakB = container.resolve(Connection.self, argument: "b")
        container.resetObjectScope(.multiton)
        #expect(container.resolve(Connection.self, argument: "a") !== a)
        #expect(weakB == nil)
    }

    @Test func nonHashableArgumentIsATypedError() {
        struct Options { let verbose: Bool }
        let container = Container()
        container.register(Connection.self) { (_, options: Options) in Connection(host: "\(options.verbose)") }
            .inObjectScope(.multiton)
        #expect(container.resolve(Connection.self, argument: Options(verbose: true)) == nil)
        do {
            _ = try container.require(Connection.self, argument: Options(verbose: true))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .argumentsNotHashable)
            #expect(error.description.contains("Options is not Hashable"))
        }
    }

    @Test func eachKeyIsCreatedOnceUnderContention() {
        let counter = Counter()
        let container = Container()
        container.register(Connection.self) { _, host in
            counter.increment()
            usleep(100)
            return Connection(host: host)
        }.inObjectScope(.multiton)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            _ = container.resolve(Connection.self, argument: "host\(index % 4)")
        }
        #expect(counter.count == 4)
    }
}
