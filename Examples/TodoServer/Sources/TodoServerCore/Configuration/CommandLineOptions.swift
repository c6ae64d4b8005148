/// A command line a command cannot run with: an unknown option, a missing value or a value it does not accept.
/// The message names the option and what is accepted, on one line; the commands exit with status 2.
///
/// ```swift
/// // todo-server --bogus → "unknown option --bogus; todo-server takes --config FILE, --help."
/// ```
public struct UsageError: Error, CustomStringConvertible, Equatable {
    /// What is wrong and what is accepted.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameter message: What is wrong and what is accepted.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// The options of a command: `--name VALUE` (or `--name=VALUE`) options and flags, and nothing else.
///
/// ```swift
/// let options = try CommandLineOptions.parse(["--config", "my.json"], command: "todo-server",
///                                            values: ["--config": "FILE"], flags: ["--help", "-h"])
/// options.values["--config"]   // "my.json"
/// ```
public struct CommandLineOptions: Sendable, Equatable {
    /// The value of each option given.
    public var values: [String: String] = [:]
    /// The flags given.
    public var flags: Set<String> = []

    /// Reads a command line, refusing what the command does not take.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the command's own name.
    ///   - command: The command's name, for the messages.
    ///   - values: The options that take a value, with the value's placeholder for the messages (`"FILE"`).
    ///   - flags: The options that take none.
    ///   - moved: Options the command no longer takes, with what to use instead.
    /// - Returns: The options given.
    /// - Throws: ``UsageError`` for an unknown option, an argument that is not an option, an option given twice
    ///   or one without its value.
    public static func parse(
        _ arguments: [String], command: String, values: [String: String], flags: [String],
        moved: [String: String] = [:]
    ) throws(UsageError) -> CommandLineOptions {
        let accepted = (values.keys.sorted().map { "\($0) \(values[$0]!)" } + flags.filter { $0.hasPrefix("--") })
            .joined(separator: ", ")
        var options = CommandLineOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if let placeholder = values[name] {
                guard options.values[name] == nil else { throw UsageError("\(name) is given twice; give it once.") }
                guard let value = inlineValue ?? remaining.popFirst(), !value.isEmpty,
                    inlineValue != nil || !value.hasPrefix("--")
                else {
                    throw UsageError("\(name) needs a value: \(name) \(placeholder).")
                }
                options.values[name] = value
            } else if flags.contains(name), inlineValue == nil {
                options.flags.insert(name)
            } else if let instead = moved[name] {
                throw UsageError("\(name) is no longer an option of \(command); \(instead).")
            } else if argument.hasPrefix("-") {
                throw UsageError("unknown option \(argument); \(command) takes \(accepted).")
            } else {
                throw UsageError("unexpected argument \"\(argument)\"; \(command) takes \(accepted).")
            }
        }
        return options
    }

    /// The value of an option that takes a whole number.
    ///
    /// - Parameters:
    ///   - name: The option.
    ///   - range: The numbers accepted.
    ///   - defaultValue: The number when the option is not given.
    /// - Returns: The number.
    /// - Throws: ``UsageError`` naming the option, the value and the numbers accepted.
    public func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws(UsageError)
        -> Int
    {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "\(name) is \"\(text)\"; it takes a whole number from \(range.lowerBound) to "
                    + "\(range.upperBound).")
        }
        return value
    }
}
