import Assemblage

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A host that shows scenes as text in a terminal and navigates with typed keys.
///
/// Scenes build ``TerminalScreen`` values. The host prints the screen on top; the user types a link's
/// number, `b` to go back or `q` to quit:
///
/// ```swift
/// let host = TerminalNavigationHost()
/// try assembler.configure(host: host)
/// host.run()        // reads lines from standard input until `q` or end of input
/// ```
///
/// ```text
/// ┌ Home › Orders
/// │ 2 orders
/// └ [1] Order 1001  [2] Order 1002  ·  b back  q quit
/// ```
///
/// Transitions finish at once; a failed navigation is printed (`! Nothing to go back to: …`) and the screen
/// stays.
@MainActor
public final class TerminalNavigationHost: NavigationHost {
    /// The root stack first, then each modal; each holds the screens of that layer, bottom first.
    public private(set) var layers: [[TerminalScreen]] = []
    /// Whether screens end with the key hints `b back  q quit` (for interactive use).
    public var showsKeyHints: Bool
    private let indent: String
    private let write: (String) -> Void
    private weak var coordinator: TransitionCoordinator?

    /// Creates a host that writes its output through `write`.
    ///
    /// ```swift
    /// let host = TerminalNavigationHost(indent: "  ")   // prints, indented
    /// var output: [String] = []
    /// let recording = TerminalNavigationHost(write: { output.append($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - showsKeyHints: Whether screens end with the key hints.
    ///   - indent: Put before every line written.
    ///   - write: Writes one line (without its newline); `print` by default.
    public init(showsKeyHints: Bool = true, indent: String = "", write: @escaping (String) -> Void = { print($0) }) {
        self.showsKeyHints = showsKeyHints
        self.indent = indent
        self.write = write
    }

    /// The screen on top of everything.
    public var topScreen: TerminalScreen? { layers.last?.last }

    /// Applies the transition to ``layers`` and finishes at once.
    ///
    /// ```swift
    /// host.perform(.push(TerminalScreen(title: "Orders")), animated: false) {}
    /// ```
    ///
    /// - Parameters:
    ///   - transition: The transition.
    ///   - animated: Ignored.
    ///   - completion: Called at once.
    public func perform(
        _ transition: HostTransition<TerminalScreen>, animated: Bool,
        completion: @escaping @MainActor @Sendable () -> Void
    ) {
        transition.apply(to: &layers, views: \.self) { screen, _ in [screen] }
        completion()
    }

    /// Writes that the URL would be opened, and reports success.
    ///
    /// ```swift
    /// host.open(URL(string: "https://example.com")!) { _ in }   // ↗ https://example.com
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - completion: Called at once with `true`.
    public func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
        emit("↗ \(url.absoluteString)")
        completion(true)
    }

    /// Keeps the coordinator (weakly), to perform the links and `b`.
    ///
    /// ```swift
    /// host.attach(to: coordinator)
    /// ```
    ///
    /// - Parameter coordinator: The coordinator that drives this host.
    public func attach(to coordinator: TransitionCoordinator) {
        self.coordinator = coordinator
    }

    /// The screen on top, as text: a breadcrumb title, its lines and its numbered links.
    ///
    /// ```swift
    /// print(host.renderedTopScreen())
    /// ```
    ///
    /// - Returns: The lines of the screen, or a single line saying nothing is shown.
    public func renderedTopScreen() -> [String] {
        guard let layer = layers.last, let screen = layer.last else { return ["(nothing on screen)"] }
        var title = layer.map(\.title).joined(separator: " › ")
        if layers.count > 1 { title += "  (modal)" }
        var footer = screen.links.enumerated().map { "[\($0.offset + 1)] \($0.element.title)" }
        if showsKeyHints { footer.append(footer.isEmpty ? "b back  q quit" : "·  b back  q quit") }
        return ["┌ " + title] + screen.lines.map { "│ " + $0 } + [
            footer.isEmpty ? "└" : "└ " + footer.joined(separator: "  ")
        ]
    }

    /// Writes the screen on top.
    ///
    /// ```swift
    /// host.show()
    /// ```
    public func show() {
        for line in renderedTopScreen() { emit(line) }
    }

    /// Handles one line of input: a link's number, `b` (back) or `q` (quit); then shows the screen on top.
    ///
    /// ```swift
    /// host.handle("1")                          // follows the first link
    /// host.handle("b", showingScreen: false)    // goes back quietly (errors are still written)
    /// ```
    ///
    /// - Parameters:
    ///   - input: The line, without its newline; surrounding spaces are ignored.
    ///   - showingScreen: Whether to write the screen on top afterwards.
    /// - Returns: `false` when the input asks to quit, `true` otherwise.
    @discardableResult
    public func handle(_ input: String, showingScreen: Bool = true) -> Bool {
        let key = String(input.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            .lowercased()
        switch key {
        case "q", "quit":
            return false
        case "":
            break
        case "b", "back":
            navigate(.back)
        default:
            if let number = Int(key), let links = topScreen?.links, links.indices.contains(number - 1) {
                switch links[number - 1].target {
                case .navigation(let navigation): navigate(navigation)
                case .action(let action): action()
                }
            } else {
                emit("! No link \"\(key)\": type a link's number, b (back) or q (quit).")
            }
        }
        if showingScreen { show() }
        return true
    }

    /// Shows the screen on top, then handles lines from `readLine` until `q` or the end of input.
    ///
    /// ```swift
    /// host.run()                                    // standard input
    /// var script = ["1", "b"].makeIterator()
    /// host.run(readLine: { script.next() })         // a scripted session
    /// ```
    ///
    /// - Parameter readLine: Returns the next line, or `nil` at the end of input.
    /// - Returns: `true` when the session ended with `q` (the user quit), `false` at the end of input.
    @discardableResult
    public func run(readLine: () -> String? = { Swift.readLine() }) -> Bool {
        show()
        while let line = readLine() {
            if !handle(line) { return true }
        }
        return false
    }

    private func navigate(_ navigation: NavigationType) {
        guard let coordinator else {
            emit("! No coordinator drives this host: configure it with SceneAssembler.configure(host:).")
            return
        }
        coordinator.performNavigation(navigation, animated: false) { [weak self] result in
            if case .failure(let error) = result {
                self?.emit("! " + (error.description.split(separator: "\n").first.map(String.init) ?? "failed"))
            }
        }
    }

    private func emit(_ line: String) { write(indent + line) }
}
