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
    /// What went wrong: an ``ErrorCode`` whose static members (`notRegistered`, `stepFailed`) name the failures.
    /// New codes may be added; switch with a `default`.
    public typealias Code = ErrorCode<InjectionError>

    /// What went wrong.
    public let code: Code
    /// The object's type and the injection name.
    public let key: ServiceKey
    /// For ``ErrorCode/stepFailed``: the failure, with its resolution path.
    public let resolutionError: ResolutionError?

    /// What failed.
    public var summary: String {
        switch code {
        case .notRegistered: return "No injection is registered for \(key)."
        default: return "Injecting into \(key) failed."
        }
    }

    /// For ``ErrorCode/notRegistered-28p52``: the registration to add; for ``ErrorCode/stepFailed``: the cause,
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

/// The kinds of ``InjectionError``.
extension ErrorCode where Domain == InjectionError {
    /// No injection is registered for the object's type and name.
    public static var notRegistered: Self { Self("notRegistered") }
    /// A step threw, or could not resolve what it needs.
    public static var stepFailed: Self { Self("stepFailed") }
}
