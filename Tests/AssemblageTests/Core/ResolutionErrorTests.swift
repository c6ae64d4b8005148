import Assemblage
import Testing

final class App { init(repository: Repository) {} }
final class Repository { init(database: Database) {} }
final class Database {}

final class CycleA { init(_ b: CycleB) {} }
final class CycleB { init(_ c: CycleC) {} }
final class CycleC { init(_ a: CycleA) {} }

protocol Greeting: Sendable {}
struct EnglishGreeting: Greeting {}
protocol Farewell: Sendable {}
class BaseGreeter: @unchecked Sendable {}
final class LoudGreeter: BaseGreeter, @unchecked Sendable {}

@Suite struct ResolutionErrorTests {
    @Test func concreteTypeRegisteredAndProtocolResolvedSuggestsImplements() {
        let container = Container()
        container.register(EnglishGreeting.self) { _ in EnglishGreeting() }
        container.register(String.self) { _ in "unrelated" }
        let error = #expect(throws: ResolutionError.self) { try container.require(Greeting.self) }
        #expect(error?.code == .notRegistered)
        #expect(error?.suggestions.count == 1)
        #expect(error?.suggestions.first?.contains("EnglishGreeting registered at") == true)
        #expect(error?.suggestions.first?.contains("add `.implements(Greeting.self)` to that registration") == true)
        #expect(error?.description.contains("  Fix: EnglishGreeting registered at") == true)
    }

    @Test func conformingRegistrationIsSuggestedForACompositionAndAClassBoundProtocol() {
        let container = Container()
        container.register(NamedPlugin.self) { _ in NamedPlugin("x") }
        let bound = #expect(throws: ResolutionError.self) { try container.require(Plugin.self) }
        #expect(bound?.suggestions.first?.contains("`.implements(Plugin.self)`") == true)
        let composed = #expect(throws: ResolutionError.self) { try container.require((any Plugin & Sendable).self) }
        #expect(composed?.suggestions.count == 1)
        let unrelated = #expect(throws: ResolutionError.self) { try container.require((any Greeting & Plugin).self) }
        #expect(unrelated?.suggestions.isEmpty == true)
    }

    @Test func subclassRegisteredAndSuperclassResolvedSuggestsImplements() {
        let container = Container()
        container.register(LoudGreeter.self) { _ in LoudGreeter() }
        let error = #expect(throws: ResolutionError.self) { try container.require(BaseGreeter.self) }
        #expect(error?.suggestions.first?.contains("`.implements(BaseGreeter.self)`") == true)
    }

    @Test func noSuggestionWhenNothingRegisteredConforms() {
        let container = Container()
        container.register(EnglishGreeting.self) { _ in EnglishGreeting() }
        let error = #expect(throws: ResolutionError.self) { try container.require(Farewell.self) }
        #expect(error?.suggestions.isEmpty == true)
        #expect(error?.description.contains("Fix:") == false)
    }

    @Test func conformingRegistrationInAParentIsSuggestedFromAChild() {
        let parent = Container()
        parent.register(EnglishGreeting.self) { _ in EnglishGreeting() }
        let child = Container(parent: parent)
        let error = #expect(throws: ResolutionError.self) { try child.require(Greeting.self) }
        #expect(error?.suggestions.count == 1)
    }

