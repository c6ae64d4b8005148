#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A container's end: `shutdown()` disposes what it made and refuses everything afterwards.

/// When a container was shut down, for the errors of what is asked of it afterwards.
final class _ShutdownMark: Sendable {
    let instant = ContinuousClock.now
    /// The wall-clock time, `14:02:07 UTC`.
    let wallClock: String

    init() {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        wallClock = "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }

    /// `at 14:02:07 UTC, 1.25 s before`.
    var description: String {
        let elapsed = ContinuousClock.now - instant
        let milliseconds = elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return "at \(wallClock), \(Double(milliseconds) / 1_000) s before"
    }
}

extension Container {
    /// Whether ``shutdown()`` has run: the container (and every scope made from it) makes nothing more.
    ///
    /// ```swift
    /// try await container.shutdown()
    /// container.isShutDown   // true: a resolve now fails with ResolutionError.Code.containerShutDown
    /// ```
    public final var isShutDown: Bool { words.isSet(_shutdownWord) }

    /// The mark ``shutdown()`` left, if it ran (the registry keeps it).
    var shutdownMark: _ShutdownMark? { words.object(_shutdownWord, as: _ShutdownMark.self) }

    /// The error of a resolve of `key` after shutdown (out of line: the error path).
    @usableFromInline @inline(never)
    func _shutDownFailure(_ key: ServiceKey, path: [ServiceKey]) -> ResolutionError {
        let owner = registryOwner
        return ResolutionError(
            code: .containerShutDown, key: key, path: path + [key],
            suggestions: [
                "Container \"\(owner.label)\" was shut down \(owner.shutdownMark?.description ?? "before") this resolve; "
                    + "a shut-down container makes nothing more, nor do its scopes. Resolve what you need before "
                    + "shutdown, or make a new container (a test that reuses one calls disposeInstances(), which "
                    + "disposes and keeps it open)."
            ])
    }

    /// The error of `withScope` after shutdown.
    func _scopeRefusedAfterShutdown() -> ContainerError {
        let owner = registryOwner
        return ContainerError(
            code: .shutDown,
            message: "Container \"\(owner.label)\" was shut down "
                + "\(owner.shutdownMark?.description ?? "before") this call; it makes no more scopes.")
    }

    /// Shuts the container down, for good: disposes every disposable instance it made — `.container`,
    /// `.singleton` and `.multiton` ones — in reverse creation order, awaiting asynchronous disposals; afterwards
    /// a resolve through it or through any of its scopes, and `withScope`, fail with
    /// ``ResolutionError/Code/containerShutDown``.
    ///
    /// ```swift
    /// try await container.shutdown()   // the connection pool closes after the services that use it
    /// ```
    ///
    /// Disposal runs to completion whatever the caller's cancellation: the disposers run in a task of their own,
    /// so a cancellation-aware `close()` still closes. An instance whose creation was still running when
    /// shutdown began is disposed by that creation, which then fails. A second shutdown does nothing. Child
    /// containers are not shut down by their parent: shut them down first. (A test that reuses one container
    /// calls ``disposeInstances()`` instead, which disposes and keeps it open.)
    ///
    /// With the `ServiceLifecycle` package trait, `ContainerService` calls this on graceful shutdown.
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw; the others were disposed all the same.
    public func shutdown() async throws(DisposalError) {
        guard let records = _takeInstances(closing: true) else { return }
        let owner = "container \"\(registryOwner.label)\""
        var failures = await _disposeToCompletion(records, owner: owner, observers: observers)
        for owned in ownedContainers {
            do { try await owned.shutdown() } catch { failures += error.failures }
        }
        if !failures.isEmpty { throw DisposalError(owner: owner, failures: failures) }
    }

    /// Shuts the container down synchronously, for good (see the `async` form): disposes every instance it made
    /// that is disposable, in reverse creation order.
    ///
    /// Instances that can only be disposed asynchronously are not disposed: each is reported in the error with
    /// ``DisposalError/Failure/requiresAsyncDisposal`` set. Prefer `try await container.shutdown()`.
    ///
    /// ```swift
    /// try container.shutdownSynchronously()
    /// ```
    ///
    /// (A name of its own rather than an overload of ``shutdown()``: the compiler chooses a synchronous overload
    /// in the top-level code of a `main.swift` even after `await`.)
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw or could not run.
    @available(*, noasync, message: "in an async context, use `try await shutdown()`, which awaits async disposers")
    public func shutdownSynchronously() throws(DisposalError) {
        guard let records = _takeInstances(closing: true) else { return }
        let owner = "container \"\(registryOwner.label)\""
        var failures = _disposeSynchronously(records, owner: owner, observers: observers)
        for owned in ownedContainers {
            do { try owned.shutdownSynchronously() } catch { failures += error.failures }
        }
        if !failures.isEmpty { throw DisposalError(owner: owner, failures: failures) }
    }

