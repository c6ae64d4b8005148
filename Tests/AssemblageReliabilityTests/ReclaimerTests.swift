@testable import Assemblage
import Testing

// Hits on a `.container`/`.singleton` slot publish the box they read in a per-thread hazard word (on
// Linux with a plain store; the reclaimer fences for them with `membarrier`). These tests pin the
// reclaimer's side: a box that a hazard names is never released, and is released once no hazard does.

private final class Probe: @unchecked Sendable {}

@Suite(.serialized) struct ReclaimerTests {
    @Test func retiredBoxNamedByAHazardIsKeptUntilNoHazardNamesIt() {
        let hazard = _AtomicWords(count: 1)
        _Reclaimer.register(hazard: hazard.base)
        defer {
            _Reclaimer.unregister(hazard: hazard.base)
            hazard.deallocate()
        }
        weak var held: Probe?
        do {
            let probe = Probe()
            held = probe
            let box = Unmanaged.passRetained(probe).toOpaque()
            hazard.storeRelease(0, box)       // a reader is between publishing and copying out
            _Reclaimer.retire(box)            // a reset swapped the slot and retires the box
        }
        #expect(held != nil, "released while a hazard named it")

        hazard.storeRelease(0, nil)           // the reader is done
        _Reclaimer.retire(Unmanaged.passRetained(Probe()).toOpaque())  // the next reset frees what it can
        #expect(held == nil, "still held after no hazard named it")
    }

    @Test func retiredBoxNamedByNoHazardIsReleasedAtOnce() {
        weak var held: Probe?
        do {
            let probe = Probe()
            held = probe
            _Reclaimer.retire(Unmanaged.passRetained(probe).toOpaque())
        }
        #expect(held == nil)
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
        #expect(held == nil)
    }
}
