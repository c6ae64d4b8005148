public import _AssemblageShims

// What the C shim (`_AssemblageShims`) gives the rest of the library: the read section every resolve runs in,
// process-wide flags and facts about the calling thread. Only this folder calls the shim.

/// Runs `body` inside a read section (see ``_Reclaimer``): unretained pointers loaded from registration
/// tables, entries and instance slots stay valid until it returns. Nested sections cost a load and a test.
@inlinable @inline(__always)
func _withReadSection<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    let word = _asm_thread_section() ?? _ResolutionState.currentSection
    let epoch = _asm_section_begin(word)
    // A nested section has nothing to end; the outermost one ends with the opaque call.
    defer { if epoch != 0 { _asm_section_end(word, epoch) } }
    return try body()
}

/// The C shim's process-wide flags and thread facts, as Swift properties (each an inlined load or call).
@usableFromInline
enum _Shim {
    /// Whether any decorator was ever registered, in any container (one relaxed load): the resolve path checks it
    /// before it looks for decorators, so that containers without decorators pay nothing for them.
    @inlinable @inline(__always)
    static var anyDecorators: Bool { _asm_any_decorators() }

    /// Says, for good, that a decorator was registered.
    static func markDecorators() { _asm_mark_decorators() }

    /// Whether a construction needs the out-of-line path: a decorator is registered or a creation hook is
    /// installed (one relaxed load of the flags both set).
    @inlinable @inline(__always)
    static var constructionIsObserved: Bool { _asm_construction_is_observed() }

    /// Whether a creation hook (the startup profiler) is installed.
    @inlinable @inline(__always)
    static var creationHookInstalled: Bool { _asm_creation_hook_installed() }

    /// Says whether a creation hook is installed.
    static func setCreationHookInstalled(_ installed: Bool) { _asm_set_creation_hook_installed(installed) }

    /// Whether the calling thread's stack is nearly used up (an inline comparison with the thread's limit).
    @inlinable @inline(__always)
    static var stackIsLow: Bool { _asm_stack_is_low() }

    /// Whether the calling thread is the process's main thread.
    static var isMainThread: Bool { _asm_is_main_thread() }

    /// A number that tells the calling thread (or task's thread) from every other thread alive.
    static var logicalThread: UInt { UInt(bitPattern: _asm_logical_thread()) }
}

extension _ResolutionState {
    /// Runs `body` with the calling thread's state borrowed, created on first use: it lives as long as its
    /// thread, so it needs no retain.
    @inlinable @inline(__always)
    static func withCurrent<R>(_ body: (_ResolutionState) throws -> R) rethrows -> R {
        try Unmanaged<_ResolutionState>.fromOpaque(current)._withUnsafeGuaranteedRef(body)
    }
}