    /// Disposes every disposable instance the container made, in reverse creation order, and keeps the
    /// container open: the next resolve makes new instances, which a later call or ``shutdown()``
    /// disposes. For tests that reuse one container between cases; an app ends with `shutdown()`.
    ///
    /// ```swift
    /// try await container.disposeInstances()   // between two test cases
    /// ```
    ///
    /// Disposal runs to completion whatever the caller's cancellation.
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw; the others were disposed all the same.
    public func disposeInstances() async throws(DisposalError) {
        let owner = "container \"\(registryOwner.label)\""
        var failures = await _disposeToCompletion(
            _takeInstances(closing: false) ?? [], owner: owner,
            observers: observers)
        for owned in ownedContainers {
            do { try await owned.disposeInstances() } catch { failures += error.failures }
        }
        if !failures.isEmpty { throw DisposalError(owner: owner, failures: failures) }
    }

    /// Disposes every disposable instance the container made, synchronously, and keeps the container open (see
    /// the `async` form).
    ///
    /// ```swift
    /// try container.disposeInstancesSynchronously()
    /// ```
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw or could not run synchronously.
    @available(*, noasync, message: "in an async context, use `try await disposeInstances()`")
    public func disposeInstancesSynchronously() throws(DisposalError) {
        let owner = "container \"\(registryOwner.label)\""
        var failures = _disposeSynchronously(_takeInstances(closing: false) ?? [], owner: owner, observers: observers)
        for owned in ownedContainers {
            do { try owned.disposeInstancesSynchronously() } catch { failures += error.failures }
        }
        if !failures.isEmpty { throw DisposalError(owner: owner, failures: failures) }
    }

    /// The containers whose lifetime this one owns (a module assembler's root owns its modules' containers,
    /// dependents first): shut down, or disposed, right after it.
    var ownedContainers: [Container] {
        behaviors(adopting: (any _OwnedContainers).self).flatMap(\.ownedContainers)
    }

    /// Takes what the container disposes, newest first, and drops the instances it keeps (singletons included)
    /// so that no resolve hands out one being disposed. `closing`: marks the container shut down first (nil when
    /// it already was), so that creations from now on fail, and ones still running dispose what they made.
    func _takeInstances(closing: Bool) -> [_OwnedInstance]? {
        if closing {
            let marked: Bool = writer.withLock {
                guard !words.isSet(_shutdownWord) else { return false }
                words.exchangeRetained(_shutdownWord, _ShutdownMark())
                // Readers see an empty table from now on: every resolve (through a scope too) misses the inlined
                // probe and reaches `_lookup`, which refuses it. No check on the resolve fast path.
                let closed = _RegistrationTable(capacity: _RegistrationTable.initialCapacity)
                registry.closedTable = closed
                words.storeUnowned(0, closed)
                return true
            }
            guard marked else { return nil }
        }
        let owned = disposals.takeAll(closing: closing)
        let live = writer.withLock {
            liveEntriesLocked() + records.collectionElements.values.flatMap { $0.map(\.entry) }
        }
        for entry in live { entry._reset(matching: nil, includingSingletons: true) }
        return owned
    }

    /// The instances this container made that it disposes when it shuts down (made on first use: most
    /// containers, and every scope, never need one).
    var disposals: _DisposalList {
        writer.withLock {
            if let disposalList { return disposalList }
            let made = _DisposalList()
            disposalList = made
            return made
        }
    }

    /// The disposal list, if this container has made one (without making it).
    var existingDisposals: _DisposalList? { writer.withLock { disposalList } }
}

/// A behavior through which a container owns other containers' lifetimes: a module assembler's root, whose resolves
/// return what its modules' containers make. Shutting the container down (or disposing its instances) does the same
/// to those, in the order given, after its own.
protocol _OwnedContainers {
    /// The containers, in the order they are shut down.
    var ownedContainers: [Container] { get }
}

/// The kinds of ``ContainerError`` about a container's end.
extension ContainerError.Code {
    /// The container was shut down, so it makes no more scopes.
    public static var shutDown: Self { Self("shutDown") }
}
