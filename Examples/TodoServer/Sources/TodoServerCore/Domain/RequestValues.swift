import Foundation
import HTTPTypes
import Hummingbird

/// The identifier of one request: the caller's `X-Request-ID` header when it sends a valid one, otherwise a
/// new UUID. Echoed in the response's `X-Request-ID` header and in every log line of the request.
///
/// A value provided per request scope: only services resolved inside that request see it.
///
/// ```swift
/// let id = RequestID(header: request.headers[.requestID])   // the caller's, or a new one
/// ```
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// The identifier's text.
    public let value: String

    /// Creates an identifier with a given text.
    ///
    /// - Parameter value: The text.
    public init(_ value: String) { self.value = value }

    /// Takes the caller's identifier when it is 1 to 128 printable ASCII characters without spaces; otherwise
    /// (no header, or an unusable one) makes a new UUID.
    ///
    /// - Parameter header: The value of the `X-Request-ID` header, if any.
    public init(header: String?) {
        if let header, (1...128).contains(header.utf8.count), header.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            self.value = header
        } else {
            self.value = UUID().uuidString.lowercased()
        }
    }

    /// The identifier's text.
    public var description: String { value }
}

/// The user a request acts for, from its `X-User` header (a stand-in for real authentication: this example
/// trusts the header). Todos are stored per user.
///
/// A value provided per request scope: only services resolved inside that request see it.
///
/// ```swift
/// let user = try UserID(header: request.headers[.user])     // 401 when missing or malformed
/// ```
public struct UserID: Hashable, Sendable, CustomStringConvertible {
    /// The user's name.
    public let value: String

    /// Creates a user identifier without checking it.
    ///
    /// - Parameter value: The user's name.
    public init(_ value: String) { self.value = value }

    /// Reads the `X-User` header: 1 to 64 characters among letters, digits, `-`, `_`, `.` and `@`.
    ///
    /// - Parameter header: The header's value, if any.
    /// - Throws: `HTTPError(.unauthorized)` when the header is missing, and `HTTPError(.badRequest)` when it is
    ///   malformed, each with a message that says which.
    public init(header: String?) throws {
        guard let header, !header.isEmpty else {
            throw HTTPError(.unauthorized, message: "Send the user in the X-User header.")
        }
        let allowed: (UInt8) -> Bool = { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "@")
        }
        guard header.utf8.count <= 64, header.utf8.allSatisfy(allowed) else {
            throw HTTPError(.badRequest, message: "X-User must be 1 to 64 letters, digits, '-', '_', '.' or '@'.")
        }
        self.value = header
    }

    /// The user's name.
    public var description: String { value }
}

extension HTTPField.Name {
    /// `X-Request-ID`: the request's identifier, sent by the caller or made by the server, echoed in the response.
    public static var requestID: Self { Self("X-Request-ID")! }
    /// `X-User`: the user the request acts for.
    public static var user: Self { Self("X-User")! }
    /// `X-Served-For`: the user that the request's ``TodoService`` was built for (echoed so that tests and
    /// operators can check that request-scoped values did not leak between requests).
    public static var servedFor: Self { Self("X-Served-For")! }
}
