#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The creation hook behind `StartupProfile.record`: installed while at least one recording runs, it notes every
// instance any container makes (start, end, thread, parent) under one lock. Each recording takes the records made
// since it began.

/// One creation as recorded: ids are the recorder's, parents among them.
struct _ProfileRecord {
    let creation: _Creation
    let parent: Int?
    let thread: Int
    let isMainThread: Bool
    let isAsync: Bool
    let start: UInt64
    var end: UInt64?
    var failed = false
}

/// The async factory whose task (and the tasks it starts) is running: the parent of what they make, and the
/// record its own synchronous finish belongs to.
struct _ProfileAsyncParent: Sendable {
    let id: Int
    let entry: ObjectIdentifier
}

final class _ProfileRecorder: _CreationHook {
    static let shared = _ProfileRecorder()

    /// The async factory the current task is inside, while a recording runs.
    @TaskLocal static var asyncParent: _ProfileAsyncParent?

    struct State {
        /// How many recordings are running.
        var sessions = 0
        /// The records since the first running recording began; record `id` is at `id - base`.
        var records: [_ProfileRecord] = []
        var base = 0
        /// The ids of the creations running on each thread's resolution state, innermost last.
        var stacks: [ObjectIdentifier: [Int]] = [:]
        /// A small number for each thread seen, from 1, in the order they were first seen.
        var threadNumbers: [UInt64: Int] = [:]

        mutating func number(of thread: UInt64) -> Int {
            if let number = threadNumbers[thread] { return number }
            let number = threadNumbers.count + 1
            threadNumbers[thread] = number
            return number
        }
    }

    private let state = _Locked(State())

    /// Begins a recording: installs the hook when it is the first. Returns the id of the first record it takes.
    func beginSession() -> Int {
        state.withLock { state in
            if state.sessions == 0 { _CreationHooks.install(self) }
            state.sessions += 1
            return state.base + state.records.count
        }
    }

    /// Ends a recording that began at `first`: the records since then; removes the hook when it was the last.
    func endSession(from first: Int) -> [(id: Int, record: _ProfileRecord)] {
        state.withLock { state in
            let from = max(first - state.base, 0)
            let taken = (from..<state.records.count).map { (id: state.base + $0, record: state.records[$0]) }
            state.sessions -= 1
            if state.sessions == 0 {
                _CreationHooks.install(nil)
                state.base += state.records.count
                state.records.removeAll()
                state.stacks.removeAll()
            }
            return taken
        }
    }

    func observe<T>(_ creation: _Creation, thread: ObjectIdentifier, _ make: () throws -> T) rethrows -> T {
        let asyncParent = Self.asyncParent
        let (tid, isMain) = Self.currentThread()
        let start = Self.now()
        // The record begun (nil: none, or the async factory's whose finish this is), and whether the thread's
        // stack has a frame to pop.
        let (id, pushed): (Int?, Bool) = state.withLock { state in
            guard state.sessions > 0 else { return (nil, false) }
            let stack = state.stacks[thread] ?? []
            // An async factory's own synchronous finish (scope, steps) belongs to its record.
            if stack.isEmpty, let asyncParent, asyncParent.entry == creation.entry {
                state.stacks[thread] = [asyncParent.id]
                return (nil, true)
            }
            let id = state.base + state.records.count
            state.records.append(
                _ProfileRecord(
                    creation: creation, parent: stack.last ?? asyncParent?.id,
                    thread: state.number(of: tid),
                    isMainThread: isMain, isAsync: false, start: start))
            state.stacks[thread, default: []].append(id)
            return (id, true)
        }
        var failed = true
        defer { finish(id, thread: pushed ? thread : nil, failed: failed) }
        let made = try make()
        failed = false
        return made
    }

    func observeAsync<T, E: Error>(_ creation: _Creation, _ make: () async throws(E) -> T) async throws(E) -> T {
        let parent = Self.asyncParent
        let (tid, isMain) = Self.currentThread()
        let start = Self.now()
        let id: Int? = state.withLock { state in
            guard state.sessions > 0 else { return nil }
            let id = state.base + state.records.count
            state.records.append(
                _ProfileRecord(
                    creation: creation, parent: parent?.id,
                    thread: state.number(of: tid),
                    isMainThread: isMain, isAsync: true, start: start))
            return id
        }
        guard let id else { return try await make() }
        let outcome: Result<T, E> = await Self.$asyncParent.withValue(
            _ProfileAsyncParent(id: id, entry: creation.entry)
        ) {
            do throws(E) {
                return .success(try await make())
            } catch {
                return .failure(error)
            }
        }
        if case .failure = outcome {
            finish(id, thread: nil, failed: true)
        } else {
            finish(id, thread: nil, failed: false)
        }
        return try outcome.get()
    }

    /// Ends the creation `id` (nil: adopted by an async factory's record, or made while nothing recorded) and
    /// pops it from `thread`'s stack.
    private func finish(_ id: Int?, thread: ObjectIdentifier?, failed: Bool) {
        let end = Self.now()
        state.withLock { state in
            if let thread, var stack = state.stacks[thread], !stack.isEmpty {
                stack.removeLast()
                state.stacks[thread] = stack.isEmpty ? nil : stack
            }
            guard let id, id >= state.base, id - state.base < state.records.count else { return }
            state.records[id - state.base].end = end
            state.records[id - state.base].failed = failed
        }
    }

    /// Nanoseconds of a monotonic clock.
    static func now() -> UInt64 {
        #if canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        #endif
    }

    /// The calling thread's identity in the process (the system's id on Apple platforms, the POSIX thread
    /// handle elsewhere), and whether it is the main thread.
    static func currentThread() -> (UInt64, Bool) {
        #if canImport(Darwin)
        var id: UInt64 = 0
        pthread_threadid_np(nil, &id)
        return (id, _Shim.isMainThread)
        #else
        return (UInt64(pthread_self()), _Shim.isMainThread)
        #endif
    }
}
