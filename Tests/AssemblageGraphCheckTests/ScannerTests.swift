import AssemblageGraphCheckKit
import Testing

@Suite struct ScannerTests {
    private func facts(_ source: String) -> Facts {
        var facts = Facts()
        DSLScanner.scan(SourceFile(path: "App.swift", text: source), own: true, into: &facts)
        return facts
    }

    @Test func readsTypeNameAndArgumentsFromFactoryParameters() {
        let found = facts(
            """
            c.register(Greeter.self, name: "utc") { (r, zone: String, offset: Int) in Greeter() }
            c.register(Animal.self) { _, name in Cat(name: name) }
            """
        ).registrations
        #expect(
            found.map(\.key.description) == [#"Greeter (name: "utc", arguments: String, Int)"#, "Animal (1 argument)"])
    }

    @Test func readsAutoregistrationsWithTheirTypeNameAndArguments() {
        let found = facts(
            """
            c.autoregister(Billing.self, initializer: Billing.init)
            c.autoregister(initializer: Ledger.init)
            c.autoregister(Report.self, name: "daily", argument: Date.self, initializer: Report.init)
            c.autoregister(Export.self, arguments: String.self, Int.self, initializer: Export.init).inObjectScope(.container)
            c.autoregister { makeClock() }
            """
        )
        #expect(
            found.registrations.map(\.key.description) == [
                "Billing", "Ledger", #"Report (name: "daily", arguments: Date)"#, "Export (arguments: String, Int)",
                "<inferred type>",
            ])
        #expect(found.notes.count == 1)
    }

    @Test func readsArgumentCountFromShorthandParameters() {
        let found = facts("c.register(Clock.self) { Clock(zone: $1, other: $0.resolve(Zone.self)!) }").registrations
        #expect(found.first?.key.arity == 1)
    }

    @Test func infersTheTypeOfAFactoryThatOnlyCallsAnInitialiser() {
        let found = facts("c.register { r in try SystemClock(zone: r.require(Zone.self)) }").registrations
        #expect(found.first?.key.type?.description == "SystemClock")
        #expect(facts("c.register { _ in makeClock() }").registrations.first?.key.type == nil)
    }

    @Test func implementsRegistersAliasesWithTheEntrysArguments() {
        let found = facts(
            "c.register(FileCache.self) { (_, size: Int) in FileCache() }.implements(Cache.self, Purgeable.self)"
        )
        .registrations
        #expect(
            found.map(\.key.description) == [
                "FileCache (arguments: Int)", "Cache (arguments: Int)",
                "Purgeable (arguments: Int)",
            ])
        #expect(found[1].kind == .alias(of: 0))
    }

    @Test func contributionBelongsToItsTargetAndResolvesInTheContributorsScope() {
        let found = facts(
            """
            struct Search: AutoInitModuleAssembly {
                func assemble(container: Container) {
                    container.contribute(into: Interfaces.self) { i in
                        i.register(API.self) { r in API(http: try r.require(HTTP.self)) }
                    }
                }
            }
            """)
        #expect(found.registrations.first?.owner?.name == "Interfaces")
        #expect(found.registrations.first?.contributed == true)
        #expect(found.resolves.first?.scopeType?.name == "Search")
        #expect(found.resolves.first?.context == .factory(0))
    }

    @Test func forcedResolveIsRequiredAndPlainResolveIsNot() {
        let found = facts(
            "f(r.resolve(A.self)!, r.resolve(B.self), try r.require(C.self), try await r.resolveAsync(D.self))"
        )
        .resolves
        #expect(found.map(\.required) == [true, false, true, true])
    }

    @Test func moduleListsKeepTheirEntriesAndWhetherTheyAreLiteral() {
        let found = facts(
            """
            struct Feed: ModuleAssembly {
                static var dependencies: [any ModuleAssembly.Type] { [Network.self, Outer.Storage.self] }
                static var replaces: [any ModuleAssembly.Type] { flag ? [Old.self] : [] }
            }
            """
        ).moduleLists
        #expect(found.map { $0.entries.map(\.type.name) } == [["Network", "Outer.Storage"], ["Old"]])
        #expect(found.map(\.literal) == [true, false])
    }

    @Test func otherMethodsNamedRegisterOrResolveAreIgnored() {
        let found = facts(
            """
            UserDefaults.standard.register(defaults: [:])
            notifications.register(for: .update, handler: refresh)
            promise.resolve(value)
            """)
        #expect(found.registrations.isEmpty)
        #expect(found.resolves.isEmpty)
    }

    @Test(arguments: [
        ("Optional<Int>", "Int?"), ("Array<Swift.String>", "[String]"),
        ("Dictionary<String, Array<A>>", "[String: [A]]"), ("(any P)", "P"), ("Outer.Inner<T?>", "Outer.Inner<T?>"),
    ])
    func typeExpressionsNormaliseSugar(_ written: String, _ normalised: String) {
        let tokens = Lexer.lex(written).tokens
        #expect(TypeExpression.parse(tokens[...])?.description == normalised)
    }
}
