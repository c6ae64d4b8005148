// The creation paths of shared, stored and multiton instances: once per instance, not hot.

extension ServiceEntry {
    // MARK: Resolution (creation paths: once per shared instance, not hot)

    @usableFromInline
    func _createShared<M: _Maker>(
        _ state: _ResolutionState, _ resolving: Container,
        _ make: M
    ) throws -> Service {
        let container = try _sharedResolver(for: resolving, state)
        // Being made by this thread right now (an initCompleted step reached it again): the graph has it.
        if let instance = state.graphInstance(identity) { return instance as! Service }
        let reentry = try state.checkReentry(identity, bit: filterBit)
        // The published instance is taken as the object its word holds, not as a `Service?`: this function is not
        // specialised for the service type, and an optional of it would cost a runtime metadata lookup per type.
        // It is read after the coordinator's lock is released: clearing the hazard word may release what a reset
        // retired, whose deinit must not run under that lock. Withdrawn in between (a reset), it is asked for again.
        if !reentry {
            while try _Coordinator.shared.begin(
                self, key: key, state: ObjectIdentifier(state), path: { state.path },
                isReady: { words.isSet(.sharedInstance) })
            {
                if let ready = words.sharedObject(.sharedInstance) {
                    state.endRestoredGraph()
                    return words.sharedInstance(in: ready, as: Service.self, asObject: servesObjects)
                }
            }
        }
        defer { if !reentry { _Coordinator.shared.end(identity) } }
        let instance = try state.whileMakingLongLived(identity) { try _construct(state, container, graph: true, make) }
        if let published = words.sharedObject(.sharedInstance) {  // a re-entrant run published first
            return words.sharedInstance(in: published, as: Service.self, asObject: servesObjects)
        }
        words.publishShared(.sharedInstance, instance, asObject: servesObjects)
        guard _trackInOwner(instance, once: true) else {
            // The container shut down meanwhile: the instance was disposed; no one may find it.
            words.withdrawShared(.sharedInstance)
            throw container._shutDownFailure(key, path: state.path)
        }
        return instance
    }

    @usableFromInline
    func _createStored<M: _Maker>(
        _ state: _ResolutionState, _ resolving: Container, _ kind: ObjectScope.Kind,
        _ make: M
    ) throws -> Service {
        let container = try _sharedResolver(for: resolving, state)
        if let instance = state.graphInstance(identity) { return instance as! Service }
        let graphID = state.currentGraphID
        let reentry = try state.checkReentry(identity, bit: filterBit)
        if !reentry {
            if let ready = try _Coordinator.shared.begin(
                self, key: key, state: ObjectIdentifier(state), path: { state.path },
                isReady: { storedInstance(kind, graphID) })
            {
                state.endRestoredGraph()
                return ready
            }
        }
        defer { if !reentry { _Coordinator.shared.end(identity) } }
        let instance = try state.whileMakingLongLived(identity) { try _construct(state, container, graph: true, make) }
        _Coordinator.shared.withLock {
            if kind == .weak {
                storedInstances.weakInstance = instance as AnyObject
            } else {
                let storage = customStorage()
                storage.setInstance(instance, inGraph: graphID)
                // At top level the graph has already ended (in `_construct`): finish it for this storage now
                // rather than leave the storage (and its instance) on this thread until its next resolution.
                // A `withObjectGraph` scope's graph goes on, and finishes its storages when it ends.
                if state.isTopLevel, !state.graphIsScoped {
                    storage._finishGraph(graphID)
                } else {
                    state.touchedStorages.append(storage)
                }
            }
        }
        return instance
    }

    @usableFromInline
    func _createMultiton<M: _Maker>(
        _ state: _ResolutionState, _ resolving: Container, _ arguments: [Any],
        _ make: M
    ) throws -> Service {
        let container = try _sharedResolver(for: resolving, state)
        var values: [AnyHashable] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments {
            guard let value = argument as? AnyHashable else {
                throw ResolutionError(
                    code: .argumentsNotHashable, key: key, path: state.path + [key],
                    underlying: _NotHashable(type: type(of: argument)))
            }
            values.append(value)
        }
        let reentry = try state.checkReentry(identity, bit: filterBit)
        if !reentry {
            if let ready = try _Coordinator.shared.begin(
                self, key: key, state: ObjectIdentifier(state), path: { state.path },
                isReady: { stored?.multiton[values] })
            {
                state.endRestoredGraph()
                return ready
            }
        }
        defer { if !reentry { _Coordinator.shared.end(identity) } }
        let instance = try state.whileMakingLongLived(identity) { try _construct(state, container, graph: false, make) }
        _Coordinator.shared.withLock { storedInstances.multiton[values] = instance }
        guard _trackInOwner(instance) else {
            _ = _Coordinator.shared.withLock { storedInstances.multiton.removeValue(forKey: values) }
            throw container._shutDownFailure(key, path: state.path)
        }
        return instance
    }

    /// The resolver that makes a shared instance asked for through `resolving` (see
    /// ``Container/_sharedResolver``); an ended scope or a shut-down container makes nothing.
    func _sharedResolver(for resolving: Container, _ state: _ResolutionState) throws -> Container {
        if resolving.isShutDown { throw resolving._shutDownFailure(key, path: state.path) }
        if let scope = resolving.scopeStorage, scope.hasEnded { throw _scopedFailure(state, .scopeEnded) }
        return resolving._sharedResolver
    }

    /// Applies the decorators registered for this service type and name, farthest container first.
    @usableFromInline
    func _decorate(
        _ instance: Service, _ container: Container, _ state: _ResolutionState,
        replacingInGraph: Bool
    ) throws -> Service {
        let decorators = container.decorators(for: Service.self, name: key.name)
        guard !decorators.isEmpty else { return instance }
        var result = instance
        for decorator in decorators {
            do {
                result = try (decorator as! _DecoratorBox<Service>).call(container, result)
            } catch {
                throw state.factoryFailure(error, key)
            }
        }
        if replacingInGraph { state.replaceGraphInstance(result, for: identity) }
        return result
    }

    /// Must be called under the coordinator's lock.
    func storedInstance(_ kind: ObjectScope.Kind, _ graphID: GraphIdentifier) -> Service? {
        if kind == .weak { return stored?.weakInstance as? Service }
        return customStorage().instance(inGraph: graphID) as? Service
    }

    /// The instance a weak or custom scope keeps, if any (the async creation path checks it before awaiting).
    func _storedInstance(_ kind: ObjectScope.Kind) -> Service? {
        _Coordinator.shared.withLock { storedInstance(kind, GraphIdentifier()) }
    }

    /// Must be called under the coordinator's lock.
    func customStorage() -> any InstanceStorage {
        let instances = storedInstances
        if let storage = instances.storage { return storage }
        let made = objectScope.makeStorage()
        instances.storage = made
        return made
    }
}
