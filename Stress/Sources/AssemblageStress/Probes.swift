// Memory and scaling probes for the concurrent-mutation targets. Each probe runs in a process of its own (the
// `assemblage-stress` runner starts one per probe), so resident memory and "cold" mean that process alone.
import Assemblage
import AssemblageProperties
import Foundation
import Synchronization

/// A probe of memory or scaling.
package enum Probe: String, CaseIterable, Codable, Sendable {
    /// Re-registering one key a million times: resident memory per re-registration, replaced instances freed.
    case reregistration
    /// 20,000 `register` + `removeAll()` cycles on one container (and 10,000, for the growth).
    case cycles
    /// 10,000 `addFallback` calls on one container.
    case fallbacks
    /// 22 stacked diamonds of fallbacks: a missing-key resolve and a `properties` read from the top.
    case diamonds
    /// 10,000 registrations (one type, distinct names) registered and resolved once, first thing in a process.
    case cold

    /// Fresh processes the runner starts for this probe; a check's figure is the median over them.
    package var processes: Int { self == .cold ? 3 : 1 }

    /// What the probe measures, for `--list`.
    package var summary: String {
        switch self {
        case .reregistration:
            "1,000,000 re-registrations of one .container key, each resolved: RSS per re-registration, replaced instances freed"
        case .cycles: "20,000 register + removeAll() cycles: time (and growth against 10,000)"
        case .fallbacks: "10,000 addFallback(Container()) on one container: RSS growth"
        case .diamonds: "22 stacked diamonds of fallbacks: a missing-key resolve and a properties read"
        case .cold:
            "10,000 registrations registered and resolved once in a fresh process: time, heap bytes per registration"
        }
    }
}

/// One figure a probe measured.
package struct ProbeFigure: Codable, Sendable {
    package var name: String
    package var value: Double
    package var unit: String
}

/// A figure held against a target of the concurrent-mutation work.
package struct ProbeCheck: Codable, Sendable {
    package var name: String
    /// The measured value; nil when this platform cannot measure it (the check is then skipped, not passed).
    package var measured: Double?
    /// The target the probe holds the library to.
    package var target: Double
    /// What is asserted: the target, times the timing headroom for timings.
    package var limit: Double
    package var unit: String

    package init(name: String, measured: Double?, target: Double, limit: Double, unit: String) {
        self.name = name
        self.measured = measured
        self.target = target
        self.limit = limit
        self.unit = unit
    }

    /// Whether the measured value is within the limit; nil when nothing was measured.
    package var passed: Bool? { measured.map { $0 <= limit } }
}

