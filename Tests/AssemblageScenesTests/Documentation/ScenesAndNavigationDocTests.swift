import Assemblage
import AssemblageScenes
import Foundation
import Testing

// The code of the "Scenes and Navigation" article (AssemblageScenes.docc/ScenesAndNavigation.md), compiled and
// run. Regions between `// snippet: NAME` and `// end-snippet` are copied verbatim into the article;
// `scripts/check-doc-snippets.sh` checks that they stay the same.

enum ScenesDoc {
    // snippet: scenes-service
    final class OrderService: Sendable {
        func orders() -> [Int] { [1001, 1002] }
    }
    // end-snippet

    // snippet: scenes-modules
    struct HomeScene: SceneModule {
        static let moduleName = "home"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            TerminalScreen(
                title: "Home",
                links: [
                    .init("Orders", to: .push(sceneName: OrdersScene.moduleName)),
                    .init("Help", to: .presentAndPush(sceneName: HelpScene.moduleName)),
                ])
        }
    }

    struct OrdersScene: SceneModule {
        static let moduleName = "orders"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            let orders = try resolver.require(OrderService.self).orders()
            return TerminalScreen(
                title: "Orders", lines: ["\(orders.count) orders"],
                links: orders.map { number in
                    .init("Order \(number)", to: .push(OrderScene.self, parameters: .init(number: number)))
                })
        }
    }

    /// Built from typed parameters.
    struct OrderScene: SceneModule {
        struct Parameters: Sendable { let number: Int }
        static let moduleName = "order"

        @MainActor
        func build(resolver: Resolver, parameters: Parameters) throws -> TerminalScreen {
            TerminalScreen(title: "Order \(parameters.number)")
        }
    }

    /// Reads keyed parameters.
    struct HelpScene: SceneModule {
        static let moduleName = "help"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            let topic = parameters.value("topic", as: String.self) ?? "contents"
            return TerminalScreen(title: "Help: \(topic)")
        }
    }
    // end-snippet

    // snippet: scenes-custom-host
    @MainActor
    final class LoggingHost: NavigationHost {
        func perform(
            _ transition: HostTransition<TerminalScreen>, animated: Bool,
            completion: @escaping @MainActor @Sendable () -> Void
        ) {
            print(transition.name, transition.view?.title ?? "")
            completion()  // after the animation, if there is one
        }

        func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
            completion(false)
        }
    }
    // end-snippet

    @MainActor
    static func makeAssembler() -> SceneAssembler {
        // snippet: scenes-assembler
        let assembler = SceneAssembler(startingScene: HomeScene.moduleName) { container in
            container.register(OrderService.self) { _ in OrderService() }.inObjectScope(.container)
            container.register(scene: HomeScene())
            container.register(scene: OrdersScene())
            container.register(scene: OrderScene())
            container.register(scene: HelpScene())
        }
        // end-snippet
        return assembler
    }

    @MainActor @Suite("Docs: Scenes and Navigation") struct Samples {
        @Test func navigate() throws {
            let assembler = makeAssembler()
            // snippet: scenes-configure
            let host = HeadlessNavigationHost<TerminalScreen>()  // or TerminalNavigationHost, UIKitNavigationHost
            try assembler.configure(host: host)  // shows "home" as the root
            // end-snippet

            // snippet: scenes-navigate
            let coordinator = assembler.coordinator
            coordinator.performNavigation(.push(sceneName: OrdersScene.moduleName))
            coordinator.performNavigation(.push(OrderScene.self, parameters: .init(number: 1001)))
            coordinator.performNavigation(.presentAndPush(sceneName: "help", parameters: ["topic": "returns"]))
            print(coordinator.state)  // home › orders › order | help
            coordinator.performNavigation(.back)  // dismisses the help modal (nothing left to pop in it)
            // end-snippet
            #expect(coordinator.state.sceneNames == [["home", "orders", "order"]])
            #expect(host.transitions.map(\.name) == ["setRoot", "push", "push", "presentInNavigationStack", "dismiss"])
            #expect(host.transitions[3].view?.title == "Help: returns")
        }

        @Test func failures() throws {
            let assembler = makeAssembler()
            let host = HeadlessNavigationHost<TerminalScreen>()
            try assembler.configure(host: host)
            let coordinator = assembler.coordinator
            var message = ""
            // snippet: scenes-failure
            coordinator.performNavigation(.push(sceneName: "ordres")) { result in
                if case .failure(let error) = result {
                    // No scene named "ordres" is registered …  Registered scenes: help, home, order, orders
                    print(error)
                }
            }
            // coordinator.state is unchanged, and the host was told nothing
            // end-snippet
            coordinator.performNavigation(.push(sceneName: "ordres")) { result in
                if case .failure(let error) = result { message = error.description }
            }
            #expect(message.hasPrefix("No scene named \"ordres\" is registered"))
            #expect(message.contains("Registered scenes: help, home, order, orders"))
            #expect(coordinator.state.sceneNames == [["home"]])
            #expect(host.transitions.map(\.name) == ["setRoot"])
        }

        @Test func asyncNavigation() async throws {
            let assembler = makeAssembler()
            try assembler.configure(host: HeadlessNavigationHost<TerminalScreen>())
            let coordinator = assembler.coordinator
            // snippet: scenes-async
            do {
                try await coordinator.navigate(.push(sceneName: OrdersScene.moduleName))
                try await coordinator.navigate(.back)
                try await coordinator.navigate(.back)  // throws: nothing to go back to
            } catch {
                print(error.code)  // nothingToGoBack
            }
            // end-snippet
            await #expect(throws: NavigationError.self) { try await coordinator.navigate(.back) }
            #expect(coordinator.state.sceneNames == [["home"]])
        }

        @Test func testingWithTheHeadlessHost() throws {
            // snippet: scenes-test
            let assembler = makeAssembler()
            let host = HeadlessNavigationHost<TerminalScreen>()
            try assembler.configure(host: host)

            assembler.coordinator.performNavigation(.push(sceneName: "orders"))
            #expect(host.transitions.map(\.name) == ["setRoot", "push"])
            #expect(host.topView?.lines == ["2 orders"])
            // end-snippet
        }

        @Test func customHost() throws {
            let assembler = makeAssembler()
            let host = LoggingHost()
            try assembler.configure(host: host)
            #expect(assembler.coordinator.state.sceneNames == [["home"]])
        }

        @Test func terminalHost() throws {
            let assembler = makeAssembler()
            var output: [String] = []
            // snippet: scenes-terminal
            let terminal = TerminalNavigationHost(write: { output.append($0) })
            try assembler.configure(host: terminal)
            terminal.handle("1")  // follows the first link: Orders
            // end-snippet
            #expect(terminal.topScreen?.title == "Orders")
            #expect(!output.isEmpty)
        }
    }
}
