import _AssemblageShims

/// Keeps deep resolutions from overflowing small thread stacks.
///
/// Every nested resolve costs stack, a kilobyte or more a level (several times that in debug builds). Secondary
/// threads on Apple platforms (Dispatch workers, the cooperative pool) have 512 KiB, and threads a program starts
/// itself may have far less, so a graph a few dozen levels deep could crash long before the depth limit. Before
/// every factory runs, from the first, ``_ResolutionState`` checks the stack (one inline comparison, bounds read
/// once per thread); when less than a quarter of it (half of a stack of up to 256 KiB; at most 128 KiB) is left,
/// the factory runs on a new thread with a 16 MiB stack while the calling thread waits for it. That thread
/// continues for the caller: it uses the caller's resolution state (graph, cycle detection, read section), its
/// thread identity for Assemblage's own once-only steps, and its task-scoped root container, so the resolution
/// goes on as if it had not moved. On the main thread (whose code may rely on being there) resolution stops with
/// `depthLimitExceeded` instead.
@usableFromInline
enum _StackGuard {
    /// The stack of a continuation thread: room for well over ``_ResolutionState/maxDepth`` levels in debug builds.
    static let continuationStackSize = 16 << 20

    /// Runs `body` (a factory call) on a thread with room to spare, waiting for it.
    ///
    /// - Throws: What `body` throws; `depthLimitExceeded` on the main thread or when no thread can be started.
    @usableFromInline @inline(never)
    static func runWithRoom<T>(_ state: _ResolutionState, _ key: ServiceKey, _ body: () throws -> T) throws -> T {
        guard !_asm_is_main_thread() else { throw exhausted(state, key) }
        let root = _Ambient.container
        var outcome: Result<T, any Error>?
        withoutActuallyEscaping(body) { body in
            let continuation = Unmanaged.passRetained(
                _Continuation {
                    outcome = Result { try _Ambient.$container.withValue(root) { try body() } }
                })
            let status = _asm_continue_on_new_thread(
                continuationStackSize,
                { raw in
                    Unmanaged<_Continuation>.fromOpaque(raw!).takeRetainedValue().run()
                }, continuation.toOpaque())
            if status != 0 { continuation.release() }
        }
        guard let outcome else { throw exhausted(state, key) }
        return try outcome.get()
    }

    static func exhausted(_ state: _ResolutionState, _ key: ServiceKey) -> ResolutionError {
        ResolutionError(code: .depthLimitExceeded, key: key, path: state.path, underlying: _StackExhausted())
    }
}

/// What a continuation thread runs.
final class _Continuation {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Why a resolution stopped short of the depth limit.
struct _StackExhausted: Error, CustomStringConvertible {
    var description: String { "the thread's stack is nearly exhausted" }
}