/// What one probe process measured.
package struct ProbeResult: Codable, Sendable {
    package var probe: Probe
    package var figures: [ProbeFigure]
    package var checks: [ProbeCheck]
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
/// Counts live instances from any thread.
package final class LiveInstances: Sendable {
    private let count = Atomic<Int>(0)
    package init() {}
    package var live: Int { count.load(ordering: .acquiring) }
    fileprivate func add(_ delta: Int) { count.wrappingAdd(delta, ordering: .acquiringAndReleasing) }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
/// A `.container` service that reports its lifetime, with a payload so it has a realistic size.
package final class CountedService: Sendable {
    let instances: LiveInstances
    package let payload: [Int]
    package init(_ instances: LiveInstances, serial: Int) {
        self.instances = instances
        payload = [serial, serial &+ 1]
        instances.add(1)
    }
    deinit { instances.add(-1) }
}

/// A service with no state.
package final class BlankService: Sendable {
    package init() {}
}

/// A type that no container registers.
package final class MissingService: Sendable {}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
/// Runs `probe` in this process. Timing checks assert `target × timingHeadroom`; memory checks the target.
package func runProbe(_ probe: Probe, timingHeadroom: Double) -> ProbeResult {
    var run = ProbeRun(probe: probe, headroom: timingHeadroom)
    switch probe {
    case .reregistration: run.reregistration()
    case .cycles: run.cycles()
    case .fallbacks: run.fallbacks()
    case .diamonds: run.diamonds()
    case .cold: run.cold()
    }
    return ProbeResult(probe: probe, figures: run.figures, checks: run.checks)
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private struct ProbeRun {
    let probe: Probe
    let headroom: Double
    var figures: [ProbeFigure] = []
    var checks: [ProbeCheck] = []

    init(probe: Probe, headroom: Double) {
        self.probe = probe
        self.headroom = headroom
    }

    mutating func figure(_ name: String, _ value: Double, _ unit: String) {
        figures.append(ProbeFigure(name: name, value: value, unit: unit))
    }

    mutating func memoryCheck(_ name: String, _ measured: Double?, target: Double, unit: String) {
        checks.append(ProbeCheck(name: name, measured: measured, target: target, limit: target, unit: unit))
    }

    mutating func timingCheck(_ name: String, _ measured: Double, target: Double, unit: String) {
        checks.append(ProbeCheck(name: name, measured: measured, target: target, limit: target * headroom, unit: unit))
    }

    // MARK: reregistration

    /// Re-registering one key used to grow resident memory with every re-registration and never free replaced
    /// `.container` instances. Target: ≤ 32 B of RSS per re-registration; replaced instances released.
    mutating func reregistration() {
        let count = 1_000_000
        let warmUp = 10_000
        // A reclaimer may keep a few retired instances until its next pass; no more than this many.
        let reclamationSlack = 64
        let instances = LiveInstances()
        let container = Container(label: "probe.reregistration")
        var serial = 0
        func registerAndResolve() {
            serial += 1
            let serial = serial
            container.register(CountedService.self) { _ in CountedService(instances, serial: serial) }
                .inObjectScope(.container)
            guard let service = container.resolve(CountedService.self), service.payload[0] == serial else {
                fatalError("re-registration \(serial): the latest registration did not win")
            }
        }
        for _ in 0..<warmUp { registerAndResolve() }
        let rssBefore = ProcessMeasure.residentBytes()
        let heapBefore = ProcessMeasure.heapBytesInUse()
        let start = ProcessMeasure.now()
        for _ in 0..<count { registerAndResolve() }
        let seconds = ProcessMeasure.seconds(since: start)
        let rssAfter = ProcessMeasure.residentBytes()
        let heapAfter = ProcessMeasure.heapBytesInUse()
        let liveAfter = instances.live
        container.removeAll()
        let liveAfterRemoveAll = instances.live
        let heapAfterRemoveAll = ProcessMeasure.heapBytesInUse()

        let rssPer = difference(rssBefore, rssAfter).map { $0 / Double(count) }
        let heapPer = difference(heapBefore, heapAfter).map { $0 / Double(count) }
        if let rssPer { figure("RSS growth per re-registration", rssPer, "B") }
        if let heapPer { figure("heap growth per re-registration", heapPer, "B") }
        if let freed = difference(heapAfterRemoveAll, heapAfter) {
            figure("heap freed by removeAll()", freed / 1e6, "MB")
        }
        figure("replaced instances still alive", Double(max(0, liveAfter - 1)), "")
        figure("instances alive after removeAll()", Double(liveAfterRemoveAll), "")
        figure("register + resolve", seconds * 1e9 / Double(count), "ns")
        memoryCheck("RSS growth per re-registration", rssPer, target: 32, unit: "B")
        checks.append(
            ProbeCheck(
                name: "replaced .container instances still alive (of \(warmUp + count - 1))",
                measured: Double(max(0, liveAfter - 1)), target: 0,
                limit: Double(reclamationSlack), unit: ""))
        checks.append(
            ProbeCheck(
                name: "instances alive after removeAll()", measured: Double(liveAfterRemoveAll),
                target: 0, limit: Double(reclamationSlack), unit: ""))
    }

    // MARK: cycles

    /// `register` + `removeAll()` cycles used to grow quadratically in time. Target: 20,000 cycles in ≤ 0.5 s.
    /// The figure is the fastest of three containers.
    mutating func cycles() {
        func best(_ cycles: Int) -> Double {
            var fastest = Double.infinity
            for _ in 0..<3 {
                let container = Container(label: "probe.cycles")
                let start = ProcessMeasure.now()
                for _ in 0..<cycles {
                    container.register(BlankService.self) { _ in BlankService() }
                    container.removeAll()
                }
                fastest = min(fastest, ProcessMeasure.seconds(since: start))
                precondition(container.resolve(BlankService.self) == nil, "removeAll() left a registration")
            }
            return fastest
        }
        let half = best(10_000)
        let full = best(20_000)
        figure("10,000 cycles", half * 1e3, "ms")
        figure("20,000 cycles", full * 1e3, "ms")
        figure("growth, 20,000 ÷ 10,000 (2 is linear, 4 quadratic)", full / half, "×")
        timingCheck("20,000 register + removeAll() cycles", full, target: 0.5, unit: "s")
    }

    // MARK: fallbacks

    /// `addFallback` used to copy the whole fallback list each time, so memory grew quadratically. Target: 10,000
    /// calls on one container in ≤ 50 MB.
    mutating func fallbacks() {
        let count = 10_000
        let container = Container(label: "probe.fallbacks")
        container.register(BlankService.self) { _ in BlankService() }
        let rssBefore = ProcessMeasure.residentBytes()
        let heapBefore = ProcessMeasure.heapBytesInUse()
        let start = ProcessMeasure.now()
        var last = container
        for _ in 0..<count {
            last = Container(label: "probe.fallback")
            do { try container.addFallback(last) } catch {
                fatalError("a fresh container made a fallback cycle: \(error)")
            }
        }
        let seconds = ProcessMeasure.seconds(since: start)
        let rss = difference(rssBefore, ProcessMeasure.residentBytes())
        let heap = difference(heapBefore, ProcessMeasure.heapBytesInUse())
        // The last fallback is searched: what it registers resolves from the front container.
        last.register(CountedService.self) { _ in CountedService(LiveInstances(), serial: 7) }
        precondition(container.resolve(CountedService.self)?.payload[0] == 7, "the last fallback was not searched")
        precondition(container.resolve(MissingService.self) == nil, "a missing service resolved")
        if let rss { figure("RSS growth", rss / 1e6, "MB") }
        if let heap { figure("heap growth", heap / 1e6, "MB") }
        figure("time", seconds * 1e3, "ms")
        memoryCheck("RSS growth of 10,000 addFallback", rss.map { $0 / 1e6 }, target: 50, unit: "MB")
    }

    // MARK: diamonds

    /// 22 stacked diamonds (two containers falling back to one base, a top container falling back to both; the
    /// top is the next level's base), where a search that visits a shared container once per path to it turns
    /// exponential: a missing-key resolve and a `properties` read. Target: ≤ 5 ms each. The figure is the median of
    /// 5 (of 1 when the first takes over a second).
    mutating func diamonds() {
        let levels = 22
        var base = Container(label: "diamond.0")
        base.register(BlankService.self) { _ in BlankService() }
        do {
            try base.applyPropertyLoader(DictionaryPropertyLoader(["diamond.depth": 0], description: "bottom"))
        } catch {
            fatalError("a dictionary loader failed: \(error)")
        }
        for level in 1...levels {
            let left = Container(parent: base, label: "diamond.\(level).left")
            let right = Container(parent: base, label: "diamond.\(level).right")
            let top = Container(label: "diamond.\(level)")
            do {
                try top.addFallback(left)
                try top.addFallback(right)
            } catch {
                fatalError("a diamond made a fallback cycle: \(error)")
            }
            base = top
        }
        let top = base
        precondition(top.resolve(BlankService.self) != nil, "the bottom's service did not resolve from the top")

        func median(_ body: () -> Void) -> (first: Double, median: Double) {
            var samples: [Double] = []
            repeat {
                let start = ProcessMeasure.now()
                body()
                samples.append(ProcessMeasure.seconds(since: start) * 1e3)
            } while samples.count < 5 && samples[0] < 1_000
            let sorted = samples.sorted()
            return (samples[0], sorted[sorted.count / 2])
        }
        let miss = median { precondition(top.resolve(MissingService.self) == nil, "a missing service resolved") }
        let properties = median {
            precondition(top.properties.property("diamond.depth", as: Int.self) == 0, "the bottom's property is lost")
        }
        figure("missing-key resolve, first", miss.first, "ms")
        figure("missing-key resolve, median", miss.median, "ms")
        figure("properties read, first", properties.first, "ms")
        figure("properties read, median", properties.median, "ms")
        timingCheck("missing-key resolve through 22 diamonds", miss.median, target: 5, unit: "ms")
        timingCheck("properties read through 22 diamonds", properties.median, target: 5, unit: "ms")
    }

    // MARK: cold

    /// 10,000 registrations (distinct names of one type, default scope) registered and each resolved once, the
    /// first thing this process does with the library. Target: ≤ 10 ms and ≤ 400 B of heap per registration
    /// (heap still in use with the container alive, so it includes what the library caches on first use).
    mutating func cold() {
        let count = 10_000
        let names = (0..<count).map { "service.\($0)" }
        let heapBefore = ProcessMeasure.heapBytesInUse()
        let start = ProcessMeasure.now()
        let container = Container(label: "probe.cold")
        for name in names { container.register(BlankService.self, name: name) { _ in BlankService() } }
        var resolved = 0
        for name in names where container.resolve(BlankService.self, name: name) != nil { resolved += 1 }
        let seconds = ProcessMeasure.seconds(since: start)
        let heap = difference(heapBefore, ProcessMeasure.heapBytesInUse()).map { $0 / Double(count) }
        precondition(resolved == count, "\(count - resolved) registrations did not resolve")
        withExtendedLifetime(container) {}
        figure("register + resolve 10,000", seconds * 1e3, "ms")
        if let heap { figure("heap per registration", heap, "B") }
        timingCheck("10,000 registrations, cold", seconds * 1e3, target: 10, unit: "ms")
        memoryCheck("heap per registration, cold", heap, target: 400, unit: "B")
    }
}

/// `after - before` as a Double, nil when either is unknown.
private func difference(_ before: Int?, _ after: Int?) -> Double? {
    guard let before, let after else { return nil }
    return Double(after - before)
}
