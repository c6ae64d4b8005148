import _AssemblageShims

/// Frees what the lock-free read path may still be reading — replaced and removed registrations, outgrown
/// registration tables, old fallback lists, replaced scopes and step lists, reset shared instances — once no
/// thread can be reading it.
///
/// Epoch-based reclamation. Every resolve runs inside a *read section* (``_withReadSection(_:)``): the
/// thread announces the process epoch it read in its section word, and clears the word when the outermost
/// section ends. Writers unpublish an object (swap it out of its slot) and then ``retire(_:)`` it, tagged
/// with the current epoch. The epoch advances only when every thread in a section has announced the current
/// epoch; an object retired in epoch `e` is released once the epoch reaches `e + 2`, when every section
/// that could have loaded it has ended. With no section open the two advances happen at once, so a reset or
/// re-registration on a quiet container frees at once and `deinit` runs before it returns.
///
/// Sections are announced with a relaxed store and a compiler fence on Linux, where the reclaimer makes
/// them visible with `membarrier` before it scans (sequentially consistent stores elsewhere). A section ends
/// with an opaque call, which the compiler must assume may release anything, so whatever a resolve copies
/// out of a section is retained before the section ends. Nothing here depends on how the optimiser treats
/// plain loads and stores.
///
/// Shared-instance boxes (the `.container`/`.singleton` slots) have a finer guard as well, so that a reset
/// releases its instances at once rather than after every open section anywhere in the process: a hit
/// publishes the box in its thread's hazard word, re-checks the slot, copies the instance out and clears the
/// word with an opaque call; ``retireBox(_:)`` releases a box that no hazard names immediately.
enum _Reclaimer {
    private struct Retired {
        let object: AnyObject
        let epoch: UInt64
    }
    private struct State {
        var sections: [UnsafeMutableRawPointer] = []
        var retired: [Retired] = []
        /// Shared-instance boxes (+1 retained) that a hazard named when they were retired.
        var boxes: [UnsafeMutableRawPointer] = []
    }
    private static let state: _Locked<State> = {
        _asm_set_reclaim_hook { _Reclaimer.reclaim() }
        _asm_set_box_hook { _Reclaimer.reclaimBoxes() }
        return _Locked(State())
    }()

    static func register(section: UnsafeMutableRawPointer) {
        state.withLock { $0.sections.append(section) }
    }

    static func unregister(section: UnsafeMutableRawPointer) {
        state.withLock { state in
            state.sections.removeAll { $0 == section }
        }
        reclaim()  // the thread's last section may have been what held the epoch back
    }

    /// Releases `object` once no section that may have loaded it is open. Call it after unpublishing the
    /// object (no slot a reader can reach holds it any more).
    static func retire(_ object: AnyObject) { retire([object]) }

    /// Releases several objects at once (a `removeAll`).
    static func retire(_ objects: [AnyObject]) {
        guard !objects.isEmpty else { return }
        state.withLock { state in
            let epoch = _asm_current_epoch()
            state.retired.append(contentsOf: objects.map { Retired(object: $0, epoch: epoch) })
            _asm_set_reclaim_pending(true)
        }
        reclaim()
    }

    /// Releases a shared-instance box (a +1 retained pointer that a reset or a new instance swapped out of its
    /// slot) at once unless a thread's hazard word names it — a reader copying the instance out right now —
    /// in which case it is released when that reader clears its hazard.
    ///
    /// Readers publish the hazard and then re-check the slot; after the barrier, a reader whose hazard the
    /// scan does not see re-checks after the swap, finds the slot changed and never touches the box.
    static func retireBox(_ box: UnsafeMutableRawPointer) {
        let free: [UnsafeMutableRawPointer] = state.withLock { state in
            state.boxes.append(box)
            return freeableBoxes(&state)
        }
        for pointer in free { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
    }

    /// Releases the waiting boxes no hazard names (called when a reader clears its hazard while boxes wait).
    static func reclaimBoxes() {
        let free = state.withLock { freeableBoxes(&$0) }
        for pointer in free { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
    }

    /// Takes the boxes no hazard names out of the waiting list (under the lock).
    private static func freeableBoxes(_ state: inout State) -> [UnsafeMutableRawPointer] {
        guard !state.boxes.isEmpty else { return [] }
        // Without the fence, nothing may be freed on the strength of what the scan reads.
        guard _asm_heavy_barrier() else {
            _asm_set_boxes_pending(true)
            return []
        }
        let named = Set(state.sections.compactMap { _asm_load_seqcst($0 + 8) })
        var free: [UnsafeMutableRawPointer] = []
        var keep: [UnsafeMutableRawPointer] = []
        for box in state.boxes {
            if named.contains(box) { keep.append(box) } else { free.append(box) }
        }
        state.boxes = keep
        _asm_set_boxes_pending(!keep.isEmpty)
        return free
    }

    /// How many retired objects wait (tests and diagnostics).
    static var pendingCount: Int { state.withLock { $0.retired.count + $0.boxes.count } }

    /// Advances the epoch as far as the open sections allow and releases what no section can still read.
    static func reclaim() {
        let free: [AnyObject] = state.withLock { state in
            guard !state.retired.isEmpty else {
                _asm_set_reclaim_pending(false)
                return []
            }
            // Two advances free everything retired before this call when no section stands in the way.
            for _ in 0..<2 {
                guard _asm_heavy_barrier() else { break }
                let epoch = _asm_current_epoch()
                let blocked = state.sections.contains { word in
                    let announced = _asm_load_section(word)
                    return announced != 0 && announced != epoch
                }
                if blocked { break }
                _asm_advance_epoch()
            }
            let epoch = _asm_current_epoch()
            var free: [AnyObject] = []
            var keep: [Retired] = []
            for item in state.retired {
                if item.epoch &+ 2 <= epoch { free.append(item.object) } else { keep.append(item) }
            }
            state.retired = keep
            _asm_set_reclaim_pending(!keep.isEmpty)
            return free
        }
        // Released outside the lock: a deinit may resolve, register or reset again.
        _ = free
    }
}
