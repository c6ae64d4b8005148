// Errors in setting up containers (not in resolving).

#if canImport(FoundationEssentials)
import FoundationEssentials  // LocalizedError's defaults, which the AssemblageError conformance uses
#else
import Foundation
#endif

/// An error in setting up containers (not in resolving), or in writing what they report: typed, with a readable
/// message.
///
/// ```swift
/// do {
///     try main.addFallback(payments)
/// } catch {
///     print(error)   // Adding payments as a fallback of main would make lookup loop: payments already reaches main.
/// }
/// ```
public struct ContainerError: AssemblageError, Equatable {
    /// What went wrong.
    public let code: Code
    /// A sentence describing the problem and how to fix it.
    public let message: String

    /// The ``message``.
    public var summary: String { message }
}

extension ContainerError {
    /// The kinds of ``ContainerError``.
    ///
    /// New codes may be added: match with `==`, or switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"fallbackCycle"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// Adding the fallback would make lookup loop.
        public static var fallbackCycle: Self { Self("fallbackCycle") }
        /// A decorator matches no registration or collection element.
        public static var decoratorWithoutService: Self { Self("decoratorWithoutService") }
        /// A ``StartupProfile`` could not be written where it was asked to be.
        public static var profileNotWritten: Self { Self("profileNotWritten") }
    }
}
