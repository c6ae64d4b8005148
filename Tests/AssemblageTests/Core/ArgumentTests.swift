import Assemblage
import Testing

@Suite struct ArgumentTests {
    @Test func passesOneArgument() {
        let container = Container()
        container.register(Animal.self) { _, name in Cat(name: name) }
        #expect(container.resolve(Animal.self, argument: "Tom")?.name == "Tom")
    }

    @Test func passesSeveralArgumentsInOrder() throws {
        let container = Container()
        container.register(Cat.self) { (_, name: String, age: Int) in Cat(name: name, age: age) }
        let cat = try #require(container.resolve(Cat.self, arguments: "Tom", 3))
        #expect(cat.name == "Tom" && cat.age == 3)
    }

    @Test func supportsMoreArgumentsThanSwinjectsNine() {
        let container = Container()
        container.register(Int.self) {
            (_, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int, j: Int) in
            a + b + c + d + e + f + g + h + i + j
        }
        #expect(container.resolve(Int.self, arguments: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == 55)
    }

    @Test func argumentTypesArePartOfTheKey() {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "none") }
        container.register(Animal.self) { _, name in Cat(name: name) }
        container.register(Animal.self) { (_, age: Int) in Cat(name: "aged", age: age) }
        #expect(container.resolve(Animal.self)?.name == "none")
        #expect(container.resolve(Animal.self, argument: "x")?.name == "x")
        #expect(container.resolve(Animal.self, argument: 4)?.name == "aged")
        #expect(container.resolve(Animal.self, argument: 4.5) == nil)
    }

    @Test func oneTupleArgumentDiffersFromTwoArguments() {
        let container = Container()
        container.register(String.self) { (_, pair: (Int, Int)) in "tuple \(pair.0)" }
        container.register(String.self) { (_, a: Int, b: Int) in "pair \(a)" }
        #expect(container.resolve(String.self, argument: (1, 2)) == "tuple 1")
        #expect(container.resolve(String.self, arguments: 3, 4) == "pair 3")
    }

    @Test func namedRegistrationWithArguments() {
        let container = Container()
        container.register(Animal.self, name: "dog") { _, name in Dog(name: name) }
        #expect(container.resolve(Animal.self, name: "dog", argument: "Fido")?.name == "Fido")
        #expect(container.resolve(Animal.self, name: "dog", arguments: "Fido")?.name == "Fido")
        #expect(container.resolve(Animal.self, argument: "Fido") == nil)
    }

    @Test func wrongArgumentListReportsNearMisses() {
        let container = Container()
        container.register(Animal.self) { _, name in Cat(name: name) }
        #expect {
            _ = try container.require(Animal.self, argument: 42)
        } throws: { error in
            let error = error as! ResolutionError
            return error.code == .notRegistered
                && error.key.argumentsType == Int.self
                && error.nearMisses.map(\.description) == ["Animal (arguments: String)"]
        }
    }

    @Test func argumentsReachFactoriesOfGraphScopedServices() {
        let container = Container()
        container.register(Cat.self) { _, name in Cat(name: name) }  // default .graph scope
        #expect(container.resolve(Cat.self, argument: "a")?.name == "a")
        #expect(container.resolve(Cat.self, argument: "b")?.name == "b")
    }

    /// Registers through the variadic overload even for few arguments (as generic code over packs would).
    private func registerVariadic<Service, each Arg>(
        _ container: Container, _ type: Service.Type,
        _ factory: @escaping @Sendable (Resolver, repeat each Arg) throws -> Service
    ) {
        container.register(type, factory: factory)
    }

    /// Resolves through the variadic path even for few arguments.
    private func resolveVariadic<Service, each Arg>(
        _ container: Container, _ type: Service.Type,
        _ arguments: repeat each Arg
    ) -> Service? {
        container.resolve(type, arguments: repeat each arguments)
    }

    @Test func variadicRegistrationResolvesThroughFixedArityPaths() {
        let container = Container()
        registerVariadic(container, String.self) { (_: Resolver) in "zero" }
        registerVariadic(container, String.self) { (_: Resolver, a: Int) in "one \(a)" }
        registerVariadic(container, String.self) { (_: Resolver, a: Int, b: Int) in "two \(a + b)" }
        registerVariadic(container, String.self) { (_: Resolver, a: Int, b: Int, c: Int) in "three \(a + b + c)" }
        #expect(container.resolve(String.self) == "zero")
        #expect(container.resolve(String.self, argument: 1) == "one 1")
        #expect(container.resolve(String.self, arguments: 1, 2) == "two 3")
        #expect(container.resolve(String.self, arguments: 1, 2, 3) == "three 6")
    }

    @Test func fixedArityRegistrationResolvesThroughTheVariadicPath() {
        let container = Container()
        container.register(String.self) { _ in "zero" }
        container.register(String.self) { (_, a: Int) in "one \(a)" }
        container.register(String.self) { (_, a: Int, b: Int) in "two \(a + b)" }
        container.register(String.self) { (_, a: Int, b: Int, c: Int) in "three \(a + b + c)" }
        #expect(resolveVariadic(container, String.self) == "zero")
        #expect(resolveVariadic(container, String.self, 1) == "one 1")
        #expect(resolveVariadic(container, String.self, 1, 2) == "two 3")
        #expect(resolveVariadic(container, String.self, 1, 2, 3) == "three 6")
        // and again, through the converted box kept on the entry
        #expect(resolveVariadic(container, String.self, 1, 2) == "two 3")
        #expect(container.resolve(Lazy<String>.self, arguments: 1, 2)?.instance == "two 3")
    }

    @Test func forwardedTypeResolvesWithArgumentsThroughEveryPath() {
        let container = Container()
        container.register(Cat.self) { (_, name: String, age: Int) in Cat(name: name, age: age) }.implements(
            Animal.self)
        #expect(container.resolve(Animal.self, arguments: "Tom", 2)?.name == "Tom")
        #expect(resolveVariadic(container, Animal.self, "Tom", 2)?.name == "Tom")
    }
}
