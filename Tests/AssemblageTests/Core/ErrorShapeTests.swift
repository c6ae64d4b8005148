import Assemblage
import AssemblageProperties
import Foundation
import Testing

// Every error type prints through one shape (AssemblageError): the summary on the first line, then each detail on
// a line of its own, indented, labelled; `debugDescription` puts the type and code first; `localizedDescription`
// is the same text. Each test makes a real error through the public API and checks its exact printed form.

private final class ShapeApp { init(_ repository: ShapeRepository) {} }
private final class ShapeRepository { init(_ database: ShapeDatabase) {} }
private final class ShapeDatabase {}
private final class ShapeChicken { init(_ egg: ShapeEgg) {} }
private final class ShapeEgg { init(_ chicken: ShapeChicken) {} }
private struct ShapeRequest: Sendable { let id: Int }
private final class ShapeScreen { var database: ShapeDatabase? }
private struct ShapeDiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }
private final class ShapeJournal: Disposable {
    func dispose() throws { throw ShapeDiskFull() }
}

private struct ShapeStorageModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let path: String
    func assemble(container: Container) {}
}
private struct ShapeFeedModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ShapeStorageModule.self] }
    func assemble(container: Container) {}
}
private struct ShapeSearchModule: ModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let key: String
    func assemble(container: Container) {}
}
private struct ShapeAppModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ShapeFeedModule.self, ShapeSearchModule.self] }
    func assemble(container: Container) {}
}

/// Checks what every error must do, whatever its type: the summary is one line and comes first, every other line
/// is an indented detail, no line is blank or ends in a space, and the three renderings agree.
private func expectSharedShape<E: AssemblageError>(
    _ error: E, _ type: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!error.summary.contains("\n"), sourceLocation: sourceLocation)
    #expect(lines.first.map(String.init) == error.summary, sourceLocation: sourceLocation)
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") }, sourceLocation: sourceLocation)
    #expect(lines.allSatisfy { !$0.isEmpty && $0.last != " " }, sourceLocation: sourceLocation)
    #expect(lines.count >= 1 + error.details.count, sourceLocation: sourceLocation)
    #expect(error.debugDescription == "\(type).\(error.code): \(error.description)", sourceLocation: sourceLocation)
    #expect((error as any Error).localizedDescription == error.description, sourceLocation: sourceLocation)
    #expect(error.errorDescription == error.description, sourceLocation: sourceLocation)
}

