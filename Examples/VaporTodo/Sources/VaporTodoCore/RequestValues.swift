import Foundation
import Vapor

/// The identifier of one request: the caller's `X-Request-ID` header when it sends a usable one (1 to 128
/// printable ASCII characters without spaces), otherwise a new UUID. A value each request's scope provides, put
/// on every response by the scope middleware.
///
/// ```swift
/// let id = RequestID(header: req.headers.first(name: "X-Request-ID"))
/// ```
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// The identifier's text.
    public let value: String

    /// Takes the caller's identifier when it is usable; otherwise makes a new UUID.
    ///
    /// - Parameter header: The `X-Request-ID` header's value, if any.
    public init(header: String?) {
        if let header, (1...128).contains(header.utf8.count), header.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            value = header
        } else {
            value = UUID().uuidString.lowercased()
        }
    }

    /// The identifier's text.
    public var description: String { value }
}

/// The user a request acts for, from its `X-User` header (a stand-in for authentication: the example trusts
/// it). A value the `/todos` routes' scopes provide.
///
/// ```swift
/// let user = try UserID(header: req.headers.first(name: "X-User"))   // 401 when missing, 400 when malformed
/// ```
public struct UserID: Hashable, Sendable, CustomStringConvertible {
    /// The user's name.
    public let value: String

    /// Creates a user identifier without checking it.
    ///
    /// - Parameter value: The user's name.
    public init(_ value: String) { self.value = value }

    /// Reads the `X-User` header: 1 to 64 letters, digits, `-`, `_`, `.` or `@`.
    ///
    /// - Parameter header: The header's value, if any.
    /// - Throws: `Abort(.unauthorized)` when it is missing, `Abort(.badRequest)` when it is malformed.
    public init(header: String?) throws {
        guard let header, !header.isEmpty else { throw Abort(.unauthorized, reason: "Send the user in X-User.") }
        let allowed = header.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-_.@".utf8.contains(byte)
        }
        guard header.utf8.count <= 64, allowed else {
            throw Abort(.badRequest, reason: "X-User must be 1 to 64 letters, digits, '-', '_', '.' or '@'.")
        }
        value = header
    }

    /// The user's name.
    public var description: String { value }
}
