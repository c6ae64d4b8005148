import AssemblageTestSupport
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reliability suite. Its tests run one at a time (`.serialized` applies to every nested suite), so that
/// stress tests do not skew each other's latency figures; other test targets still run beside them.
@Suite(.serialized) struct Reliability {}

// MARK: - Budget

/// How much work the heavy tests do.
///
/// Counts are written for a debug build on two cores. Under ThreadSanitizer (detected at run time, or forced
/// with `ASSEMBLAGE_TSAN=1`) they are scaled by 0.1 so that the sanitized run of the suite stays under three
/// minutes; `ASSEMBLAGE_RELIABILITY_SCALE` (a positive number, e.g. `10` for a long soak) overrides both.
enum Budget {
    /// Whether the ThreadSanitizer runtime is linked into this process.
    static let underThreadSanitizer: Bool = {
        if ProcessInfo.processInfo.environment["ASSEMBLAGE_TSAN"] == "1" { return true }
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil
    }()

    static let scale: Double = {
        if let text = ProcessInfo.processInfo.environment["ASSEMBLAGE_RELIABILITY_SCALE"],
            let value = Double(text), value > 0
        {
            return value
        }
        return underThreadSanitizer ? 0.1 : 1
    }()

    /// `count` scaled by ``scale``, at least `minimum`.
    static func count(_ count: Int, minimum: Int = 1) -> Int {
        max(minimum, Int((Double(count) * scale).rounded()))
    }

    /// A time limit, loosened under the sanitizer (which slows code 5–15×).
    static func seconds(_ seconds: Double) -> Double {
        underThreadSanitizer ? seconds * 10 : seconds
    }

    /// A description of the run for figures: `debug`, `debug+TSan`, scale.
    static var runDescription: String {
        var parts: [String] = []
        #if DEBUG
        parts.append("debug")
        #else
        parts.append("release")
        #endif
        if underThreadSanitizer { parts.append("TSan") }
        if scale != 1 { parts.append("scale \(scale)") }
        return parts.joined(separator: ", ")
    }
}

// MARK: - Heavy tests and figures

/// Prints one measured figure in a form that is easy to grep from the test log (`grep '\[figure\]'`), when the heavy
/// tests run (``heavyTestsEnabled``); a plain `swift test` prints none.
enum Figure {
    static func report(_ name: String, _ text: String) {
        guard heavyTestsEnabled else { return }
        print("[figure] \(name): \(text) (\(Budget.runDescription))")
    }
}

/// Wall-clock time in nanoseconds, for latency figures.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Milliseconds since `start`.
func milliseconds(since start: UInt64) -> Double { Double(now() &- start) / 1_000_000 }

/// The `fraction` percentile (0…1) of `samples`, nearest rank; 0 for no samples.
func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// `12.3` → `"12.30"`.
func format(_ value: Double) -> String { String(format: "%.2f", value) }

// MARK: - Synchronisation helpers (every wait is bounded and its result returned)

/// A value guarded by a lock.
final class Locked<Value>: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
    var current: Value { withLock { $0 } }
}

/// Counts events from any thread.
final class Tally: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    func decrement() {
        lock.lock()
        value -= 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Collects values from many threads.
final class Bag<T>: @unchecked Sendable {  // @unchecked: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var all: [T] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// Counts down to zero; waiters learn whether it got there in time.
final class Latch: @unchecked Sendable {  // @unchecked: state is only touched under `condition`.
    private let condition = NSCondition()
    private var remaining: Int
    private var nextWaiter = 0
    private var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]

    init(count: Int) { remaining = count }

    func countDown() {
        condition.lock()
        remaining -= 1
        var resumed: [CheckedContinuation<Bool, Never>] = []
        if remaining == 0 {
            resumed = Array(waiters.values)
            waiters = [:]
        }
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume(returning: true) }
    }

    /// Blocks until the count reaches zero or `timeout` seconds pass. Returns `false` on timeout.
    func wait(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while remaining > 0 {
            if !condition.wait(until: deadline) { return remaining <= 0 }
        }
        return true
    }