@Suite struct ErrorShapeTests {
    @Test func missingRegistrationPrintsThePathAndTheNearMissesOnLinesOfTheirOwn() {
        let container = Container()
        container.register(ShapeApp.self) { r in ShapeApp(try r.require(ShapeRepository.self)) }
        container.register(ShapeRepository.self) { r in ShapeRepository(try r.require(ShapeDatabase.self)) }
        container.register(ShapeDatabase.self, name: "replica") { _ in ShapeDatabase() }
        let error = #expect(throws: ResolutionError.self) { try container.require(ShapeApp.self) }
        guard let error else { return }
        #expect(error.code == .notRegistered)
        #expect(
            error.description == """
                No registration for ShapeDatabase.
                  Resolution path: ShapeApp → ShapeRepository → ShapeDatabase
                  Registered for ShapeDatabase: ShapeDatabase (name: "replica")
                """)
        #expect(error.details.map(\.label) == ["Resolution path", "Registered for ShapeDatabase"])
        expectSharedShape(error, "ResolutionError")
    }

    @Test func cyclePrintsTheCycleOnceAndTheFixBeneath() {
        let container = Container()
        container.register(ShapeChicken.self) { r in ShapeChicken(try r.require(ShapeEgg.self)) }
        container.register(ShapeEgg.self) { r in
            ShapeEgg(try r.require(ShapeChicken.self))  // assemblage-check: ignore
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(ShapeChicken.self) }
        guard let error else { return }
        #expect(
            error.description == """
                Circular dependency: ShapeChicken → ShapeEgg → ShapeChicken.
                  Break it with initCompleted (property injection) or by resolving Lazy/Provider.
                """)
        expectSharedShape(error, "ResolutionError")
    }

    @Test func factoryFailurePutsAPlainErrorOnTheSummaryLineAndAnAssemblageErrorBeneathIt() throws {
        let container = Container()
        container.register(ShapeDatabase.self) { _ in throw ShapeDiskFull() }
        container.register(ShapeRepository.self) { _ in
            _ = try Properties().requireProperty("database.path", as: String.self)
            return ShapeRepository(ShapeDatabase())
        }
        let plain = #expect(throws: ResolutionError.self) { try container.require(ShapeDatabase.self) }
        #expect(plain?.description == "The factory for ShapeDatabase failed: disk full.")
        plain.map { expectSharedShape($0, "ResolutionError") }

        let nested = try #require(
            #expect(throws: ResolutionError.self) { try container.require(ShapeRepository.self) })
        #expect(nested.code == .factoryFailed)
        #expect(nested.summary == "The factory for ShapeRepository failed.")
        #expect(nested.details.first?.label == "Cause")
        #expect(
            nested.description.hasPrefix(
                """
                The factory for ShapeRepository failed.
                  Cause: Missing key in empty properties (key "database.path")
                """))
        expectSharedShape(nested, "ResolutionError")
    }

    @Test func scopeErrorsNameTheFixOnALineOfItsOwn() throws {
        let container = Container(label: "app")
        let scope = container.makeScope(label: "request")
        let undeclared = #expect(throws: ScopeError.self) { try scope.provide(ShapeRequest(id: 1)) }
        #expect(undeclared?.code == .notDeclared)
        #expect(
            undeclared?.description == """
                ShapeRequest is not declared as a scoped value, so scope "request" of container "app" cannot take it.
                  Fix: declare it on the container with registerScopedValue(ShapeRequest.self).
                """)
        undeclared.map { expectSharedShape($0, "ScopeError") }

        container.registerScopedValue(ShapeRequest.self)
        let declared = container.makeScope(label: "request")
        try declared.provide(ShapeRequest(id: 1))
        let twice = #expect(throws: ScopeError.self) { try declared.provide(ShapeRequest(id: 2)) }
        #expect(
            twice?.description == "scope \"request\" of container \"app\" already has a value for ShapeRequest; "
                + "each scope takes one value per declaration.")
        #expect(twice?.details.isEmpty == true)
        twice.map { expectSharedShape($0, "ScopeError") }
    }

    @Test func disposalErrorListsEveryFailureUnderItsSummary() {
        let container = Container()
        container.register(ShapeJournal.self) { _ in ShapeJournal() }.inObjectScope(.scoped)
        let error = #expect(throws: DisposalError.self) {
            try container.withSynchronousScope(label: "import") { scope in
                _ = try scope.require(ShapeJournal.self)
            }
        }
        guard let error else { return }
        #expect(error.code == .disposerFailed)
        #expect(
            error.description == """
                Disposing scope "import" failed for 1 instance:
                  ShapeJournal: disk full
                """)
        expectSharedShape(error, "DisposalError")
    }

    @Test func containerErrorIsOneSentence() {
        let main = Container(label: "main")
        let payments = Container(label: "payments")
        try? payments.addFallback(main)
        let error = #expect(throws: ContainerError.self) { try main.addFallback(payments) }
        #expect(error?.code == .fallbackCycle)
        #expect(
            error?.description
                == "Adding payments as a fallback of main would make lookup loop: payments already reaches main.")
        error.map { expectSharedShape($0, "ContainerError") }
    }

    @Test func propertyErrorKeepsItsOneLine() {
        let error = #expect(throws: PropertyError.self) {
            try Properties(["port": "eighty"], source: "settings.json").requireProperty("port", as: Int.self)
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.description.hasPrefix("Type mismatch in settings.json (key \"port\"): expected Int") == true)
        #expect(error?.details.isEmpty == true)
        error.map { expectSharedShape($0, "PropertyError") }
    }

    @Test func moduleProblemsPrintTheirPathAndFixIndentedAndSeveralAreNumbered() {
        let one = #expect(throws: ModuleAssemblyError.self) { _ = try ModuleAssembler([ShapeFeedModule()]) }
        #expect(
            one?.description == """
                ShapeStorageModule is needed but was not passed in, and it cannot create itself.
                  Dependency path: ShapeFeedModule → ShapeStorageModule
                  Fix: pass a ShapeStorageModule instance to ModuleAssembler, or conform it to AutoInitModuleAssembly.
                """)
        #expect(one?.problems.first?.description == one?.description)
        one.map { expectSharedShape($0, "ModuleAssemblyError") }

        let two = #expect(throws: ModuleAssemblyError.self) { _ = try ModuleAssembler([ShapeAppModule()]) }
        #expect(two?.code == .moduleNotProvided)
        #expect(two?.codes == [.moduleNotProvided, .moduleNotProvided])
        #expect(
            two?.description == """
                The module graph cannot be assembled (2 problems):
                  1. ShapeStorageModule is needed but was not passed in, and it cannot create itself.
                    Dependency path: ShapeAppModule → ShapeFeedModule → ShapeStorageModule
                    Fix: pass a ShapeStorageModule instance to ModuleAssembler, or conform it to AutoInitModuleAssembly.
                  2. ShapeSearchModule is needed but was not passed in, and it cannot create itself.
                    Dependency path: ShapeAppModule → ShapeSearchModule
                    Fix: pass a ShapeSearchModule instance to ModuleAssembler, or conform it to AutoInitModuleAssembly.
                """)
        two.map { expectSharedShape($0, "ModuleAssemblyError") }
    }

    @Test func injectionFailureNamesTheMissingInjectionOrTheStepsFailureFromTheObject() {
        let container = Container()
        let missing = #expect(throws: ResolutionError.self) { try container.inject(into: ShapeScreen()) }
        #expect(
            missing?.description == """
                No injection is registered for ShapeScreen.
                  Fix: container.registerInjection(for: ShapeScreen.self) { r, object in … }
                """)
        missing.map { expectSharedShape($0, "ResolutionError") }

        container.registerInjection(for: ShapeScreen.self) { r, screen in
            screen.database = try r.require(ShapeDatabase.self)
        }
        let failed = #expect(throws: ResolutionError.self) { try container.inject(into: ShapeScreen()) }
        #expect(failed?.code == .notRegistered)
        #expect(
            failed?.description == """
                No registration for ShapeDatabase.
                  Resolution path: ShapeScreen → ShapeDatabase
                  Nothing is registered for ShapeDatabase under any name or argument list.
                """)
        failed.map { expectSharedShape($0, "ResolutionError") }
    }

    @Test func detailsRenderLabelsContinuationLinesAndNestedDetails() {
        let detail = ErrorDetail(
            "Cause", "first line\nsecond line  \n\n",
            details: [
                ErrorDetail("Resolution path", "A → B"),
                ErrorDetail("A sentence alone."),
            ])
        #expect(
            detail.description == """
                Cause: first line
                  second line
                  Resolution path: A → B
                  A sentence alone.
                """)
        #expect(ErrorDetail("Fix", "").description == "Fix:")
        #expect(ErrorDetail.cause(describing: ShapeDiskFull()).description == "Cause: disk full")
    }

    @Test func codesCompareByNameWithinTheirErrorType() {
        #expect(ResolutionError.Code.cycle == .cycle)
        #expect(ResolutionError.Code.cycle != .notRegistered)
        #expect(ResolutionError.Code.cycle.rawValue == "cycle")
        #expect("\(ModuleAssemblyError.Code.cycle)" == "cycle")
        #expect(Set([ScopeError.Code.scopeEnded, .scopeEnded, .notDeclared]).count == 2)
        let code: ResolutionError.Code = .scopeEnded
        switch code {
        case .notRegistered, .cycle: Issue.record("matched the wrong code")
        case .scopeEnded: break
        default: Issue.record("matched no code")
        }
    }
}
