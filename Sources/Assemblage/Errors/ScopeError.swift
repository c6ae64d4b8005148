// Errors of request scopes: a value provided twice, for no declaration, or after the scope ended.

#if canImport(FoundationEssentials)
import FoundationEssentials  // LocalizedError's defaults, which the AssemblageError conformance uses
#else
import Foundation
#endif

/// Why a scope refused a value.
///
/// ```swift
/// do {
///     try scope.provide(request)
/// } catch {
///     print(error)   // scope "request" already has a value for Request; each scope takes one value per declaration.
/// }
/// ```
public struct ScopeError: AssemblageError, Equatable {
    /// What went wrong.
    public let code: Code
    /// The value's type and name.
    public let key: ServiceKey
    /// The scope, described.
    public let scope: String

    /// What the scope refused, and why.
    public var summary: String {
        switch code {
        case .notDeclared:
            return "\(key) is not declared as a scoped value, so \(scope) cannot take it."
        case .alreadyProvided:
            return "\(scope) already has a value for \(key); each scope takes one value per declaration."
        default:
            return "\(scope) has ended; it takes no more values."
        }
    }

    /// For ``ScopeError/Code/notDeclared``: the declaration to add.
    public var details: [ErrorDetail] {
        guard code == .notDeclared else { return [] }
        let name = key.name.map { ", name: \"\($0)\"" } ?? ""
        return [
            ErrorDetail(
                "Fix",
                "declare it on the container with registerScopedValue("
                    + "\(_typeName(key.serviceType, qualified: false)).self\(name)).")
        ]
    }
}

extension ScopeError {
    /// The kinds of ``ScopeError``.
    ///
    /// New codes may be added: match with `==`, or switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"notDeclared"`: for logs and metrics.
        public let rawValue: String

        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// The type (and name) was not declared with ``Container/registerScopedValue(_:name:validationValue:file:line:)``.
        public static var notDeclared: Self { Self("notDeclared") }
        /// The scope already has a value for it, provided or resolved.
        public static var alreadyProvided: Self { Self("alreadyProvided") }
        /// The scope has ended.
        public static var scopeEnded: Self { Self("scopeEnded") }
    }
}
