import Assemblage
import AssemblageScenes
import Foundation
import Testing

/// A small terminal app: home links to a pushed list, a plain modal, a URL and an action.
@MainActor
final class TerminalApp {
    var output: [String] = []
    var actions = 0
    let assembler: SceneAssembler
    var host: TerminalNavigationHost!

    init() throws {
        assembler = SceneAssembler(startingScene: "home") { container in
            container.register(AnySceneModule<TerminalScreen>.self, name: "home") { _ in
                AnySceneModule(moduleName: "home") { _, _ in
                    TerminalScreen(
                        title: "Home", lines: ["Welcome."],
                        links: [
                            .init("Orders", to: .push(sceneName: "orders")),
                            .init("Settings", to: .present(sceneName: "settings")),
                            .init("Website", to: .openURL(URL(string: "https://example.com")!)),
                        ])
                }
            }
            container.register(AnySceneModule<TerminalScreen>.self, name: "orders") { _ in
                AnySceneModule(moduleName: "orders") { _, _ in TerminalScreen(title: "Orders", lines: ["2 orders"]) }
            }
            container.register(AnySceneModule<TerminalScreen>.self, name: "settings") { _ in
                AnySceneModule(moduleName: "settings") { _, _ in TerminalScreen(title: "Settings") }
            }
        }
        host = TerminalNavigationHost(showsKeyHints: false, write: { [unowned self] in output.append($0) })
        try assembler.configure(host: host)
    }
}

@MainActor @Suite struct TerminalHostTests {
    @Test func rendersBreadcrumbLinesAndNumberedLinks() throws {
        let app = try TerminalApp()
        #expect(
            app.host.renderedTopScreen() == [
                "┌ Home", "│ Welcome.", "└ [1] Orders  [2] Settings  [3] Website",
            ])
        app.host.showsKeyHints = true
        #expect(app.host.renderedTopScreen().last == "└ [1] Orders  [2] Settings  [3] Website  ·  b back  q quit")
    }

    @Test func numberFollowsLinkAndShowsTheNewScreen() throws {
        let app = try TerminalApp()
        #expect(app.host.handle("1"))
        #expect(app.assembler.coordinator.state.sceneNames == [["home", "orders"]])
        #expect(app.output == ["┌ Home › Orders", "│ 2 orders", "└"])
    }

    @Test func modalIsMarkedAndBackDismissesIt() throws {
        let app = try TerminalApp()
        app.host.handle(" 2 ")
        #expect(app.output.first == "┌ Settings  (modal)")
        app.host.handle("b")
        #expect(app.assembler.coordinator.state.sceneNames == [["home"]])
        #expect(app.host.topScreen?.title == "Home")
    }

    @Test func failedNavigationIsPrintedAndScreenStays() throws {
        let app = try TerminalApp()
        app.host.handle("b")
        #expect(app.output.first == "! Nothing to go back to: \"home\" is the only scene on screen.")
        #expect(app.output.dropFirst().first == "┌ Home")
    }

    @Test func inputCanBeHandledWithoutShowingTheScreen() throws {
        let app = try TerminalApp()
        app.host.handle("1", showingScreen: false)
        app.host.handle("b", showingScreen: false)
        app.host.handle("b", showingScreen: false)
        #expect(app.output == ["! Nothing to go back to: \"home\" is the only scene on screen."])
    }

    @Test func unknownKeyIsExplained() throws {
        let app = try TerminalApp()
        app.host.handle("9")
        #expect(app.output.first == "! No link \"9\": type a link's number, b (back) or q (quit).")
        #expect(app.assembler.coordinator.state.sceneNames == [["home"]])
    }

    @Test func urlLinkIsHandedToTheHost() throws {
        let app = try TerminalApp()
        app.host.handle("3")
        #expect(app.output.first == "↗ https://example.com")
    }

    @Test func actionLinkRunsItsAction() {
        var ran = false
        let host = TerminalNavigationHost(write: { _ in })
        host.perform(.setRoot(TerminalScreen(title: "Home", links: [.init("Ping") { ran = true }])), animated: false) {}
        host.handle("1")
        #expect(ran)
    }

    @Test func runStopsAtQuit() throws {
        let app = try TerminalApp()
        var script = ["1", "q", "1"].makeIterator()
        let quit = app.host.run(readLine: { script.next() })
        #expect(quit)
        #expect(script.next() == "1")  // the line after `q` was not read
        #expect(app.assembler.coordinator.state.sceneNames == [["home", "orders"]])
    }

    @Test func runStopsAtEndOfInput() throws {
        let app = try TerminalApp()
        var script = ["2", "b", "1"].makeIterator()
        let quit = app.host.run(readLine: { script.next() })
        #expect(!quit)
        #expect(app.assembler.coordinator.state.sceneNames == [["home", "orders"]])
        #expect(app.output.suffix(3) == ["┌ Home › Orders", "│ 2 orders", "└"])
    }

    @Test func hostWithoutCoordinatorSaysSo() {
        var output: [String] = []
        let host = TerminalNavigationHost(write: { output.append($0) })
        host.perform(.setRoot(TerminalScreen(title: "Home")), animated: false) {}
        host.handle("b")
        #expect(output.first?.hasPrefix("! No coordinator drives this host") == true)
    }
}
