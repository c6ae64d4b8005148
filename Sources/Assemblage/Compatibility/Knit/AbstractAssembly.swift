// Knit's spellings of abstract registrations: `AbstractAssembly`, the errors listing unprovided abstract
// registrations, and OverrideBehavior's placeholder switch. The declarations themselves are Assemblage's
// `Container.registerAbstract`, checked by the module assembler.

#if canImport(FoundationEssentials)
public import FoundationEssentials  // LocalizedError, so that localizedDescription is the list, as in Knit
#else
public import Foundation
#endif

/// A module that only declares abstract registrations: the services its dependents need, which another module (one
/// that lists it in ``ModuleAssembly/replaces``, or any module of the graph) registers.
///
/// Depend on the abstract module where the service is used, and put the implementation in a module that replaces
/// it. The abstract module's declarations are checked against the module replacing it, even though the replaced
/// module itself is not assembled:
///
/// ```swift
/// struct PaymentsInterfaceModule: AbstractAssembly, AutoInitModuleAssembly {
///     static var dependencies: [any ModuleAssembly.Type] { [] }
///     func assemble(container: Container) { container.registerAbstract(PaymentProcessor.self) }
/// }
///
/// struct PaymentsModule: AutoInitModuleAssembly {
///     static var dependencies: [any ModuleAssembly.Type] { [] }
///     static var replaces: [any ModuleAssembly.Type] { [PaymentsInterfaceModule.self] }
///     func assemble(container: Container) {
///         container.register(PaymentProcessor.self) { _ in StripeProcessor() }
///     }
/// }
/// ```
///
/// A replaced abstract module is read by calling its `assemble(container:)` on a container of its own, so it is
/// made like any module: passed in, or an ``AutoInitModuleAssembly``.
public protocol AbstractAssembly: ModuleAssembly {}

extension AbstractAssembly {
    /// An abstract-only module.
    @_documentation(visibility: internal)
    public static var _declaresOnlyAbstractRegistrations: Bool { true }
}

extension Container {
    /// Knit's description of one abstract registration that nothing provides: the service, where it was declared,
    /// and its name.
    ///
    /// ```swift
    /// for missing in error.errors { print(missing.serviceType, missing.file) }
    /// ```
    public struct AbstractRegistrationError: Sendable, Hashable, CustomStringConvertible {
        /// The service type, as `String(describing:)` spells it.
        public let serviceType: String
        /// The file of the declaration (`#fileID`).
        public let file: String
        /// The registration's name, if any.
        public let name: String?

        /// Creates a description.
        ///
        /// - Parameters:
        ///   - serviceType: The service type's name.
        ///   - file: The file of the declaration.
        ///   - name: The registration's name.
        public init(serviceType: String, file: String, name: String?) {
            self.serviceType = serviceType
            self.file = file
            self.name = name
        }

        /// `No module provides the abstract registration of String (name: "x"), declared in Module/File.swift.`
        public var description: String {
            "No module provides the abstract registration of \(serviceType)"
                + (name.map { " (name: \"\($0)\")" } ?? "") + ", declared in \(file)."
        }
    }

    /// Knit's error listing every abstract registration that nothing provides.
    ///
    /// A ``ModuleAssembler`` reports these as ``ModuleAssemblyError/Code/abstractRegistrationNotProvided`` problems
    /// (``ModuleAssemblyError/abstractRegistrationErrors`` turns them into this error);
    /// ``Container/validateAbstractRegistrations()`` throws it for a container of its own.
    ///
    /// ```swift
    /// do { try container.validateAbstractRegistrations() } catch { print(error.errors.map(\.serviceType)) }
    /// ```
    public struct AbstractRegistrationErrors: LocalizedError, Sendable, Hashable, CustomStringConvertible {
        /// Every abstract registration that nothing provides, in declaration order.
        public let errors: [AbstractRegistrationError]

        /// Creates the error.
        ///
        /// - Parameter errors: The unprovided abstract registrations.
        public init(errors: [AbstractRegistrationError]) { self.errors = errors }

        /// Each unprovided registration on a line of its own.
        public var description: String { errors.map(\.description).joined(separator: "\n") }

        /// The ``description``, which `localizedDescription` returns.
        public var errorDescription: String? { description }
    }

    /// Checks that every abstract registration declared in this container is provided by a registration it can
    /// resolve (its own or a fallback's): Knit's check, for a container outside a module assembler.
    ///
    /// ```swift
    /// container.registerAbstract(Clock.self)
    /// container.register(Clock.self) { _ in SystemClock() }
    /// try container.validateAbstractRegistrations()   // passes
    /// ```
    ///
    /// - Throws: ``AbstractRegistrationErrors`` listing every abstract registration that nothing provides.
    public func validateAbstractRegistrations() throws(AbstractRegistrationErrors) {
        let chain = lookupChain()
        let missing = abstractRegistrations.filter { declaration in
            !chain.contains { $0.registersOwn(declaration.key) }
        }
        guard !missing.isEmpty else { return }
        throw AbstractRegistrationErrors(errors: missing.map(\.knitError))
    }
}

extension _AbstractRegistration {
    var knitError: Container.AbstractRegistrationError {
        Container.AbstractRegistrationError(
            serviceType: String(describing: key.serviceType), file: site.file,
            name: key.name)
    }
}

extension ModuleAssemblyError {
    /// Knit's form of the abstract registrations no module provides: the
    /// ``ModuleAssemblyError/Code/abstractRegistrationNotProvided`` problems, or `nil` when there are none.
    ///
    /// ```swift
    /// if let missing = assembler.assemblyError?.abstractRegistrationErrors { print(missing.errors) }
    /// ```
    public var abstractRegistrationErrors: Container.AbstractRegistrationErrors? {
        let errors = problems.filter { $0.code == .abstractRegistrationNotProvided }.compactMap { problem in
            problem.key.map { key in
                Container.AbstractRegistrationError(
                    serviceType: String(describing: key.serviceType),
                    file: problem.related.first.map { String($0.prefix { $0 != ":" }) } ?? "", name: key.name)
            }
        }
        return errors.isEmpty ? nil : Container.AbstractRegistrationErrors(errors: errors)
    }
}

extension OverrideBehavior {
    /// Knit's name of ``usesAbstractPlaceholders``.
    @_documentation(visibility: internal)
    public var useAbstractPlaceholders: Bool { usesAbstractPlaceholders }

    /// Knit's initializer: whether default overrides and abstract placeholders are used.
    ///
    /// - Parameters:
    ///   - allowDefaultOverrides: Whether modules with a default override are replaced by it.
    ///   - useAbstractPlaceholders: Whether abstract registrations no module provides are placeholders.
    @_documentation(visibility: internal)
    public init(allowDefaultOverrides: Bool, useAbstractPlaceholders: Bool) {
        self.init(usesDefaultOverrides: allowDefaultOverrides, usesAbstractPlaceholders: useAbstractPlaceholders)
    }
}
