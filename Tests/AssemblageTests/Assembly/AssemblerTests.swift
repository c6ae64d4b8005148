import Assemblage
import Foundation
import Testing

// The Assembler example of Swinject's documentation, as written there (with Swift 6 spellings).

protocol FooServiceType: Sendable {}
protocol BarServiceType: Sendable {}
struct FooService: FooServiceType {}
struct BarService: BarServiceType {}
protocol FooManagerType { var service: FooServiceType { get } }
protocol BarManagerType { var service: BarServiceType { get } }
struct FooManager: FooManagerType { let service: FooServiceType }
struct BarManager: BarManagerType { let service: BarServiceType }

protocol LogHandlerType: Sendable { func log(message: String) }

final class SeedLogger: @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [LogHandlerType] = []
    func addHandler(logHandler: LogHandlerType) {
        lock.lock()
        handlers.append(logHandler)
        lock.unlock()
    }
    func log(message: String) {
        lock.lock()
        let current = handlers
        lock.unlock()
        for handler in current { handler.log(message: message) }
    }
    var handlerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return handlers.count
    }
}

final class RecordingLogHandler: LogHandlerType, @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var lines: [String] = []
    init(name: String) { self.name = name }
    func log(message: String) {
        lock.lock()
        lines.append("\(name): \(message)")
        lock.unlock()
    }
    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}

class ServiceAssembly: Assembly {
    func assemble(container: Container) {
        container.register(FooServiceType.self) { r in
            return FooService()
        }
        container.register(BarServiceType.self) { r in
            return BarService()
        }
    }
}

class ManagerAssembly: Assembly {
    func assemble(container: Container) {
        container.register(FooManagerType.self) { r in
            return FooManager(service: r.resolve(FooServiceType.self)!)
        }
        container.register(BarManagerType.self) { r in
            return BarManager(service: r.resolve(BarServiceType.self)!)
        }
    }
}

final class LoggerAssembly: Assembly {
    let logger: SeedLogger
    init(logger: SeedLogger) { self.logger = logger }

    func assemble(container: Container) {
        container.register(LogHandlerType.self, name: "console") { r in
            return RecordingLogHandler(name: "console")
        }.inObjectScope(.container)
        container.register(LogHandlerType.self, name: "file") { r in
            return RecordingLogHandler(name: "file")
        }.inObjectScope(.container)
    }

    func loaded(resolver: Resolver) {
        logger.addHandler(logHandler: resolver.resolve(LogHandlerType.self, name: "console")!)
        logger.addHandler(logHandler: resolver.resolve(LogHandlerType.self, name: "file")!)
    }
}

/// Records the order of assemble and loaded calls across assemblies.
final class PhaseLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func record(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

struct TracingAssembly: Assembly {
    let name: String
    let log: PhaseLog
    var needs: String?

    func assemble(container: Container) {
        log.record("assemble \(name)")
        container.register(String.self, name: name) { _ in name }
    }

    func loaded(resolver: Resolver) {
        if let needs {
            log.record("loaded \(name) sees \(needs): \(resolver.resolve(String.self, name: needs) != nil)")
        } else {
            log.record("loaded \(name)")
        }
    }
}

@Suite struct AssemblerTests {
    @Test func seedExampleWorksAsWritten() throws {
        let assembler = Assembler([
            ServiceAssembly(),
            ManagerAssembly(),
        ])
        let fooManager = assembler.resolver.resolve(FooManagerType.self)!
        #expect(fooManager.service is FooService)
        #expect(assembler.resolver.resolve(BarManagerType.self)?.service is BarService)

        let logger = SeedLogger()
        assembler.applyAssembly(LoggerAssembly(logger: logger))
        #expect(logger.handlerCount == 2)
        logger.log(message: "DEBUG: hello")
        let console = try #require(
            assembler.resolver.resolve(LogHandlerType.self, name: "console") as? RecordingLogHandler)
        #expect(console.messages == ["console: DEBUG: hello"])
    }

    @Test func batchRunsEveryAssembleBeforeAnyLoaded() {
        let log = PhaseLog()
        let assembler = Assembler()
        assembler.apply(assemblies: [
            TracingAssembly(name: "a", log: log, needs: "b"),
            TracingAssembly(name: "b", log: log),
        ])
        #expect(log.all == ["assemble a", "assemble b", "loaded a sees b: true", "loaded b"])
    }

    @Test func applyAssemblyIsABatchOfOne() {
        let log = PhaseLog()
        let assembler = Assembler()
        assembler.apply(assembly: TracingAssembly(name: "a", log: log, needs: "b"))
        assembler.apply(assembly: TracingAssembly(name: "b", log: log))
        #expect(log.all == ["assemble a", "loaded a sees b: false", "assemble b", "loaded b"])
    }

    @Test func loadedOrderAcrossBatchesFollowsApplication() {
        let log = PhaseLog()
        let assembler = Assembler([TracingAssembly(name: "a", log: log)])
        assembler.addAssemblies([TracingAssembly(name: "b", log: log), TracingAssembly(name: "c", log: log)])
        assembler.applyAssemblies([TracingAssembly(name: "d", log: log)])
        #expect(
            log.all == [
                "assemble a", "loaded a", "assemble b", "assemble c", "loaded b", "loaded c",
                "assemble d", "loaded d",
            ])
    }

    @Test func applyingTheSameAssemblyTwiceRegistersAgainAndRunsLoadedAgain() {
        let logger = SeedLogger()
        let assembler = Assembler([LoggerAssembly(logger: logger)])
        let first = assembler.resolver.resolve(LogHandlerType.self, name: "console") as AnyObject?
        assembler.apply(assembly: LoggerAssembly(logger: logger))
        let second = assembler.resolver.resolve(LogHandlerType.self, name: "console") as AnyObject?
        #expect(logger.handlerCount == 4)
        #expect(first !== second)  // the later registration (with its own container-scoped instance) wins
    }

    @Test func laterAssemblyOverridesEarlierRegistration() {
        struct MockFooAssembly: Assembly {
            struct MockFoo: FooServiceType {}
            func assemble(container: Container) { container.register(FooServiceType.self) { _ in MockFoo() } }
        }
        let assembler = Assembler([ServiceAssembly(), ManagerAssembly(), MockFooAssembly()])
        #expect(assembler.resolver.resolve(FooManagerType.self)?.service is MockFooAssembly.MockFoo)
    }

    @Test func childAssemblerFallsBackToParent() {
        let parent = Assembler([ServiceAssembly()])
        let child = Assembler([ManagerAssembly()], parent: parent)
        #expect(child.resolver.resolve(FooManagerType.self) != nil)
        #expect(parent.resolver.resolve(FooManagerType.self) == nil)
        let empty = Assembler(parentAssembler: parent, defaultObjectScope: .container)
        #expect(empty.resolver.resolve(FooServiceType.self) != nil)
    }

    @Test func assemblerUsesTheGivenContainer() {
        let container = Container()
        let assembler = Assembler([ServiceAssembly()], container: container)
        #expect(container.resolve(FooServiceType.self) != nil)
        #expect((assembler.resolver as? Container) === container)
    }
}
