// assemblage-leak-probe: builds and drops containers with every kind of registration, so that a leak checker
// (valgrind, `leaks`, ASan's LeakSanitizer) can see whether anything the library allocates outlives them.
//
//     swift build -c release --product assemblage-leak-probe      # from Stress/
//     valgrind --leak-check=full --error-exitcode=1 .build/release/assemblage-leak-probe [containers]
//
// or simply `Stress/leak-probe.sh`. The probe also counts its own objects and exits with status 1 when any
// service, capture or container outlives its container.
import Assemblage
import Foundation

/// Counts live probe objects.
final class LiveObjects: @unchecked Sendable {  // @unchecked: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    func add(_ delta: Int) {
        lock.lock()
        count += delta
        lock.unlock()
    }
    var live: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

let live = LiveObjects()

/// Any object the probe makes: a service, a factory capture, a decorator.
final class Probe: @unchecked Sendable {  // @unchecked: immutable.
    let children: [Probe]
    init(_ children: [Probe] = []) {
        self.children = children
        live.add(1)
    }
    deinit { live.add(-1) }
}

/// A long-lived service that holds lazily resolved and provided dependencies.
final class Holder: @unchecked Sendable {  // @unchecked: immutable.
    let lazy: Lazy<Probe>
    let provider: Provider<Probe>
    let probe = Probe()
    init(lazy: Lazy<Probe>, provider: Provider<Probe>) {
        self.lazy = lazy
        self.provider = provider
    }
}

let permanent = ObjectScope(storageFactory: PermanentStorage.init, description: "permanent")
let customGraph = ObjectScope(storageFactory: GraphStorage.init, description: "custom graph")

/// One container's worth of work; everything it makes must be gone when it returns.
func exercise(_ round: Int) {
    let parent = Container(label: "parent")
    let child = Container(parent: parent, label: "child")
    let capture = Probe()
    parent.register(Probe.self) { _ in
        _ = capture
        return Probe()
    }.inObjectScope(.container)
    parent.register(Probe.self, name: "singleton") { _ in Probe() }.inObjectScope(.singleton)
    parent.register(Probe.self, name: "weak") { _ in Probe() }.inObjectScope(.weak)
    parent.register(Probe.self, name: "permanent") { _ in Probe() }.inObjectScope(permanent)
    parent.register(Probe.self, name: "custom graph") { _ in Probe() }.inObjectScope(customGraph)
    parent.register(Probe.self, name: "argument") { (_, n: Int) in Probe(Array(repeating: Probe(), count: n % 3)) }
        .inObjectScope(.multiton)
    child.register(Probe.self, name: "graph") { r in
        Probe([
            try r.require(Probe.self), try r.require(Probe.self, name: "weak"),
            try r.require(Probe.self, name: "custom graph"),
        ])
    }.initCompleted { _, probe in _ = probe.children.count }
    child.register(Holder.self) { r in
        Holder(lazy: try r.require(Lazy<Probe>.self, name: "graph"), provider: try r.require(Provider<Probe>.self))
    }.inObjectScope(.singleton)
    for index in 0..<3 {
        child.registerIntoCollection(Probe.self, name: "element\(index)", priority: index) { _ in Probe() }
            .inObjectScope(index == 0 ? .container : .transient)
    }
    let decoration = Probe()
    child.decorate(Probe.self, name: "graph") { _, probe in
        _ = decoration
        return Probe([probe])
    }
    // Resolve everything, some of it twice, and reset once.
    _ = child.resolve(Probe.self, name: "graph")
    _ = child.resolve(Probe.self, name: "singleton")
    _ = child.resolve(Probe.self, name: "permanent")
    _ = child.resolve(Probe.self, name: "argument", argument: round)
    let holder = child.resolve(Holder.self)
    _ = holder?.lazy.instance
    _ = holder?.provider.instance
    _ = try? child.resolveAll(Probe.self)
    _ = try? child.resolveAllNamed(Probe.self)
    if round % 2 == 0 { parent.resetObjectScope(.container) }
    _ = child.resolve(Probe.self, name: "graph")
    _ = try? child.require(Probe.self, name: "missing")
    if round % 7 == 0 { child.removeAll() }
}

let containers = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000
let start = Date()
for round in 0..<containers { exercise(round) }
// One round on another thread, whose resolution state is freed when it exits (joined, so that it has).
#if canImport(Darwin)
var thread: pthread_t?
#else
var thread = pthread_t()
#endif
pthread_create(
    &thread, nil,
    { _ in
        exercise(containers)
        return nil
    }, nil)
#if canImport(Darwin)
pthread_join(thread!, nil)
#else
pthread_join(thread, nil)
#endif
let seconds = Date().timeIntervalSince(start)
print(
    "assemblage-leak-probe: \(containers + 1) containers built and dropped in "
        + String(format: "%.2f", seconds) + " s; probe objects still alive: \(live.live)")
exit(live.live == 0 ? 0 : 1)
