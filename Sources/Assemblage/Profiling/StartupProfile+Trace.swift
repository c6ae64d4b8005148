#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The Chrome trace-event JSON of a profile: one complete ("X") event per instance, which Perfetto, speedscope and
// chrome://tracing open.

extension StartupProfile {
    /// The profile in Chrome's trace-event format: a complete (`"ph": "X"`) event per instance, with `ts` and `dur`
    /// in microseconds, the process and thread ids, the registration as the name, and in `args` the scope,
    /// container, registration site, self time and the parent's id and registration; and a `thread_name`
    /// metadata event per thread.
    ///
    /// Open it in Perfetto (ui.perfetto.dev), speedscope or `chrome://tracing`:
    ///
    /// ```swift
    /// try profile.chromeTraceJSON.write(to: URL(filePath: "startup.trace.json"), atomically: true, encoding: .utf8)
    /// ```
    public var chromeTraceJSON: String {
        let pid = Int(getpid())
        var events: [String] = []
        var named = Set<Int>()
        for instance in instances where named.insert(instance.thread).inserted {
            events.append(
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":\(pid),\"tid\":\(instance.thread),"
                    + "\"args\":{\"name\":\(threadName(instance).jsonStringLiteral)}}")
        }
        for instance in instances {
            var args = [
                "\"id\":\(instance.id)",
                "\"registration\":\(instance.registration.description.jsonStringLiteral)",
                "\"scope\":\(instance.scope.jsonStringLiteral)",
                "\"container\":\(instance.container.jsonStringLiteral)",
                "\"site\":\(instance.site.description.jsonStringLiteral)",
                "\"self_us\":\(Self.microseconds(instance.selfNanoseconds))",
            ]
            if let parent = instance.parent {
                args.append("\"parent\":\(parent)")
                args.append("\"parentRegistration\":\(instances[parent].registration.description.jsonStringLiteral)")
            }
            if instance.isAsync { args.append("\"async\":true") }
            if instance.failed { args.append("\"failed\":true") }
            events.append(
                "{\"name\":\(instance.registration.description.jsonStringLiteral),"
                    + "\"cat\":\(instance.scope.jsonStringLiteral),\"ph\":\"X\","
                    + "\"ts\":\(Self.microseconds(instance.startNanoseconds)),"
                    + "\"dur\":\(Self.microseconds(instance.durationNanoseconds)),"
                    + "\"pid\":\(pid),\"tid\":\(instance.thread),\"args\":{\(args.joined(separator: ","))}}")
        }
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    /// `12.345`: nanoseconds as microseconds with three decimals (a JSON number).
    static func microseconds(_ nanoseconds: UInt64) -> String {
        let fraction = nanoseconds % 1_000
        let digits = String(fraction)
        return "\(nanoseconds / 1_000).\(String(repeating: "0", count: 3 - digits.count))\(digits)"
    }
}
