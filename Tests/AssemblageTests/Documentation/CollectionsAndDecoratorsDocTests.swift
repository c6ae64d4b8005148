import Assemblage
import Testing

// The code of the "Collections and Decorators" article, compiled and run (see GettingStartedDocTests.swift).

enum CollectionsDoc {
    // snippet: collections-types
    protocol LogHandler: Sendable {
        var label: String { get }
    }

    struct ConsoleLogHandler: LogHandler { let label = "console" }
    struct FileLogHandler: LogHandler { let label = "file" }
    struct RemoteLogHandler: LogHandler { let label = "remote" }

    final class Logger: Sendable {
        let handlers: [LogHandler]
        init(handlers: [LogHandler]) { self.handlers = handlers }
    }
    // end-snippet

    // snippet: decorators-types
    protocol Storage: Sendable {
        var layers: [String] { get }
    }

    struct DiskStorage: Storage {
        var layers: [String] { ["disk"] }
    }

    struct LoggingStorage: Storage {
        let inner: Storage
        var layers: [String] { ["logging"] + inner.layers }
    }

    struct CachingStorage: Storage {
        let inner: Storage
        var layers: [String] { ["caching"] + inner.layers }
    }
    // end-snippet

    @Suite("Docs: Collections and Decorators") struct Samples {
        @Test func collections() throws {
            // snippet: collections-register
            let container = Container()
            container.registerIntoCollection(LogHandler.self) { _ in ConsoleLogHandler() }
            container.registerIntoCollection(LogHandler.self, name: "file", priority: 10) { _ in FileLogHandler() }
            container.register(Logger.self) { r in Logger(handlers: try r.resolveAll(LogHandler.self)) }

            let logger = try container.require(Logger.self)  // handlers: file (priority 10), then console
            let named = try container.resolveAllNamed(LogHandler.self)  // ["file": FileLogHandler]
            let same = try container.require([LogHandler].self)  // [T] resolves to T's collection
            // end-snippet
            #expect(logger.handlers.map(\.label) == ["file", "console"])
            #expect(named.keys.sorted() == ["file"])
            #expect(same.map(\.label) == ["file", "console"])

            // snippet: collections-fallbacks
            let feature = Container(parent: container)
            feature.registerIntoCollection(LogHandler.self) { _ in RemoteLogHandler() }
            let labels = try feature.resolveAll(LogHandler.self).map(\.label)  // ["file", "remote", "console"]
            // end-snippet
            #expect(labels == ["file", "remote", "console"])
        }

        @Test func decorators() throws {
            // snippet: decorators-register
            let container = Container()
            container.register(Storage.self) { _ in DiskStorage() }
            container.decorate(Storage.self) { _, inner in LoggingStorage(inner: inner) }
            container.decorate(Storage.self) { _, inner in CachingStorage(inner: inner) }

            let storage = try container.require(Storage.self)
            print(storage.layers)  // ["caching", "logging", "disk"]: the last decorator is outermost
            // end-snippet
            #expect(storage.layers == ["caching", "logging", "disk"])
        }

        @Test func unmatchedDecorator() {
            // snippet: decorators-unmatched
            let container = Container(label: "app")
            container.decorate(LogHandler.self) { _, inner in inner }  // nothing registers LogHandler here
            for problem in container.unmatchedDecorators() {
                print(problem)  // The decorator for LogHandler registered at … matches no registration: …
            }
            // end-snippet
            #expect(container.unmatchedDecorators().map(\.code) == [.decoratorWithoutService])
        }
    }
}
