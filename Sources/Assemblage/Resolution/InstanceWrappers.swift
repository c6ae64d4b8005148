/// A type that the container makes from the registration of another type (`Optional`, `Lazy`, `Provider`).
protocol _InstanceWrapper {
    /// Makes the wrapper, or returns nil when the wrapped type is not registered (and the wrapper needs it).
    static func _wrap<each Arg>(in container: Container, name: String?, _ arguments: repeat each Arg) throws -> Any?
}

/// Resolving `Optional<T>` resolves the registration of `T`; when `T` is not registered the result is
/// `.some(nil)` rather than a failure, as in Swinject.
extension Optional: _InstanceWrapper {
    static func _wrap<each Arg>(in container: Container, name: String?, _ arguments: repeat each Arg) throws -> Any? {
        let key = ServiceKey(Wrapped.self, name: name, argumentTypes: repeat (each Arg).self)
        // Returned as `.some(Optional<Wrapped>)`: converting a `Wrapped?` to `Any?` directly would turn
        // `.none` into "not made".
        do {
            let wrapped = try container._resolvePack(Wrapped.self, name: name, repeat each arguments)
            return .some(Wrapped?.some(wrapped) as Any)
        } catch let error as ResolutionError where error.code == .notRegistered && error.key == key {
            return .some(Wrapped?.none as Any)
        }
    }
}

/// Resolves its service the first time ``instance`` is read, then keeps it.
///
/// Resolve `Lazy<T>` for any registered `T`; nothing needs registering for the `Lazy` itself. A `Lazy` made
/// while a graph is being resolved joins that graph: graph-scoped instances made in it are reused when it
/// is finally read (as long as they are still alive). It holds its container weakly, so a `Lazy` kept by a
/// singleton does not keep the container alive.
///
/// ```swift
/// container.register(Report.self) { r in Report(renderer: r.resolve(Lazy<PDFRenderer>.self)!) }
/// // the renderer is made only when report.renderer.instance is first read
/// ```
public final class Lazy<Service> {
    private let make: () throws -> Service
    private let lock = _Lock()
    private var cached: Service?

    init(make: @escaping () throws -> Service) { self.make = make }

    /// The service, resolved on first read.
    ///
    /// - Precondition: The wrapped service can be made. Read ``get()`` to handle failure as an error.
    public var instance: Service {
        do {
            return try get()
        } catch {
            preconditionFailure("Lazy<\(Service.self)> could not resolve its service: \(error)")
        }
    }

    /// The service, resolved on first call.
    ///
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` when it cannot be made; a later call tries again.
    public func get() throws(ResolutionError) -> Service {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        do {
            let made = try make()
            cached = made
            return made
        } catch {
            throw _asResolutionError(error)
        }
    }
}

extension Lazy: _InstanceWrapper {
    static func _wrap<each Arg>(in container: Container, name: String?, _ arguments: repeat each Arg) throws -> Any? {
        let key = ServiceKey(Service.self, name: name, argumentTypes: repeat (each Arg).self)
        guard container.isRegistered(key) else { return nil }
        var handle: _GraphHandle?
        if let state = _ResolutionState.existing, !state.isTopLevel || state.graphIsHeld {
            handle = state.makeGraphHandle()
            state.endRestoredGraph()  // a restored graph's one resolution was this one
        }
        return Lazy { [weak container] () throws -> Service in
            guard let container else { throw ResolutionError(code: .notRegistered, key: key, path: [key]) }
            return try container.serializing {
                try _ResolutionState.resolve(joining: handle) {
                    try container._resolvePack(Service.self, name: name, repeat each arguments)
                }
            }
        }
    }
}

/// Resolves its service anew each time ``instance`` is read.
///
/// Resolve `Provider<T>` for any registered `T`. Each read is a new top-level resolution, so a
/// `.transient` or `.graph` service is made again; a `.container` one is the same instance. It holds its
/// container weakly.
///
/// ```swift
/// container.register(Spawner.self) { r in Spawner(enemies: r.resolve(Provider<Enemy>.self)!) }
/// ```
public final class Provider<Service> {
    private let make: () throws -> Service

    init(make: @escaping () throws -> Service) { self.make = make }

    /// A service, resolved now.
    ///
    /// - Precondition: The wrapped service can be made. Call ``get()`` to handle failure as an error.
    public var instance: Service {
        do {
            return try get()
        } catch {
            preconditionFailure("Provider<\(Service.self)> could not resolve its service: \(error)")
        }
    }

    /// A service, resolved now.
    ///
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` when it cannot be made.
    public func get() throws(ResolutionError) -> Service {
        do {
            return try make()
        } catch {
            throw _asResolutionError(error)
        }
    }
}

extension Provider: _InstanceWrapper {
    static func _wrap<each Arg>(in container: Container, name: String?, _ arguments: repeat each Arg) throws -> Any? {
        let key = ServiceKey(Service.self, name: name, argumentTypes: repeat (each Arg).self)
        guard container.isRegistered(key) else { return nil }
        return Provider { [weak container] () throws -> Service in
            guard let container else { throw ResolutionError(code: .notRegistered, key: key, path: [key]) }
            return try container.serializing {
                try container._resolvePack(Service.self, name: name, repeat each arguments)
            }
        }
    }
}
