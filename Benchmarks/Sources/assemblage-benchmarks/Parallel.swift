import Dispatch

// Running a workload's loop on several threads or tasks at once, for the throughput workloads.
// Imports neither library.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The loop of one worker: `body(iterations)` runs that many operations, storing each result with
/// `blackHole(_:into:)` into a slot of its own.
typealias WorkerBody = @Sendable (_ iterations: Int) -> Void

enum Parallel {
    /// Splits `iterations` into `parts` shares that differ by at most one.
    static func shares(_ iterations: Int, _ parts: Int) -> [Int] {
        (0..<parts).map { iterations / parts + ($0 < iterations % parts ? 1 : 0) }
    }

    /// Runs `body` on `threads` new threads at once, `iterations` split between them, and returns when
    /// all have finished. Starting and joining the threads (tens of µs) is part of the timed batch.
    static func threads(_ threads: Int, iterations: Int, _ body: @escaping WorkerBody) {
        var started: [WorkerThread] = []
        for share in shares(iterations, threads) {
            started.append(WorkerThread.start { body(share) })
        }
        for thread in started { thread.join() }
    }

    /// Runs `body` in `tasks` child tasks of one task group on the global concurrent executor,
    /// `iterations` split between them, and blocks the calling thread (not one of the executor's)
    /// until all have finished.
    static func tasks(_ tasks: Int, iterations: Int, _ body: @escaping WorkerBody) {
        let done = DispatchSemaphore(value: 0)
        let work = shares(iterations, tasks)
        Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for share in work {
                    group.addTask { body(share) }
                }
            }
            done.signal()
        }
        done.wait()
    }
}

/// A POSIX thread running one closure.
struct WorkerThread {
    private let handle: pthread_t

    /// The closure, passed to the new thread through a retained pointer.
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping @Sendable () -> Void) -> WorkerThread {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var handle: pthread_t?
        #else
        var handle = pthread_t()
        #endif
        let status = pthread_create(
            &handle, nil,
            { raw in
                #if canImport(Darwin)
                let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
                #else
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                #endif
                box.body()
                return nil
            }, box)
        if status != 0 { Check.fail("pthread_create failed (\(status))") }
        #if canImport(Darwin)
        return WorkerThread(handle: handle!)
        #else
        return WorkerThread(handle: handle)
        #endif
    }

    func join() {
        let status = pthread_join(handle, nil)
        if status != 0 { Check.fail("pthread_join failed (\(status))") }
    }
}

extension Parallel {
    /// How the throughput workloads spread their iterations.
    enum Mode: Sendable {
        /// New POSIX threads, started together for each timed batch.
        case threads(Int)
        /// Child tasks of one task group on the global concurrent executor.
        case tasks(Int)
    }

    static func run(_ mode: Mode, iterations: Int, _ body: @escaping WorkerBody) {
        switch mode {
        case .threads(let count): threads(count, iterations: iterations, body)
        case .tasks(let count): tasks(count, iterations: iterations, body)
        }
    }
}

/// Carries a value that is not `Sendable` to worker threads. Each use says why that is safe.
struct UncheckedSendable<Value>: @unchecked Sendable {
    // @unchecked Sendable: only for values whose own synchronisation is documented at the use site.
    let value: Value
    init(_ value: Value) { self.value = value }
}
