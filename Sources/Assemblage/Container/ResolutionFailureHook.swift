// The hook a container calls when a resolution finds no registration (Swinject's debug helper, which the
// compatibility layer's `Container(parent:debugHelper:)` and logging helper use), and the one-line description of
// a registration that the hook and `Container.description` print.

/// Told about every resolution that found no registration, with the registrations that were available
/// (Swinject's internal debug hook, kept with its shape so that code and tests written against it work).
///
/// A container has none unless one is given to `Container(parent:debugHelper:defaultObjectScope:)`, so the
/// common failure costs nothing extra; the typed ``ResolutionError`` of `require` carries the same facts.
protocol DebugHelper {
    /// Called when resolving `serviceType` under `key` found no registration.
    func resolutionFailed<Service>(
        serviceType: Service.Type, key: ServiceKey,
        availableRegistrations: [ServiceKey: any ServiceEntryProtocol])
}

/// What every registration is, whatever its service type (Swinject's internal protocol of the same name).
protocol ServiceEntryProtocol: AnyObject {
    /// The registered service type.
    var serviceType: Any.Type { get }
    /// The scope of the registration.
    var objectScope: ObjectScope { get }
    /// The line ``Container/description`` prints for this registration under `key`.
    func describe(with key: ServiceKey) -> String
}

extension ServiceEntry: ServiceEntryProtocol {
    /// Swinject's format: `Service: Animal, Name: "x", Factory: (Resolver, String) -> Animal, ObjectScope: graph`
    /// (`key` is the key the entry is registered under: a forwarded type shows as the factory's result).
    func describe(with key: ServiceKey) -> String {
        let factoryInput =
            key.argumentCount == 0 ? "Resolver" : "(Resolver, \(ServiceKey.argumentList(key.argumentsType)))"
        var text = "Service: \(serviceType)"
        if let name = key.name { text += ", Name: \"\(name)\"" }
        if let option = key.option { text += ", \(option)" }
        text += ", Factory: \(factoryInput) -> \(key.serviceType), ObjectScope: \(objectScope)"
        let steps = initCompletedCount
        if steps > 0 { text += ", InitCompleted: Specified \(steps) closures" }
        return text
    }
}

/// The debug helper told about every container's failures, when one is set (Swinject's process-wide
/// `Container.loggingFunction`, which the compatibility layer maps onto it). Read on the failure path only.
let _processDebugHelper = _Locked<(any DebugHelper)?>(nil)

extension Container {
    /// Tells the debug helpers, if any — this container's and the process-wide one — that `key` has no
    /// registration (failure path only).
    func reportResolutionFailure<Service>(_: Service.Type, _ key: ServiceKey) {
        let helpers = [writer.withLock({ hooks.debugHelper }), _processDebugHelper.withLock { $0 }].compactMap { $0 }
        guard !helpers.isEmpty else { return }
        var available: [ServiceKey: any ServiceEntryProtocol] = [:]
        for container in lookupChain() {
            let entries = container.writer.withLock { container.liveEntriesLocked() }
            for entry in entries where available[entry.key] == nil {
                if let described = entry as? any ServiceEntryProtocol { available[entry.key] = described }
            }
        }
        for debugHelper in helpers {
            debugHelper.resolutionFailed(serviceType: Service.self, key: key, availableRegistrations: available)
        }
    }
}