    @Test func missingRegistrationNamesTypeNamePathAndNearMisses() {
        let container = Container()
        container.register(App.self) { r in App(repository: try r.require(Repository.self)) }
        container.register(Repository.self) { r in Repository(database: try r.require(Database.self, name: "primary")) }
        container.register(Database.self, name: "replica") { _ in Database() }
        container.register(Database.self) { (_, url: String) in Database() }
        do {
            _ = try container.require(App.self)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .notRegistered)
            #expect(error.key == ServiceKey(Database.self, name: "primary"))
            #expect(error.pathDescription == "App → Repository → Database (name: \"primary\")")
            #expect(
                error.nearMisses.map(\.description) == ["Database (name: \"replica\")", "Database (arguments: String)"])
            #expect(
                error.description == """
                    No registration for Database (name: "primary").
                      Resolution path: App → Repository → Database (name: "primary")
                      Registered for Database: Database (name: "replica"), Database (arguments: String)
                    """)
        }
    }

    @Test func missingWithNothingOfThatTypeSaysSo() {
        #expect {
            try Container().require(Database.self)
        } throws: { error in
            (error as! ResolutionError).description.contains("Nothing is registered for Database under any name")
        }
    }

    @Test func nearMissesIncludeFallbackRegistrations() {
        let parent = Container()
        parent.register(Database.self, name: "replica") { _ in Database() }
        let child = Container(parent: parent)
        do {
            _ = try child.require(Database.self)
        } catch {
            #expect(error.nearMisses == [ServiceKey(Database.self, name: "replica")])
        }
    }

    @Test func factoryErrorIsWrappedWithKeyAndPath() {
        let container = Container()
        container.register(Repository.self) { r in Repository(database: try r.require(Database.self)) }
        container.register(Database.self) { _ in throw Boom() }
        do {
            _ = try container.require(Repository.self)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .factoryFailed)
            #expect(error.key == ServiceKey(Database.self))
            #expect(error.pathDescription == "Repository → Database")
            #expect(error.underlying is Boom)
            #expect(error.description.hasPrefix("The factory for Database failed: boom."))
        }
        #expect(container.resolve(Repository.self) == nil)
    }

    @Test func twoStepCycleIsReportedNotOverflowed() {
        let container = Container()
        container.register(CycleA.self) { r in CycleA(try r.require(CycleB.self)) }
        container.register(CycleB.self) { r in CycleB(try r.require(CycleA.self) as Any as! CycleC) }
        do {
            _ = try container.require(CycleA.self)
        } catch {
            #expect(error.code == .cycle)
            #expect(error.cycle.map(\.description) == ["CycleA", "CycleB", "CycleA"])
        }
    }

    @Test(arguments: [ObjectScope.transient, .graph, .container, .weak, .singleton])
    func threeStepCycleIsReportedInEveryScope(scope: ObjectScope) {
        let container = Container()
        container.register(CycleA.self) { r in CycleA(try r.require(CycleB.self)) }.inObjectScope(scope)
        container.register(CycleB.self) { r in CycleB(try r.require(CycleC.self)) }.inObjectScope(scope)
        container.register(CycleC.self) { r in CycleC(try r.require(CycleA.self)) }.inObjectScope(scope)
        do {
            _ = try container.require(CycleB.self)
            Issue.record("expected a cycle")
        } catch {
            #expect(error.code == .cycle)
            #expect(error.cycle.map(\.description) == ["CycleB", "CycleC", "CycleA", "CycleB"])
            #expect(error.description.hasPrefix("Circular dependency: CycleB → CycleC → CycleA → CycleB."))
        }
        #expect(container.resolve(CycleA.self) == nil)
        // The container stays usable.
        container.register(Int.self) { _ in 1 }
        #expect(container.resolve(Int.self) == 1)
    }

    @Test(arguments: [ObjectScope.transient, .scoped])
    func aLongChainWhoseEntriesShareFilterBitsResolvesAndItsCycleIsStillFound(scope: ObjectScope) throws {
        // 130 links: more than the 64 bits of a thread's and a scope's filters, so that links share bits (each
        // sharing is a scan that finds no cycle); the last link closes a cycle through the first.
        let container = Container()
        for link in 0..<130 {
            container.register(Int.self, name: "link\(link)") { r in
                link == 129 ? 129 : try r.require(Int.self, name: "link\(link + 1)") - 1
            }.inObjectScope(scope)
        }
        #expect(try container.withSynchronousScope { try $0.require(Int.self, name: "link0") } == 0)
        container.register(Int.self, name: "link129") { r in try r.require(Int.self, name: "link0") }
            .inObjectScope(scope)
        #expect {
            try container.withSynchronousScope { try $0.require(Int.self, name: "link64") }
        } throws: { error in
            guard let error = error as? ResolutionError, error.code == .cycle else { return false }
            return error.cycle.count == 131 && error.cycle.first == error.cycle.last
                && error.cycle.first?.name == "link64"
        }
    }

    @Test func cycleThroughNamesAndArgumentsIsReported() {
        let container = Container()
        container.register(String.self, name: "a") { r in try r.require(String.self, argument: 1) }
        container.register(String.self) { (r, n: Int) in try r.require(String.self, name: "a") }
        #expect {
            try container.require(String.self, name: "a")
        } throws: { error in
            (error as! ResolutionError).cycle.map(\.description)
                == ["String (name: \"a\")", "String (arguments: Int)", "String (name: \"a\")"]
        }
    }

    @Test func cycleAcrossParentAndChildIsReported() {
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(CycleA.self) { r in CycleA(try r.require(CycleB.self)) }
        child.register(CycleB.self) { r in CycleB(try r.require(CycleC.self)) }
        child.register(CycleC.self) { r in CycleC(try r.require(CycleA.self)) }
        #expect {
            try child.require(CycleA.self)
        } throws: { error in (error as! ResolutionError).code == .cycle }
    }

    @Test func deepAcyclicChainResolves() {
        let container = Container()
        container.register(Int.self, name: "0") { _ in 0 }
        for level in 1...1_000 {
            container.register(Int.self, name: "\(level)") { r in try r.require(Int.self, name: "\(level - 1)") + 1 }
        }
        #expect(container.resolve(Int.self, name: "1000") == 1_000)
    }

    @Test func chainPastTheDepthLimitFailsWithATypedError() {
        let container = Container()
        container.register(Int.self) { (r, n: Int) in n == 0 ? 0 : try r.require(Int.self, argument: n - 1) + 1 }
        #expect {
            try container.require(Int.self, argument: 5_000)
        } throws: { error in
            let error = error as! ResolutionError
            return error.code == .cycle || error.code == .depthLimitExceeded
        }
    }

    @Test func errorsCompareAndDescribeTheirCode() {
        #expect(ResolutionError.Code.notRegistered.description == "notRegistered")
        let first = Result<Database, ResolutionError> { () throws(ResolutionError) in
            try Container().require(Database.self)
        }
        let second = Result<Database, ResolutionError> { () throws(ResolutionError) in
            try Container().require(Database.self)
        }
        #expect(throws: ResolutionError.self) { try first.get() }
        if case .failure(let a) = first, case .failure(let b) = second { #expect(a == b) }
    }
}
