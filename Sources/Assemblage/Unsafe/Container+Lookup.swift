// Finding a registration: the lock-free probe of a container's table and fallbacks that every resolve starts
// with. What it finds is reached unowned: the tables keep their entries, and a replaced entry or table is retired
// to the reclaimer, which frees it only once no read section can hold it.

extension Container {
    /// Set on the containers of a validation sandbox only (and on the views of their scopes, which share their
    /// registry): records every lookup and failure. Held by the registry's ``_recorderWord``.
    final var recorder: _Recorder? {
        get { words.object(_recorderWord, as: _Recorder.self) }
        set {
            words.exchangeRetained(_recorderWord, newValue)
            setUsesSlowLookup(newValue != nil || isSynchronizedView)
        }
    }

    /// Whether ``recorder`` is set, or this is a synchronized view: the inlined lookup leaves such containers to
    /// ``_lookup(_:)``. A word of the registry, set before the container is shared.
    @inlinable @inline(__always)
    final var usesSlowLookup: Bool { words.isSet(_slowLookupWord) }

    /// Sets ``usesSlowLookup`` (before the container is shared).
    final func setUsesSlowLookup(_ slow: Bool) { words.storeCount(_slowLookupWord, slow ? 1 : 0) }

    /// ``_lookup(_:)`` with its common case inlined: `key` in its home slot of this container's table.
    @inlinable @inline(__always)
    final func _lookupFast(_ key: ServiceKey) -> _Unowned<AnyObject>? {
        // Word 0 always holds a table. Tested rather than force-unwrapped: a trap's extra block stops the optimiser
        // from inlining the fallback search's probes, which slows every resolve through fallbacks.
        if let table = words.loadAcquire(0),
            let entry = Unmanaged<_RegistrationTable>.fromOpaque(table)._withUnsafeGuaranteedRef({ $0.findAtHome(key) }
            ),
            !usesSlowLookup
        {
            return _Unowned(reference: .fromOpaque(entry))
        }
        return _lookup(key)
    }

    /// The entry for `key` in this container or its fallbacks (depth-first, in order), unowned.
    ///
    /// A validation sandbox records the lookup (one nil check for every other container).
    ///
    /// A synchronized view (see ``synchronize()``) finds nothing here: each of its resolves goes on to
    /// ``_resolveMissing(_:_:_:)``, which resolves under the view's lock. So the view's lock costs the
    /// inlined resolve path nothing.
    @usableFromInline
    final func _lookup(_ key: ServiceKey) -> _Unowned<AnyObject>? {
        if isSynchronizedView { return nil }
        return _lookupRecording(key)
    }

    /// ``_lookup(_:)`` for every caller that is not a resolve entry point (a synchronized view answers too). Inlined
    /// into ``_lookup(_:)``, the path of every resolve that misses the inlined probe, whatever the optimiser would
    /// decide for a function with several callers.
    @inline(__always)
    final func _lookupRecording(_ key: ServiceKey) -> _Unowned<AnyObject>? {
        guard let found = _lookupLocal(key) else { return nil }
        let entry = _Unowned<AnyObject>(reference: .fromOpaque(found))
        if usesSlowLookup, let recorder { recorder.recordLookup(of: key, found: entry.identifier) }
        return entry
    }

    /// `_lookup` without recording: this container's table, then its fallbacks, depth-first in the order they
    /// were added, each container once (a scope's view: its container's, whose registry it shares). The caller is
    /// in a read section.
    @inline(__always)
    final func _lookupLocal(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        if let entry = _findOwn(key) { return entry }
        // A shut-down container's readers see an empty table (see `shutdown()`); nor do they reach its fallbacks:
        // `_resolveMissing` reports the shutdown. (After the own table, so that no hit pays for the check.)
        guard !isShutDown, let fallbacks = words.loadAcquire(1) else { return nil }
        return _Fallbacks.search(Unmanaged<_Fallbacks>.fromOpaque(fallbacks), key)
    }

    /// This container's own table only.
    @inline(__always)
    final func _findOwn(_ key: ServiceKey) -> UnsafeMutableRawPointer? {
        guard let table = words.loadAcquire(0) else { return nil }  // always set (see `_lookupFast`)
        return Unmanaged<_RegistrationTable>.fromOpaque(table)._withUnsafeGuaranteedRef { $0.find(key) }
    }
}
