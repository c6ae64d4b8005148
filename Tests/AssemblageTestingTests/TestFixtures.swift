import Assemblage
import Foundation

/// The "app" container the tests layer over.
enum App {
    static let container: Container = {
        let container = Container(label: "app")
        container.register(Greeting.self) { _ in Greeting(text: "Hello from the app") }
        container.register(Greeter.self) { r in Greeter(greeting: try r.require(Greeting.self)) }
        return container
    }()
}

struct Greeting { let text: String }
struct Greeter { let greeting: Greeting }

struct SetupFailed: Error {}
