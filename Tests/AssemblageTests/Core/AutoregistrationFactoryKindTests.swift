import Testing

@testable import Assemblage

// Which factory box each form of `autoregister` and `autoregisterIntoCollection` stores: the forms without runtime
// arguments share one registration (`_autoregister`), which must keep them on the pack-free path of a factory
// without arguments. `factoryKind` is internal, hence `@testable`.

private struct Part: Sendable {}
private struct Assembled: Sendable {
    init() {}
    init(_: Part) {}
    init(_: Part, _: Part) {}
    init(_: Part, _: Part, _: Part, _: Part, _: Part, _: Part) {}
    init(_: Part, _: Part, _: Part, _: Part, _: Part, _: Part, _: Part) {}
    init(label _: String, _: Part) {}
    init(label _: String, count _: Int, _: Part) {}
}

@Suite struct AutoregistrationFactoryKindTests {
    @Test func formsWithoutArgumentsStoreTheFactoryOfNoArguments() throws {
        let container = Container()
        container.register(Part.self) { _ in Part() }
        let entries = [
            container.autoregister(Assembled.self, name: "0", initializer: Assembled.init as @Sendable () -> Assembled),
            container.autoregister(Assembled.self, name: "1", initializer: Assembled.init(_:)),
            container.autoregister(Assembled.self, name: "2", initializer: Assembled.init(_:_:)),
            container.autoregister(Assembled.self, name: "6", initializer: Assembled.init(_:_:_:_:_:_:)),
            container.autoregister(Assembled.self, name: "7", initializer: Assembled.init(_:_:_:_:_:_:_:)),
            container.autoregisterIntoCollection(
                Assembled.self, initializer: Assembled.init as @Sendable () -> Assembled),
            container.autoregisterIntoCollection(Assembled.self, initializer: Assembled.init(_:)),
            container.autoregisterIntoCollection(Assembled.self, initializer: Assembled.init(_:_:_:_:_:_:)),
            container.autoregisterIntoCollection(Assembled.self, initializer: Assembled.init(_:_:_:_:_:_:_:)),
        ]
        #expect(entries.map(\.factoryKind) == Array(repeating: _FactoryKind.arity0, count: entries.count))
        for name in ["0", "1", "2", "6", "7"] { _ = try container.require(Assembled.self, name: name) }
        #expect(try container.resolveAll(Assembled.self).count == 4)
    }

    @Test func formsWithArgumentsStoreTheFactoryOfTheirArguments() throws {
        let container = Container()
        container.register(Part.self) { _ in Part() }
        let one = container.autoregister(Assembled.self, argument: String.self, initializer: Assembled.init(label:_:))
        let two = container.autoregister(
            Assembled.self, arguments: String.self, Int.self, initializer: Assembled.init(label:count:_:))
        #expect(one.factoryKind == _FactoryKind.arity1)
        #expect(two.factoryKind == _FactoryKind.pack)
        _ = try container.require(Assembled.self, argument: "a")
        _ = try container.require(Assembled.self, arguments: "a", 1)
    }
}
