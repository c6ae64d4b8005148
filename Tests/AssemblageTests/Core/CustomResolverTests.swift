import Assemblage
import AssemblageProperties
import Foundation
import Testing

// Resolvers of the user's own: test doubles and wrappers, as Swinject users write them.

/// A test double: answers from stubs keyed by type and name, and records what it was asked.
private final class StubResolver: Resolver, @unchecked Sendable {  // @unchecked: state guarded by `lock`.
    private let lock = NSLock()
    private var stubs: [String: Any] = [:]
    private var asked: [String] = []

    func stub<T>(_ type: T.Type, name: String? = nil, _ value: T) {
        lock.withLock { stubs["\(T.self)|\(name ?? "")"] = value }
    }

    var calls: [String] { lock.withLock { asked } }

    private func answer<Service>(_ call: String, _ type: Service.Type, name: String?) -> Service? {
        lock.withLock {
            asked.append(call)
            return stubs["\(Service.self)|\(name ?? "")"] as? Service
        }
    }

    func resolve<Service>(_ serviceType: Service.Type) -> Service? { answer("resolve", Service.self, name: nil) }

    func resolve<Service>(_ serviceType: Service.Type, name: String?) -> Service? {
        answer("resolve(name:)", Service.self, name: name)
    }

    func resolve<Service, Arg1>(_ serviceType: Service.Type, argument: Arg1) -> Service? {
        answer("resolve(argument: \(argument))", Service.self, name: nil)
    }

    func resolve<Service, Arg1, Arg2>(_ serviceType: Service.Type, arguments arg1: Arg1, _ arg2: Arg2) -> Service? {
        answer("resolve(arguments: \(arg1), \(arg2))", Service.self, name: nil)
    }

    func resolve<Service, Arg1, Arg2, Arg3, Arg4, Arg5, Arg6, Arg7, Arg8, Arg9>(
        _ serviceType: Service.Type, name: String?, arguments arg1: Arg1, _ arg2: Arg2, _ arg3: Arg3, _ arg4: Arg4,
        _ arg5: Arg5, _ arg6: Arg6, _ arg7: Arg7, _ arg8: Arg8, _ arg9: Arg9
    ) -> Service? {
        answer("resolve(name:arguments: ×9, last \(arg9))", Service.self, name: name)
    }
}

/// A wrapper: logs each resolve and passes it on to a container.
private final class LoggingResolver: Resolver, @unchecked Sendable {  // @unchecked: state guarded by `lock`.
    let base: Container
    private let lock = NSLock()
    private var log: [String] = []
    init(base: Container) { self.base = base }

    var lines: [String] { lock.withLock { log } }

    func resolve<Service>(_ serviceType: Service.Type) -> Service? {
        lock.withLock { log.append("\(Service.self)") }
        return base.resolve(Service.self)
    }

    func resolve<Service>(_ serviceType: Service.Type, name: String?) -> Service? {
        lock.withLock { log.append("\(Service.self) \(name ?? "")") }
        return base.resolve(Service.self, name: name)
    }
}

/// Code under test that only knows the protocol, as an app's view model would.
private func makePerson(from resolver: any Resolver) -> Person? {
    resolver.resolve(Animal.self).map(Person.init(pet:))
}

@Suite struct CustomResolverTests {
    @Test func stubResolverAnswersCodeThatTakesTheProtocol() {
        let stub = StubResolver()
        stub.stub(Animal.self, Dog(name: "Stubbed"))
        #expect(makePerson(from: stub)?.pet.name == "Stubbed")
        #expect(stub.calls == ["resolve"])
    }

    @Test func eachResolveShapeReachesItsOwnImplementation() {
        let stub = StubResolver()
        stub.stub(Animal.self, name: "cat", Cat(name: "Named"))
        stub.stub(Animal.self, Cat(name: "Plain"))
        let resolver: any Resolver = stub
        #expect(resolver.resolve(Animal.self, name: "cat")?.name == "Named")
        #expect(resolver.resolve(Animal.self, argument: 7)?.name == "Plain")
        #expect(resolver.resolve(Animal.self, arguments: "a", 2)?.name == "Plain")
        #expect(resolver.resolve(Animal.self, name: "cat", arguments: 1, 2, 3, 4, 5, 6, 7, 8, 9)?.name == "Named")
        #expect(
            stub.calls == [
                "resolve(name:)", "resolve(argument: 7)", "resolve(arguments: a, 2)",
                "resolve(name:arguments: ×9, last 9)",
            ])
    }

    @Test func requirementLeftUnimplementedResolvesToNilInsteadOfRecursing() {
        let stub = StubResolver()
        stub.stub(Animal.self, Cat())
        let resolver: any Resolver = stub
        // StubResolver does not implement the three-argument form: the call ends, with nil, instead of calling
        // the protocol's own method for ever.
        #expect(resolver.resolve(Animal.self, arguments: 1, 2, 3) == nil)
        #expect(stub.calls.isEmpty)
    }

    @Test func requireOnYourOwnResolverThrowsNotRegisteredNamingTheResolver() throws {
        let stub = StubResolver()
        stub.stub(Animal.self, Cat(name: "Found"))
        #expect(try stub.require(Animal.self).name == "Found")
        do {
            _ = try stub.require(Food.self)
            Issue.record("require should have thrown")
        } catch {
            #expect(error.code == .notRegistered)
            #expect(error.description.contains("StubResolver (a Resolver of your own) returned nil for Food"))
        }
    }

    @Test func containerOnlyAPIsThrowATypedErrorForYourOwnResolver() {
        let stub = StubResolver()
        do {
            _ = try stub.resolveAll(Animal.self)
            Issue.record("resolveAll should have thrown")
        } catch {
            #expect(error.code == .factoryFailed)
            #expect(error.description.contains("StubResolver is a Resolver of your own, not an Assemblage Container"))
            #expect(error.description.contains("resolveAll needs a container"))
        }
        #expect(stub.property("anything", as: String.self) == nil)
        #expect(((stub as any Resolver) as? Container) == nil)
    }

    @Test func wrapperResolverPassesCallsOnToAContainer() {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "FromContainer") }
        container.register(Animal.self, name: "dog") { _ in Dog() }
        let logging = LoggingResolver(base: container)
        #expect(makePerson(from: logging)?.pet.name == "FromContainer")
        #expect((logging as any Resolver).resolve(Animal.self, name: "dog")?.name == "Rex")
        #expect(logging.lines == ["Animal", "Animal dog"])
    }

    @Test func containerStillResolvesThroughTheProtocolWithArgumentsUpToNine() {
        let container = Container()
        container.register(String.self) { (_, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int) in
            "\(a + b + c + d + e + f + g + h + i)"
        }
        let resolver: any Resolver = container
        #expect(resolver.resolve(String.self, arguments: 1, 2, 3, 4, 5, 6, 7, 8, 9) == "45")
        #expect((resolver as? Container) === container)
    }
}
