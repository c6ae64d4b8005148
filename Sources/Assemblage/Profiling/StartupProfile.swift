/// Every instance the containers of a process made while some code ran: which registration, in which scope and
/// container, on which thread, when it started, how long it took in all and by itself, and what asked for it.
///
/// Record one around an app's start (or any code), then read it as text, as a Chrome trace, or as a flame graph:
///
/// ```swift
/// let profile = try StartupProfile.record {
///     app = try AppAssembler().assemble()
///     _ = try app.require(Server.self)
/// }
/// print(profile.text)                                         // the slowest registrations
/// try profile.write(to: URL(filePath: "startup-profile"))     // trace JSON, flame graph SVG, text
/// ```
///
/// A recording sees every container of the process, on every thread and in every task, with async factories:
/// resolutions that other code makes at the same time are in it too. A factory's time is counted from the call
/// of the factory to the end of its `initCompleted` steps and decorators; instances that already exist are not
/// made again, so they are not in the profile. While no recording runs, the profiler costs nothing on the resolve
/// path: the factory call tests one process-wide flag that decorators already needed.
///
/// See <doc:StartupProfiles>.
public struct StartupProfile: Sendable {
    /// One instance made while the profile was recorded.
    ///
    /// ```swift
    /// for instance in profile.instances where instance.selfNanoseconds > 10_000_000 {
    ///     print(instance.registration, instance.scope, instance.site)
    /// }
    /// ```
    public struct Instance: Sendable, Hashable {
        /// Its position in ``StartupProfile/instances`` (in the order the factories started).
        public let id: Int
        /// The ``id`` of the instance whose factory (or `initCompleted` step, or async factory) asked for this
        /// one; nil for an instance asked for directly (a top-level resolve).
        public let parent: Int?
        /// The registration that made it.
        public let registration: ServiceKey
        /// Where the registration was made.
        public let site: RegistrationSite
        /// The name of its object scope: `transient`, `graph`, `container`, `singleton`, a custom scope's.
        public let scope: String
        /// The label of the container (or request scope) that made it.
        public let container: String
        /// The thread the factory started on: a number from 1, the same for a thread in every profile of the
        /// process, in the order threads were first seen making an instance.
        public let thread: Int
        /// Whether that thread is the main thread.
        public let isMainThread: Bool
        /// Whether the factory is `async` (made through `resolveAsync`).
        public let isAsync: Bool
        /// Whether the factory (or a step or decorator) threw: nothing was made.
        public let failed: Bool
        /// When the factory started, in nanoseconds since the recording began.
        public let startNanoseconds: UInt64
        /// How long the instance took to make, the instances it asked for included (nanoseconds).
        public let durationNanoseconds: UInt64
        /// ``durationNanoseconds`` less the time of the instances it asked for: its own factory's work.
        public let selfNanoseconds: UInt64
    }

    /// The instances made, in the order their factories started.
    public let instances: [Instance]
    /// How long the recording ran (nanoseconds).
    public let durationNanoseconds: UInt64

    /// Records the instances that containers make while `body` runs.
    ///
    /// ```swift
    /// var app: Container!
    /// let profile = try StartupProfile.record { app = try makeApp() }
    /// ```
    ///
    /// Recordings may overlap (each sees everything made while it runs).
    ///
    /// - Parameter body: The code to profile.
    /// - Returns: The profile.
    /// - Throws: What `body` throws.
    public static func record(_ body: () throws -> Void) rethrows -> StartupProfile {
        let recorder = _ProfileRecorder.shared
        let start = _ProfileRecorder.now()
        let first = recorder.beginSession()
        do {
            try body()
        } catch {
            _ = recorder.endSession(from: first)
            throw error
        }
        let end = _ProfileRecorder.now()
        return StartupProfile(recorder.endSession(from: first), start: start, end: end)
    }

    /// Records the instances that containers make while `body` runs, an asynchronous startup.
    ///
    /// ```swift
    /// let profile = try await StartupProfile.record {
    ///     database = try await app.resolveAsync(Database.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The actor `body` runs on (the caller's, by default).
    ///   - body: The code to profile.
    /// - Returns: The profile.
    /// - Throws: What `body` throws.
    public static func record(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Void
    ) async rethrows -> StartupProfile {
        let recorder = _ProfileRecorder.shared
        let start = _ProfileRecorder.now()
        let first = recorder.beginSession()
        do {
            try await body()
        } catch {
            _ = recorder.endSession(from: first)
            throw error
        }
        let end = _ProfileRecorder.now()
        return StartupProfile(recorder.endSession(from: first), start: start, end: end)
    }

    /// A profile of the finished records among `records` (those still running when the recording ended are left
    /// out, and so are links to them), with times relative to `start`.
    init(_ records: [(id: Int, record: _ProfileRecord)], start: UInt64, end: UInt64) {
        let finished = records.filter { $0.record.end != nil }
        var index: [Int: Int] = [:]
        for (position, item) in finished.enumerated() { index[item.id] = position }
        var childTime = [UInt64](repeating: 0, count: finished.count)
        for item in finished {
            guard let parent = item.record.parent, let position = index[parent] else { continue }
            childTime[position] += item.record.end! - item.record.start
        }
        instances = finished.enumerated().map { position, item in
            let record = item.record
            let duration = record.end! - record.start
            let scope = record.creation.scope.isEmpty ? "custom" : record.creation.scope
            return Instance(
                id: position, parent: record.parent.flatMap { index[$0] },
                registration: record.creation.key, site: record.creation.site, scope: scope,
                container: record.creation.container, thread: record.thread,
                isMainThread: record.isMainThread, isAsync: record.isAsync, failed: record.failed,
                startNanoseconds: record.start >= start ? record.start - start : 0,
                durationNanoseconds: duration,
                selfNanoseconds: duration > childTime[position] ? duration - childTime[position] : 0)
        }
        durationNanoseconds = end >= start ? end - start : 0
    }
}
