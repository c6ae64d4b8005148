#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process-wide `main` and `root` containers and the bootstrap hook, behind one lock.
///
/// Reading `main` or `root` first runs the bootstrap hook when one is armed. Exactly one thread runs it; the
/// others wait on `settled` until it has finished, so no reader ever sees a half-registered `main`. The thread
/// running the hook may read `main` and `root` itself (the hook may set `root`, as Resolver's
/// `registerAllServices` does): it gets them at once instead of waiting for itself.
final class _GlobalContainers: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is read and written only while `lock` is held.

    static let shared = _GlobalContainers()

    private let lock = _Lock()
    private let settled = _Condition()
    private var main: Container
    /// The assigned root; nil while root is `main` (so that assigning a new `main` moves root with it).
    private var assignedRoot: Container?
    private var hook: (@Sendable (Container) -> Void)?
    /// Whether the hook runs at the next read.
    private var armed = false
    /// The thread running the hook, while it runs.
    private var runner: _ThreadID?

    private init() { main = Self.makeMain() }

    static func makeMain() -> Container { Container(label: "main") }

    /// `main` and the assigned root, after the bootstrap hook (if armed) has run.
    func ready() -> (main: Container, root: Container) {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let runner {
                if runner == .current { break }  // the hook itself reads main or root
                lock.wait(on: settled)
                continue
            }
            guard armed, let hook else { break }
            armed = false
            runner = .current
            let target = main
            lock.unlock()
            hook(target)
            lock.lock()
            runner = nil
            settled.broadcast()
            // Loop: the hook may have been re-armed while it ran (by `bootstrap` or `resetGlobals`).
        }
        return (main, assignedRoot ?? main)
    }

    func setMain(_ container: Container) {
        lock.withLock { main = container }
    }

    func setRoot(_ container: Container) {
        lock.withLock { assignedRoot = container === main ? nil : container }
    }

    func setBootstrap(_ registering: (@Sendable (Container) -> Void)?) {
        lock.withLock {
            hook = registering
            armed = registering != nil
        }
    }

    func reset() {
        lock.withLock {
            main = Self.makeMain()
            assignedRoot = nil
            armed = hook != nil
        }
    }
}

/// The identity of a thread, to tell the thread running a one-time step from the threads waiting for it.
///
/// A thread that continues a deep resolution for another (see `_StackGuard`) has the other's identity.
struct _ThreadID: Equatable, Sendable {
    /// An address, as a number: only compared, never dereferenced.
    private let raw: UInt

    static var current: _ThreadID { _ThreadID(raw: _Shim.logicalThread) }
}
