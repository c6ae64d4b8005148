// The text report: the slowest registrations by self time and by total time.

extension StartupProfile {
    /// The slowest ten instances by self time and by total time, as a table a person reads.
    ///
    /// ```text
    /// Startup profile: 42 instances in 212.40 ms on 3 threads
    ///
    /// Slowest by self time:
    ///      self     total  scope      container  thread  registration (made for)
    ///  180.02ms  180.02ms  singleton  app        main    Database (made for Repository)
    /// ```
    public var text: String { text(top: 10) }

    /// The slowest `top` instances by self time and by total time.
    ///
    /// ```swift
    /// logger.debug("\(profile.text(top: 5))")
    /// ```
    ///
    /// - Parameter top: How many instances each table lists.
    /// - Returns: The report, lines separated by newlines.
    public func text(top: Int) -> String {
        let threads = Set(instances.map(\.thread)).count
        var lines = [
            "Startup profile: \(instances.count) instance\(instances.count == 1 ? "" : "s") in "
                + "\(Self.milliseconds(durationNanoseconds)) on \(threads) thread\(threads == 1 ? "" : "s")"
        ]
        guard !instances.isEmpty else { return lines[0] + "\n" }
        let count = max(top, 0)
        let bySelf = instances.sorted { ($0.selfNanoseconds, $1.id) > ($1.selfNanoseconds, $0.id) }.prefix(count)
        let byTotal = instances.sorted { ($0.durationNanoseconds, $1.id) > ($1.durationNanoseconds, $0.id) }
            .prefix(count)
        for (title, rows) in [("Slowest by self time:", bySelf), ("Slowest by total time:", byTotal)] {
            lines += ["", title]
            let table =
                [["self", "total", "scope", "container", "thread", "registration (made for)"]]
                + rows.map(row)
            lines += Self.aligned(table)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One instance's cells.
    private func row(_ instance: Instance) -> [String] {
        var what = instance.registration.description
        if instance.isAsync { what += " [async]" }
        if instance.failed { what += " [failed]" }
        if let parent = instance.parent { what += " (made for \(instances[parent].registration))" }
        return [
            Self.milliseconds(instance.selfNanoseconds), Self.milliseconds(instance.durationNanoseconds),
            instance.scope, instance.container, threadName(instance), what,
        ]
    }

    /// `main`, or the thread's number.
    func threadName(_ instance: Instance) -> String {
        instance.isMainThread ? "main" : String(instance.thread)
    }

    /// The rows with each column padded to its widest cell (the first two right-aligned: numbers).
    private static func aligned(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { cells in
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == cells.count - 1 { return cell }
                return column < 2 ? padding + cell : cell + padding
            }
            return "  " + padded.joined(separator: "  ")
        }
    }

    /// `12.34ms`: nanoseconds as milliseconds with two decimals.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)ms"
    }
}