    /// Suspends until the count reaches zero or `timeout` seconds pass. Returns `false` on timeout.
    func wait(timeout: Double) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            condition.lock()
            if remaining <= 0 {
                condition.unlock()
                continuation.resume(returning: true)
                return
            }
            let id = nextWaiter
            nextWaiter += 1
            waiters[id] = continuation
            condition.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                condition.lock()
                let expired = waiters.removeValue(forKey: id)
                condition.unlock()
                expired?.resume(returning: false)
            }
        }
    }
}

/// Holds threads and tasks until every one has arrived and the gate is opened, so that they start together.
final class StartGate: @unchecked Sendable {  // @unchecked: state is only touched under `condition`.
    private let condition = NSCondition()
    private var arrived = 0
    private var isOpen = false
    private var parked: [CheckedContinuation<Void, Never>] = []

    /// Called by a thread: blocks until the gate opens.
    func arriveAndWait() {
        condition.lock()
        arrived += 1
        condition.broadcast()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    /// Called by a task: suspends (without blocking its thread) until the gate opens.
    func arrive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            arrived += 1
            condition.broadcast()
            if isOpen {
                condition.unlock()
                continuation.resume()
            } else {
                parked.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Waits until `count` callers have arrived. Returns `false` on timeout.
    func waitForArrivals(_ count: Int, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while arrived < count {
            if !condition.wait(until: deadline) { return arrived >= count }
        }
        return true
    }

    /// Lets everyone through.
    func open() {
        condition.lock()
        isOpen = true
        let tasks = parked
        parked = []
        condition.broadcast()
        condition.unlock()
        for task in tasks { task.resume() }
    }
}

/// Starts a thread that runs `body`, with the given stack size (bytes) when not nil.
func startThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    if let stackSize { thread.stackSize = stackSize }
    thread.start()
}

/// Runs a blocking `body` on a new thread and suspends until it returns, so that a task never blocks one of
/// the few threads of the cooperative pool on a wait of its own.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        startThread { continuation.resume(returning: body()) }
    }
}

/// Runs `body` on a new thread and waits for it. Returns nil when it did not finish within `timeout` seconds.
func onThread<T: Sendable>(stackSize: Int? = nil, timeout: Double, _ body: @escaping @Sendable () -> T) -> T? {
    let result = Locked<T?>(nil)
    let done = Latch(count: 1)
    startThread(stackSize: stackSize) {
        let value = body()
        result.withLock { $0 = value }
        done.countDown()
    }
    guard done.wait(timeout: timeout) else { return nil }
    return result.current
}

/// Runs `body` on a Dispatch worker thread and waits for it. Returns nil on timeout.
func onDispatchWorker<T: Sendable>(timeout: Double, _ body: @escaping @Sendable () -> T) -> T? {
    let result = Locked<T?>(nil)
    let done = Latch(count: 1)
    DispatchQueue.global().async {
        let value = body()
        result.withLock { $0 = value }
        done.countDown()
    }
    guard done.wait(timeout: timeout) else { return nil }
    return result.current
}

/// The resident set size of this process in bytes (Linux: /proc/self/statm; elsewhere 0).
func residentBytes() -> Int {
    #if os(Linux)
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return 0
    #endif
}

// MARK: - Fixtures

/// Counts live instances of a class, so that tests can see what was freed.
final class LiveCount: @unchecked Sendable {  // @unchecked: the counters are only touched under `lock`.
    private let lock = NSLock()
    private var made = 0
    private var freed = 0
    func didMake() {
        lock.lock()
        made += 1
        lock.unlock()
    }
    func didFree() {
        lock.lock()
        freed += 1
        lock.unlock()
    }
    var madeCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return made
    }
    var liveCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return made - freed
    }
}

/// An object that reports its life to a ``LiveCount``.
final class Tracked: @unchecked Sendable {  // @unchecked: immutable after init.
    let count: LiveCount
    let tag: Int
    init(_ count: LiveCount, tag: Int = 0) {
        self.count = count
        self.tag = tag
        count.didMake()
    }
    deinit { count.didFree() }
}

/// A test failure thrown from factories.
struct Failure: Error, CustomStringConvertible {
    var description: String { "planted failure" }
}
