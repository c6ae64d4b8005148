import Assemblage
import Foundation

// A module tree of realistic shape:
//
//   AppModule ─┬─ FeedModule ─────┬─ NetworkModule
//              │                  ├─ StorageModule      (needs a path: not auto-init; default override:
//              │                  └─ AnalyticsModule ── NetworkModule         InMemoryStorageModule)
//              ├─ ProfileModule ──┬─ NetworkModule
//              │                  └─ StorageModule
//              └─ CheckoutModule ─┬─ NetworkModule
//                                 └─ AnalyticsModule
//
// Assembly order: Network, Storage, Analytics, Feed, Profile, Checkout, App.

// MARK: - Event log (task-local, so parallel tests do not share it)

final class ModuleEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ event: String) { lock.withLock { storage.append(event) } }
    var events: [String] { lock.withLock { storage } }
    func events(_ prefix: String) -> [String] {
        events.filter { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
    }

    @TaskLocal static var current: ModuleEventLog?

    /// Runs `body` with a fresh log and returns it.
    static func recording(_ body: () throws -> Void) rethrows -> ModuleEventLog {
        let log = ModuleEventLog()
        try $current.withValue(log) { try body() }
        return log
    }
}

/// Every fixture module records its `assemble` and `loaded` calls.
protocol RecordingModule: ModuleAssembly {
    func register(into container: Container)
}

extension RecordingModule {
    func assemble(container: Container) {
        ModuleEventLog.current?.append("assemble \(Self.self)")
        register(into: container)
    }

    func loaded(resolver: Resolver) {
        ModuleEventLog.current?.append("loaded \(Self.self)")
    }
}

// MARK: - Services

protocol HTTPTransport: AnyObject, Sendable { var baseURL: String { get } }
final class LiveTransport: HTTPTransport {
    let baseURL: String
    init(baseURL: String) { self.baseURL = baseURL }
}

protocol KeyValueStore: AnyObject, Sendable { var kind: String { get } }
final class DiskStore: KeyValueStore {
    let path: String
    init(path: String) { self.path = path }
    var kind: String { "disk:\(path)" }
}
final class InMemoryStore: KeyValueStore {
    var kind: String { "memory" }
}
final class RecordingStore: KeyValueStore {
    var kind: String { "recording" }
}

final class AnalyticsTracker: Sendable {
    let transport: HTTPTransport
    init(transport: HTTPTransport) { self.transport = transport }
}

final class FeedService {
    let transport: HTTPTransport
    let store: KeyValueStore
    let analytics: AnalyticsTracker
    init(transport: HTTPTransport, store: KeyValueStore, analytics: AnalyticsTracker) {
        self.transport = transport
        self.store = store
        self.analytics = analytics
    }
}

final class ProfileService {
    let transport: HTTPTransport
    let store: KeyValueStore
    init(transport: HTTPTransport, store: KeyValueStore) {
        self.transport = transport
        self.store = store
    }
}

final class CheckoutService {
    let transport: HTTPTransport
    let analytics: AnalyticsTracker
    init(transport: HTTPTransport, analytics: AnalyticsTracker) {
        self.transport = transport
        self.analytics = analytics
    }
}

final class AppCoordinator {
    let feed: FeedService
    let profile: ProfileService
    let checkout: CheckoutService
    init(feed: FeedService, profile: ProfileService, checkout: CheckoutService) {
        self.feed = feed
        self.profile = profile
        self.checkout = checkout
    }
}

// MARK: - Modules

struct NetworkModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func register(into container: Container) {
        container.register(String.self, name: "baseURL") { _ in "https://api.example.com" }
        container.register(HTTPTransport.self) { r in
            LiveTransport(baseURL: try r.require(String.self, name: "baseURL"))
        }
        .inObjectScope(.container)
    }
}

/// Needs a path from the app, so it cannot create itself.
struct StorageModule: RecordingModule, DefaultModuleAssemblyOverride {
    typealias OverrideType = InMemoryStorageModule
    static var dependencies: [any ModuleAssembly.Type] { [] }
    let path: String
    func register(into container: Container) {
        let path = self.path
        container.register(KeyValueStore.self) { _ in DiskStore(path: path) }.inObjectScope(.container)
    }
}

/// The test fake for storage; StorageModule's default override.
struct InMemoryStorageModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [StorageModule.self] }
    func register(into container: Container) {
        container.register(KeyValueStore.self) { _ in InMemoryStore() }.inObjectScope(.container)
    }
}

/// Another storage fake, passed explicitly.
struct RecordingStorageModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    static var replaces: [any ModuleAssembly.Type] { [StorageModule.self] }
    func register(into container: Container) {
        container.register(KeyValueStore.self) { _ in RecordingStore() }.inObjectScope(.container)
    }
}

struct AnalyticsModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self] }
    func register(into container: Container) {
        container.register(AnalyticsTracker.self) { r in AnalyticsTracker(transport: try r.require(HTTPTransport.self))
        }
        .inObjectScope(.container)
    }
}

struct FeedModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] {
        [NetworkModule.self, StorageModule.self, AnalyticsModule.self]
    }
    func register(into container: Container) {
        container.register(FeedService.self) { r in
            FeedService(
                transport: try r.require(HTTPTransport.self), store: try r.require(KeyValueStore.self),
                analytics: try r.require(AnalyticsTracker.self))
        }.inObjectScope(.container)
    }
}

struct ProfileModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, StorageModule.self] }
    func register(into container: Container) {
        container.register(ProfileService.self) { r in
            ProfileService(transport: try r.require(HTTPTransport.self), store: try r.require(KeyValueStore.self))
        }
    }
}

struct CheckoutModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [NetworkModule.self, AnalyticsModule.self] }
    func register(into container: Container) {
        container.register(CheckoutService.self) { r in
            CheckoutService(
                transport: try r.require(HTTPTransport.self), analytics: try r.require(AnalyticsTracker.self))
        }
    }
}

struct AppModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [FeedModule.self, ProfileModule.self, CheckoutModule.self] }
    func register(into container: Container) {
        container.register(AppCoordinator.self) { r in
            AppCoordinator(
                feed: try r.require(FeedService.self), profile: try r.require(ProfileService.self),
                checkout: try r.require(CheckoutService.self))
        }
    }
}

/// The names of the modules an assembler assembled, in order.
func moduleNames(_ assembler: ModuleAssembler) -> [String] {
    assembler.modules.map { String(describing: $0) }
}

let appTreeOrder = [
    "NetworkModule", "StorageModule", "AnalyticsModule", "FeedModule", "ProfileModule",
    "CheckoutModule", "AppModule",
]
