// LocalizedError comes from FoundationEssentials where the toolchain has it (Linux, recent Apple SDKs), so that the
// library does not load Foundation's internationalization and ICU libraries; `error.localizedDescription`, which
// a user gets by importing Foundation, uses the same conformance.
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// The one shape of every error Assemblage throws: a code, a summary line, and detail lines under it. Each error
// type says what it knows (its code, its summary, its details); the text a user reads is rendered here, the
// same way for all of them.

/// An error thrown by Assemblage: a ``code`` to match on, a ``summary`` line that says what failed, and
/// ``details`` under it that say where and how to fix it.
///
/// Every error type of the library adopts it — ``ResolutionError``, ``ScopeError``, ``DisposalError``,
/// ``ContainerError``, `PropertyError`, ``ModuleAssemblyError`` and the scenes'
/// `NavigationError` — so they print alike: the summary on the first line, each detail on a line of its own,
/// indented, with the detail's label first.
///
/// ```swift
/// do {
///     _ = try container.require(App.self)
/// } catch let error as ResolutionError {
///     print(error)
///     // No registration for Database (name: "primary").
///     //   Resolution path: App → Repository → Database (name: "primary")
///     //   Registered for Database: Database (name: "replica")
///     print(error.code)              // notRegistered
///     print(String(reflecting: error))
///     // ResolutionError.notRegistered: No registration for Database (name: "primary").
///     //   …
/// }
/// ```
///
/// `description` (what `print` and string interpolation show), `debugDescription` (the same, after the
/// error's type and code) and `localizedDescription` come from the protocol; a conforming type provides
/// ``code``, ``summary`` and, when it has any, ``details``.
public protocol AssemblageError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
    /// The type of ``code``: each error type nests its own (``ResolutionError/Code``, ``ScopeError/Code``, …),
    /// a struct whose static members name its failures, so that new codes break no one's `switch`.
    associatedtype Code: Hashable, Sendable, CustomStringConvertible

    /// What kind of failure this is: one of the static members of the error type's ``Code``.
    ///
    /// ```swift
    /// if error.code == .notRegistered { … }
    /// switch error.code {
    /// case .notRegistered: registerTheMissingService()
    /// case .cycle: breakTheCycle()
    /// default: throw error
    /// }
    /// ```
    var code: Code { get }

    /// What failed, on one line: the first line of ``description``.
    ///
    /// ```swift
    /// error.summary   // "No registration for Database."
    /// ```
    var summary: String { get }

    /// The lines under the summary: where the failure happened, what is registered instead, how to fix it.
    ///
    /// ```swift
    /// error.details.map(\.label)   // ["Resolution path", nil]
    /// ```
    var details: [ErrorDetail] { get }
}

extension AssemblageError {
    /// No details: the summary says everything.
    public var details: [ErrorDetail] { [] }

    /// The summary, then each detail on a line of its own, indented by two spaces:
    ///
    /// ```text
    /// No registration for Database.
    ///   Resolution path: App → Repository → Database
    ///   Nothing is registered for Database under any name or argument list.
    /// ```
    public var description: String { ErrorDetail.render(summary: summary, details: details) }

    /// The error's type and code, then ``description``: `ResolutionError.notRegistered: No registration for …`.
    ///
    /// ```swift
    /// print(String(reflecting: error))   // ResolutionError.notRegistered: No registration for Database. …
    /// ```
    public var debugDescription: String { "\(_typeName(Self.self, qualified: false)).\(code): \(description)" }

    /// The same text as ``description``, so that `localizedDescription` (and code that only knows `Error`)
    /// shows it rather than a generic "The operation could not be completed".
    ///
    /// ```swift
    /// print(error.localizedDescription)   // same as print(error)
    /// ```
    public var errorDescription: String? { description }
}

