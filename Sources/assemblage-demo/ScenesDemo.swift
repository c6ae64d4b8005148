import Assemblage
import AssemblageProperties
import AssemblageScenes
import Foundation

// Scenes navigated by name: a SceneAssembler registers the app's services and scenes, and a
// TransitionCoordinator drives a terminal host. Orders are protected: signing in is inserted first.

/// Navigates the demo's scenes: a scripted walk that prints each screen, or, when `interactive`, the
/// user's own navigation from standard input (numbers follow links, `b` goes back, `q` or end of input ends it).
///
/// - Returns: `true` when the user typed `q` (the demo then quits), `false` otherwise.
@MainActor @discardableResult
func runScenesDemo(interactive: Bool) -> Bool {
    print(
        "\n== Scenes"
            + (interactive
                ? " (type a number to follow a link, b to go back, q to quit)"
                : " (a scripted walk; --interactive to navigate them yourself)"))
    // The app's services read their settings from properties (which survive `.reset`'s removeAll).
    let container = Container(label: "scenes")
    try? container.applyPropertyLoader(JSONPropertyLoader(bundle: .module, name: "settings"))
    let assembler = SceneAssembler(
        startingScene: ScenesDemo.Home.moduleName,
        assemblies: [ServiceAssembly(), ScenesDemo.SceneAssembly()], container: container)
    let host = TerminalNavigationHost(showsKeyHints: interactive, indent: "  ")
    do {
        try assembler.configure(host: host)
    } catch {
        print("  unexpected failure:\n\(error)")
        exit(1)
    }
    if interactive {
        return host.run()
    }
    host.show()
    // Each step names the scene that must be on top afterwards: a navigation that fails silently would
    // otherwise print a story that did not happen, so the walk checks itself (CI runs the demo).
    let walk: [(keys: [String], note: String, expectedTop: String)] = [
        (["1"], "Orders need an account, so sign-in is presented first", "signIn"),
        (["1"], "signed in: the modal closes and Orders is pushed", "orders"),
        (["2"], "typed parameters: OrderDetail.Parameters(number: \"#702\")", "order"),
        (["b", "b", "b"], "back to Home, then once too often", "home"),
        (["5"], "sign out: .reset registers everything again and shows Home", "home"),
    ]
    for step in walk {
        print("  > \(step.keys.joined(separator: " "))   (\(step.note))")
        for (index, key) in step.keys.enumerated() {
            host.handle(key, showingScreen: index == step.keys.count - 1 && key != "b")
        }
        let top = assembler.coordinator.state.top?.sceneName ?? "nothing"
        guard top == step.expectedTop else {
            print("  ! the walk went wrong: expected \(step.expectedTop) on top, found \(top)")
            exit(1)
        }
    }
    print("  state: \(assembler.coordinator.state)")
    return false
}

enum ScenesDemo {
    /// Whether someone has signed in: a main-actor object, made by a (nonisolated) factory.
    @MainActor
    final class Session {
        var user: String?
        nonisolated init() {}
    }

    struct SceneAssembly: Assembly {
        func assemble(container: Container) {
            container.register(Session.self) { _ in Session() }.inObjectScope(.container)
            container.register(scene: Home())
            container.register(scene: SignIn())
            container.register(scene: Orders())
            container.register(scene: OrderDetail())
            container.register(scene: Settings())
            container.register(scene: Help())
        }
    }

    struct Home: SceneModule {
        static let moduleName = "home"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            let coordinator = try resolver.transitionCoordinator()
            let session = try resolver.require(Session.self)
            return TerminalScreen(
                title: "Home", lines: [session.user.map { "Signed in as \($0)." } ?? "Signed out."],
                links: [
                    .init("Orders") {
                        coordinator.performNavigation(
                            session.user == nil
                                ? .presentAndPush(sceneName: SignIn.moduleName, parameters: ["next": Orders.moduleName])
                                : .push(sceneName: Orders.moduleName))
                    },
                    .init("Settings", to: .present(sceneName: Settings.moduleName)),
                    .init("Help", to: .presentAndPush(sceneName: Help.moduleName)),
                    .init("Website", to: .openURL(URL(string: "https://example.com/assemblage")!)),
                    .init("Sign out", to: .reset),
                ])
        }
    }

    /// Signs in, then resumes the navigation it interrupted (its `next` parameter).
    struct SignIn: SceneModule {
        static let moduleName = "signIn"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            let next = try parameters.require("next", as: String.self)
            let coordinator = try resolver.transitionCoordinator()
            let session = try resolver.require(Session.self)
            return TerminalScreen(
                title: "Sign in", lines: ["Sign in to see your \(next)."],
                links: [
                    .init("Sign in as Ada") {
                        session.user = "Ada"
                        coordinator.performNavigation(.back)
                        coordinator.performNavigation(.push(sceneName: next))
                    }
                ])
        }
    }

    struct Orders: SceneModule {
        static let moduleName = "orders"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            let orders = try resolver.require(OrderService.self).orders(for: 7)
            let user = try resolver.require(Session.self).user ?? "nobody"
            return TerminalScreen(
                title: "Orders", lines: ["\(orders.count) orders for \(user)"],
                links: orders.map {
                    .init("Order \($0)", to: .push(OrderDetail.self, parameters: .init(number: $0)))
                })
        }
    }

    /// Built from typed parameters, not a dictionary.
    struct OrderDetail: SceneModule {
        struct Parameters: Sendable { let number: String }
        static let moduleName = "order"

        @MainActor
        func build(resolver: Resolver, parameters: Parameters) throws -> TerminalScreen {
            let clock = try resolver.require(Clock.self)
            return TerminalScreen(title: "Order \(parameters.number)", lines: ["Shipped \(clock.now())"])
        }
    }

    /// Presented on its own: nothing can be pushed onto it.
    struct Settings: SceneModule {
        static let moduleName = "settings"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            TerminalScreen(
                title: "Settings", lines: ["Presented without a navigation stack."],
                links: [
                    .init("Advanced (a push here fails)", to: .push(sceneName: Help.moduleName))
                ])
        }
    }

    /// Presented in a navigation stack of its own.
    struct Help: SceneModule {
        static let moduleName = "help"

        @MainActor
        func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
            TerminalScreen(
                title: "Help", lines: ["Numbers follow links; b goes back; q quits."],
                links: [
                    .init("More help", to: .push(sceneName: Help.moduleName)),
                    .init("Missing page", to: .push(sceneName: "faq")),
                ])
        }
    }
}
