import Assemblage
import Foundation
import Testing

// The README's quick start, verbatim, so that it keeps compiling.
private protocol Clock: Sendable { func now() -> Date }
private struct SystemClock: Clock { func now() -> Date { Date() } }
private final class Greeter {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
}

@Suite struct ReadmeQuickStartTests {
    @Test func quickStartCompilesAndRuns() throws {
        let container = Container()
        container.register(Clock.self) { _ in SystemClock() }.inObjectScope(.container)
        container.register(Greeter.self) { r in Greeter(clock: try r.require(Clock.self)) }
        container.register(Greeter.self, name: "utc") { (r, zone: String) in Greeter(clock: r.resolve(Clock.self)!) }

        let greeter = container.resolve(Greeter.self)  // Greeter?  (Swinject-style)
        let checked = try container.require(Greeter.self)  // Greeter, or a ResolutionError
        let named = container.resolve(Greeter.self, name: "utc", argument: "UTC")
        #expect(greeter != nil && named != nil)
        #expect(checked.clock is SystemClock)
    }
}
