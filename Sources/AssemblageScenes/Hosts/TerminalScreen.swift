/// A scene's view in a terminal: a title, lines of text and numbered links.
///
/// Scenes for ``TerminalNavigationHost`` build one of these; the host prints it and performs a link when
/// the user types its number:
///
/// ```swift
/// struct HomeScene: SceneModule {
///     static let moduleName = "home"
///
///     @MainActor
///     func build(resolver: Resolver, parameters: SceneParameters) throws -> TerminalScreen {
///         TerminalScreen(title: "Home", lines: ["Welcome."], links: [
///             .init("Orders", to: .push(sceneName: "orders")),
///             .init("Say hello") { print("hello") },
///         ])
///     }
/// }
/// ```
public struct TerminalScreen {
    /// One numbered choice on a screen: a navigation, or an action of the scene's own.
    public struct Link {
        enum Target {
            case navigation(NavigationType)
            case action(@MainActor () -> Void)
        }

        /// What the link is called on screen.
        public let title: String
        let target: Target

        /// A link that asks the host's coordinator for `navigation`.
        ///
        /// ```swift
        /// TerminalScreen.Link("Help", to: .presentAndPush(sceneName: "help"))
        /// ```
        ///
        /// - Parameters:
        ///   - title: What the link is called on screen.
        ///   - navigation: The navigation to perform.
        public init(_ title: String, to navigation: NavigationType) {
            self.title = title
            target = .navigation(navigation)
        }

        /// A link that runs `action` (which may navigate through a coordinator of its own).
        ///
        /// ```swift
        /// TerminalScreen.Link("Sign in") { session.signIn(); coordinator.performNavigation(.back) }
        /// ```
        ///
        /// - Parameters:
        ///   - title: What the link is called on screen.
        ///   - action: What to do, on the main actor.
        public init(_ title: String, action: @escaping @MainActor () -> Void) {
            self.title = title
            target = .action(action)
        }
    }

    /// The screen's title.
    public var title: String
    /// The screen's text, one entry a line.
    public var lines: [String]
    /// The links, numbered from 1 on screen.
    public var links: [Link]

    /// Creates a screen.
    ///
    /// ```swift
    /// let screen = TerminalScreen(title: "About", lines: ["Assemblage demo"])
    /// ```
    ///
    /// - Parameters:
    ///   - title: The screen's title.
    ///   - lines: The screen's text, one entry a line.
    ///   - links: The links, numbered from 1 on screen.
    public init(title: String, lines: [String] = [], links: [Link] = []) {
        self.title = title
        self.lines = lines
        self.links = links
    }
}