/// One line under an error's summary: a labelled fact (`Resolution path: App → Database`), a sentence (how to fix
/// it), or the error that caused this one, with lines of its own beneath it.
///
/// ```swift
/// ErrorDetail("Resolution path", "App → Repository → Database")
/// ErrorDetail("Nothing is registered for Database under any name or argument list.")
/// ```
public struct ErrorDetail: Sendable, Hashable, CustomStringConvertible {
    /// What the line is about (`Resolution path`, `Fix`, `Cause`), written before the text and a colon; `nil` for
    /// a line of text alone.
    public var label: String?
    /// The text. When it spans lines, the lines after the first are indented under it.
    public var text: String
    /// Lines that belong under this one (the details of a cause), indented one step further.
    public var details: [ErrorDetail]

    /// A line of text alone.
    ///
    /// ```swift
    /// ErrorDetail("Nothing is registered for Database under any name or argument list.")
    /// ```
    ///
    /// - Parameters:
    ///   - text: The line.
    ///   - details: Lines under it.
    public init(_ text: String, details: [ErrorDetail] = []) {
        self.label = nil
        self.text = text
        self.details = details
    }

    /// A labelled line: `label: text`.
    ///
    /// ```swift
    /// ErrorDetail("Fix", "add StorageModule.self to ReportsModule.dependencies.")
    /// ```
    ///
    /// - Parameters:
    ///   - label: What the line is about.
    ///   - text: The line.
    ///   - details: Lines under it.
    public init(_ label: String, _ text: String, details: [ErrorDetail] = []) {
        self.label = label
        self.text = text
        self.details = details
    }

    /// The error that caused this one: `Cause: ` and its summary, its own details beneath.
    ///
    /// ```swift
    /// ErrorDetail.cause(resolutionError)
    /// //   Cause: No registration for AnalyticsTracker.
    /// //     Resolution path: ProfileScreen → AnalyticsTracker
    /// ```
    ///
    /// - Parameter error: The cause.
    /// - Returns: The detail.
    public static func cause(_ error: any AssemblageError) -> ErrorDetail {
        ErrorDetail("Cause", error.summary, details: error.details)
    }

    /// The error that caused this one, when it may be any error: an ``AssemblageError`` keeps its details
    /// beneath; any other error is described on the line (and the lines after it, when its description has
    /// several).
    ///
    /// ```swift
    /// ErrorDetail.cause(describing: underlying)   // Cause: connection refused
    /// ```
    ///
    /// - Parameter error: The cause.
    /// - Returns: The detail.
    public static func cause(describing error: any Error) -> ErrorDetail {
        if let error = error as? any AssemblageError { return cause(error) }
        return ErrorDetail("Cause", String(describing: error))
    }

    /// The line as it is printed, without indentation: `label: text`, or the text.
    ///
    /// ```swift
    /// ErrorDetail("Fix", "register Database.").description   // "Fix: register Database."
    /// ```
    public var description: String {
        var text = ""
        render(indent: 0, into: &text)
        return String(text.dropFirst())
    }

    /// `summary`, then every detail indented by two spaces, each on a new line.
    static func render(summary: String, details: [ErrorDetail]) -> String {
        var text = summary
        for detail in details { detail.render(indent: 2, into: &text) }
        return text
    }

    /// Appends a newline, the detail at `indent`, its continuation lines two spaces further, then its own
    /// details two spaces further. Blank lines are dropped, so that no line is empty or ends in spaces.
    func render(indent: Int, into text: inout String) {
        let margin = String(repeating: " ", count: indent)
        var lines: [Substring] = []
        for var line in self.text.split(separator: "\n") {
            while line.last == " " { line = line.dropLast() }
            if !line.isEmpty { lines.append(line) }
        }
        if lines.isEmpty { lines = [""] }
        text += "\n" + margin + (label.map { lines[0].isEmpty ? "\($0):" : "\($0): " } ?? "") + lines[0]
        for line in lines.dropFirst() { text += "\n" + margin + "  " + line }
        for detail in details { detail.render(indent: indent + 2, into: &text) }
    }
}
