// Errors of injection into existing instances.

#if canImport(FoundationEssentials)
import FoundationEssentials  // LocalizedError's defaults, which the AssemblageError conformance uses
#else
import Foundation
#endif

/// Why ``Resolver/inject(into:name:)`` failed.
///
/// ```swift
/// do {
///     try resolver.inject(into: controller)
/// } catch {
///     print(error)   // No injection is registered for ProfileViewController. …
/// }
/// ```
public struct InjectionError: AssemblageError, Equatable {
    /// What went wrong.
    public let code: Code
    /// The object's type and the injection name.
    public let key: ServiceKey
    /// For ``InjectionError/Code/stepFailed``: the failure, with its resolution path.
    public let resolutionError: ResolutionError?

    /// What failed.
    public var summary: String {
        switch code {
        case .notRegistered: return "No injection is registered for \(key)."
        default: return "Injecting into \(key) failed."
        }
    }

    /// For ``InjectionError/Code/notRegistered``: the registration to add; for ``InjectionError/Code/stepFailed``: the cause,
    /// with its resolution path.
    public var details: [ErrorDetail] {
        switch code {
        case .notRegistered:
            let name = key.name.map { ", name: \"\($0)\"" } ?? ""
            let type = _typeName(key.serviceType, qualified: false)
            return [ErrorDetail("Fix", "container.registerInjection(for: \(type).self\(name)) { r, object in … }")]
        default:
            return [resolutionError.map { ErrorDetail.cause($0) } ?? ErrorDetail("Cause", "unknown error")]
        }
    }
}

extension InjectionError {
    /// The kinds of ``InjectionError``.
    ///
    /// New codes may be added: match with `==`, or switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"notRegistered"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// No injection is registered for the object's type and name.
        public static var notRegistered: Self { Self("notRegistered") }
        /// A step threw, or could not resolve what it needs.
        public static var stepFailed: Self { Self("stepFailed") }
    }
}
