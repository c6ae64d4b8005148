#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``DebugHelper`` that writes the failure and the registrations of the same type to standard error when
/// the environment variable `ASSEMBLAGE_LOGGING_ENABLED` (or Swinject's `SWINJECT_LOGGING_ENABLED`) is `1`.
final class LoggingDebugHelper: DebugHelper {
    func resolutionFailed<Service>(
        serviceType: Service.Type, key: ServiceKey,
        availableRegistrations: [ServiceKey: any ServiceEntryProtocol]
    ) {
        guard LoggingDebugHelper.isEnabled else { return }
        var text = LoggingDebugHelper.message(key: key, availableRegistrations: availableRegistrations) + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// The failure and the registrations of the same type, in Swinject's layout (no final newline).
    static func message(key: ServiceKey, availableRegistrations: [ServiceKey: any ServiceEntryProtocol]) -> String {
        let sameType =
            availableRegistrations
            .filter { ObjectIdentifier($0.key.serviceType) == ObjectIdentifier(key.serviceType) }
            .map { "\t{ \($0.value.describe(with: $0.key)) }" }.sorted()
        let lines =
            [
                "Assemblage: resolution failed. Expected registration:", "\t{ \(key) }",
                "Available registrations:",
            ] + sameType
        return lines.joined(separator: "\n")
    }

    static var isEnabled: Bool {
        ["ASSEMBLAGE_LOGGING_ENABLED", "SWINJECT_LOGGING_ENABLED"].contains { name in
            guard let value = getenv(name) else { return false }
            return String(cString: value) == "1"
        }
    }
}

extension ServiceEntry {
    /// An entry outside any container, as Swinject's tests make them: the factory is `(Resolver) -> Service`
    /// or `() -> Service` (anything else makes a factory that throws, saying what it got).
    convenience init(
        serviceType: Service.Type, argumentsType: Any.Type, factory: Any,
        objectScope: ObjectScope = .graph
    ) {
        let call: @Sendable (any Resolver) throws -> Service
        let description = "\(type(of: factory))"
        switch factory {
        case let make as @Sendable (any Resolver) throws -> Service: call = make
        case let make as @Sendable () throws -> Service: call = { _ in try make() }
        default:
            call = { _ in
                throw ResolutionError(
                    code: .factoryFailed, key: ServiceKey(Service.self), path: [ServiceKey(Service.self)],
                    underlying: _UncallableFactory(description: description))
            }
        }
        self.init(
            key: ServiceKey(serviceType: Service.self, argumentsType: argumentsType, name: nil, argumentCount: 0),
            scope: objectScope, site: RegistrationSite(file: #fileID, line: #line), factory0: call)
    }
}

/// The failure of an entry made from a factory value of a shape Assemblage cannot call.
struct _UncallableFactory: Error, CustomStringConvertible {
    let description: String
}

extension Container {
    /// A container with a debug helper (Swinject's internal initializer, for tests written against it).
    convenience init(parent: Container? = nil, debugHelper: any DebugHelper, defaultObjectScope: ObjectScope = .graph) {
        self.init(parent: parent, defaultObjectScope: defaultObjectScope)
        hooks.debugHelper = debugHelper
    }

    /// Resolves through an extension's invoker, as Swinject's extensions do: `invoker` receives a function from
    /// the factory's input (`Arguments`, e.g. `Resolver`) to the instance, and returns what it made.
    ///
    /// Registrations without runtime arguments are reachable this way (`Arguments` is `Resolver`); the key
    /// takes `name` and `option` into account. When nothing matches, the container's debug helper (if any) is
    /// told and the result is `nil`.
    ///
    /// - Parameters:
    ///   - name: The registration name, or `nil`.
    ///   - option: The extension's discriminator, or `nil`.
    ///   - invoker: Calls the function it is given with the factory's input.
    /// - Returns: The service, or `nil` when no registration matches or the invoker's result is not one.
    public func _resolve<Service, Arguments>(
        name: String?, option: (any ServiceKeyOption)? = nil,
        invoker: @escaping ((Arguments) -> Any) -> Any
    ) -> Service? {
        guard option == nil, Arguments.self == (any Resolver).self, isRegistered(ServiceKey(Service.self, name: name))
        else {
            reportResolutionFailure(
                Service.self,
                ServiceKey(
                    serviceType: Service.self, argumentsType: Arguments.self, name: name,
                    option: option))
            return nil
        }
        let made = invoker { _ in self.resolve(Service.self, name: name) as Any }
        return (made as? Service?) ?? nil
    }
}
