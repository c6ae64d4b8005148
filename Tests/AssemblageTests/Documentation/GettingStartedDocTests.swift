import Assemblage
import Testing

// The code of the "Getting Started" article (Assemblage.docc/GettingStarted.md), compiled and run.
// Regions between `// snippet: NAME` and `// end-snippet` are copied verbatim into the article;
// `scripts/check-doc-snippets.sh` checks that they stay the same.

enum GettingStartedDoc {
    // snippet: getting-started-services
    protocol Greeting: Sendable {
        func text(for name: String) -> String
    }

    struct EnglishGreeting: Greeting {
        func text(for name: String) -> String { "Hello, \(name)!" }
    }

    final class Greeter {
        let greeting: Greeting
        init(greeting: Greeting) { self.greeting = greeting }

        func greet(_ name: String) -> String { greeting.text(for: name) }
    }
    // end-snippet

    // snippet: getting-started-assembly
    struct GreetingAssembly: Assembly {
        func assemble(container: Container) {
            container.register(Greeting.self) { _ in EnglishGreeting() }
                .inObjectScope(.container)
            container.register(Greeter.self) { r in
                Greeter(greeting: try r.require(Greeting.self))
            }
        }
    }
    // end-snippet

    @Suite("Docs: Getting Started") struct Samples {
        @Test func registerAndResolve() throws {
            // snippet: getting-started-register
            let container = Container()
            container.register(Greeting.self) { _ in EnglishGreeting() }
                .inObjectScope(.container)
            container.register(Greeter.self) { r in
                Greeter(greeting: try r.require(Greeting.self))
            }
            // end-snippet

            // snippet: getting-started-resolve
            let greeter = container.resolve(Greeter.self)  // Greeter? — nil when it cannot be made
            print(greeter?.greet("Ada") ?? "no greeter")  // Hello, Ada!

            let checked = try container.require(Greeter.self)  // Greeter, or a ResolutionError
            print(checked.greet("Grace"))  // Hello, Grace!
            // end-snippet
            #expect(greeter?.greet("Ada") == "Hello, Ada!")
            #expect(checked.greet("Grace") == "Hello, Grace!")
            #expect(checked.greeting as? EnglishGreeting != nil)
        }

        @Test func missingRegistrationIsExplained() throws {
            var message = ""
            // snippet: getting-started-missing
            let incomplete = Container()
            incomplete.register(Greeter.self) { r in
                Greeter(greeting: try r.require(Greeting.self))
            }

            do {
                _ = try incomplete.require(Greeter.self)
            } catch {
                print(error)
            }
            // end-snippet
            do {
                _ = try incomplete.require(Greeter.self)
            } catch {
                message = error.description
            }
            #expect(
                message == """
                    No registration for Greeting.
                      Resolution path: Greeter → Greeting
                      Nothing is registered for Greeting under any name or argument list.
                    """)
        }

        @Test func assembler() throws {
            // snippet: getting-started-assembler
            let assembler = Assembler([GreetingAssembly()])
            let greeter = try assembler.resolver.require(Greeter.self)
            print(greeter.greet("Linus"))  // Hello, Linus!
            // end-snippet
            #expect(greeter.greet("Linus") == "Hello, Linus!")
        }
    }
}
