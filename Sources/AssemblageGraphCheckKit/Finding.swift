/// One result of the graph check, printed as `file:line:column: error: …` so that the build fails on that line.
package struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    package enum Severity: String, Sendable, Hashable {
        /// Fails the build: the graph is broken in a way the source shows.
        case error
        /// Does not fail the build: something that only the running program can decide.
        case note
    }

    /// What kind of finding (stable, for tests and tools).
    package enum Code: String, Sendable, Hashable {
        /// A resolved key that no visible code registers.
        case notRegistered
        /// A module resolves a key registered only outside its dependencies.
        case outsideDependencies
        /// A module registers one key twice.
        case duplicateRegistration
        /// Factories that require each other in a circle.
        case cycle
        /// Modules that depend on each other in a circle.
        case moduleCycle
        /// A `replaces` module does not register a key of the module it replaces.
        case replacementMissingKey
        /// Something that cannot be known from source.
        case notChecked
    }

    /// Error or note.
    package var severity: Severity
    /// What kind of finding.
    package var code: Code
    /// The line that causes it.
    package var location: SourceLocation
    /// The message, worded like ``ResolutionError``'s description, on one line.
    package var message: String

    /// Creates a finding.
    package init(_ severity: Severity, _ code: Code, at location: SourceLocation, _ message: String) {
        self.severity = severity
        self.code = code
        self.location = location
        self.message = message
    }

    /// `file:line:column: error: message`, the form compilers print and IDEs jump to.
    package var description: String { "\(location): \(severity.rawValue): \(message)" }
}
