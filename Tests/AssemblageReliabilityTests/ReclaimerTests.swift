import Foundation
import Testing

@testable import Assemblage

// Every resolve runs in a read section; writers unpublish what they replace and retire it to the reclaimer,
// which releases it once no section that may have loaded it is still open (epoch-based reclamation). These
// tests pin both sides: nothing is released under an open section, on this thread or another, and everything
// retired is released once the sections close — at once when none is open.

private final class Probe: @unchecked Sendable {
    let payload = [1, 2, 3]
}

/// Counts deinits of the objects it makes.
private final class ReclaimProbe: @unchecked Sendable {
    static let alive = ReclaimCounter()
    init() { ReclaimProbe.alive.add(1) }
    deinit { ReclaimProbe.alive.add(-1) }
}

private final class ReclaimCounter: @unchecked Sendable {  // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var value = 0
    func add(_ delta: Int) { lock.withLock { value += delta } }
    var current: Int { lock.withLock { value } }
}

/// Whether `condition` holds within two seconds. Other suites run in parallel and open read sections of their
/// own, which delay reclamation until they end (each end retries it); with no other section open, what is
/// retired is released at once.
private func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(2)
    while !condition() {
        if Date() > deadline { return false }
        _Reclaimer.reclaim()
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

/// A read section held open on another thread until ``end()``: what is retired meanwhile cannot be freed.
private final class SectionOnAnotherThread: @unchecked Sendable {  // @unchecked: semaphores only.
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init() {
        let entered = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [release, done] in
            _withReadSection {
                entered.signal()
                release.wait()
            }
            done.signal()
        }
        entered.wait()
    }

    /// Lets the section end and waits for its thread.
    func end() {
        release.signal()
        done.wait()
    }
}

@Suite(.serialized) struct ReclaimerTests {
    @Test func retiredObjectWithNoSectionOpenIsReleasedAtOnce() {
        weak var held: Probe?
        do {
            let probe = Probe()
            held = probe
            _Reclaimer.retire(probe)
        }
        #expect(eventually { held == nil })
    }

    @Test func retiredObjectIsKeptUntilTheSectionOpenOnThisThreadEnds() {
        weak var held: Probe?
        _withReadSection {
            do {
                let probe = Probe()
                held = probe
                _Reclaimer.retire(probe)
            }
            #expect(held != nil, "released while a section that may hold it was open")
            // A nested section's end is not the outer one's.
            _withReadSection {}
            #expect(held != nil, "released when a nested section ended")
        }
        #expect(eventually { held == nil }, "still held after the section ended")
    }

    @Test func retiredObjectIsKeptUntilASectionOnAnotherThreadEnds() {
        let section = SectionOnAnotherThread()
        weak var held: Probe?
        do {
            let probe = Probe()
            held = probe
            _Reclaimer.retire(probe)
        }
        #expect(held != nil, "released while another thread's section was open")
        section.end()
        #expect(eventually { held == nil }, "still held after the other thread's section ended")
    }

    @Test func sharedInstanceSurvivesAResetWhileItsReaderHoldsIt() throws {
        let container = Container()
        container.register(Probe.self) { _ in Probe() }.inObjectScope(.container)
        weak var held: Probe?
        do {
            let first = try container.require(Probe.self)
            held = first
            container.resetObjectScope(.container)
            #expect(held != nil)  // the caller's reference keeps it, whatever happened to the box
            #expect(try container.require(Probe.self) !== first)
        }
        #expect(eventually { held == nil })
    }

    @Test func replacedRegistrationReleasesItsSharedInstance() throws {
        let container = Container()
        let before = ReclaimProbe.alive.current
        for _ in 0..<100 {
            container.register(ReclaimProbe.self) { _ in ReclaimProbe() }.inObjectScope(.container)
            _ = try container.require(ReclaimProbe.self)
        }
        // Each re-registration retired the entry it replaced, and with it that entry's instance.
        #expect(eventually { ReclaimProbe.alive.current - before == 1 })
        container.removeAll()
        #expect(eventually { ReclaimProbe.alive.current == before })
    }

    @Test func removeAllReleasesEntriesTablesAndInstances() throws {
        let container = Container()
        let before = ReclaimProbe.alive.current
        for name in 0..<100 {
            container.register(ReclaimProbe.self, name: "\(name)") { _ in ReclaimProbe() }.inObjectScope(.container)
            _ = try container.require(ReclaimProbe.self, name: "\(name)")
        }
        #expect(ReclaimProbe.alive.current - before == 100)
        container.removeAll()
        #expect(eventually { ReclaimProbe.alive.current == before })
        #expect(
            container.currentTable.capacity == _RegistrationTable.initialCapacity,
            "removeAll returns the container to a fresh table")
        #expect(container.writer.withLock { container.table.count == 0 && container.records.replacements.isEmpty })
    }

    @Test func reRegisteringOneKeyKeepsOneReplacementRecordPerSitePair() {
        let container = Container()
        for value in 0..<1_000 { container.register(Int.self) { _ in value } }
        let record = container.writer.withLock { container.records.replacements[ServiceKey(Int.self)] }
        #expect(record?.count == 999)
        #expect(record?.pairs.count == 1)
        #expect(container.resolve(Int.self) == 999)
    }

    @Test func replacedStepListsAndScopesAreReleased() {
        let container = Container()
        let entry = container.register(Probe.self) { _ in Probe() }
        let before = _Reclaimer.pendingCount
        for _ in 0..<1_000 {
            entry.initCompleted { _, _ in }
            entry.inObjectScope(.transient)
        }
        // Every replaced list and scope is released, not kept with the entry.
        #expect(eventually { _Reclaimer.pendingCount <= before })
        #expect(container.resolve(Probe.self) != nil)
    }

    @Test func resolveReadsEveryRegistrationWhileAnotherThreadReplacesIt() async {
        // A short, debug-build version of the release stress run: resolves copy out of a slot that another
        // thread keeps resetting and re-registering; each result must be a live object.
        let container = Container()
        container.register(Probe.self) { _ in Probe() }.inObjectScope(.container)
        let stop = ReclaimCounter()
        let writer = Thread {
            var round = 0
            while stop.current == 0 {
                round += 1
                if round % 3 == 0 {
                    container.register(Probe.self) { _ in Probe() }.inObjectScope(.container)
                } else {
                    container.resetObjectScope(.container)
                }
            }
        }
        writer.start()
        var sum = 0
        for _ in 0..<20_000 { sum += container.resolve(Probe.self)?.payload[1] ?? 2 }
        stop.add(1)
        #expect(sum == 40_000)
    }

    @Test func growingTablesAndFallbackListsDoNotHoldContainersWhileASectionIsOpen() {
        // Another thread sits in a read section, so nothing retired now can be freed until it leaves. Outgrown
        // tables and fallback lists must not be what keeps containers alive meanwhile: their successors hold
        // the same references.
        let section = SectionOnAnotherThread()
        weak var held: Container?
        do {
            let root = Container(label: "root")
            do {
                let leaf = Container(label: "leaf")
                held = leaf
                let forwarding = Container(label: "forwarding")
                for index in 0..<40 {  // several table growths, each entry capturing the leaf
                    forwarding.register(Int.self, name: "\(index)") { _ in leaf.resolve(Int.self) ?? index }
                }
                for index in 0..<40 { try? root.addFallback(Container(label: "empty\(index)")) }
                try? root.addFallback(forwarding)  // fallback lists grow past their storage several times
            }
            #expect(root.resolve(Int.self, name: "3") == 3)
        }
        #expect(held == nil, "an outgrown table or fallback list kept a container alive")
        section.end()
    }
}
