import Assemblage
import Foundation

// A debug overlay: a mock container in front of `Container.main` for one section of the run, then back.
// `main` is filled lazily by a bootstrap hook (Resolver's registerAllServices); the screen model below gets
// its services through property wrappers, which resolve from `Container.root`.

private protocol BackendSession: Sendable { var name: String { get } }
private struct LiveBackendSession: BackendSession { let name = "live (https://api.example.com)" }
private struct MockBackendSession: BackendSession { let name = "mock (canned responses)" }

/// Registered in `main` only; its session comes from wherever the resolution started.
private final class BackendClient: Sendable {
    let session: BackendSession
    init(session: BackendSession) { self.session = session }
}

/// Registered only in the debug overlay.
private struct DebugBanner: Sendable { let text: String }

/// A `.container`-scoped cache, registered in both containers: each keeps its own instance.
private final class ImageCache: Sendable {}

private final class ScreenModel {
    @Injected var client: BackendClient
    @OptionalInjected var banner: DebugBanner?
    @LazyInjected var images: ImageCache

    func describe() -> String {
        "session: \(client.session.name); banner: \(banner?.text ?? "none")"
    }
}

/// Counts bootstrap runs (an `NSLock` box: the hook may run on any thread).
private final class RunCount: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

/// Shows a mock overlay in front of `Container.main`, switched on for one section with `withRoot` and for
/// another by assigning `Container.root`, printing what was resolved in each.
func runOverlayDemo() {
    print("\n== Debug overlay: a mock container in front of Container.main for one section, then back")
    let bootstrapRuns = RunCount()
    Container.bootstrap { main in
        bootstrapRuns.add()
        main.register(BackendSession.self) { _ in LiveBackendSession() }
        main.register(BackendClient.self) { r in BackendClient(session: try r.require(BackendSession.self)) }
        main.register(ImageCache.self) { _ in ImageCache() }.inObjectScope(.container)
    }

    func show(_ label: String) {
        let model = ScreenModel()
        print(
            "  \(label.padding(toLength: 34, withPad: " ", startingAt: 0)) root: \(Container.root.label); "
                + model.describe())
    }

    show("before (root is main):")
    print("  bootstrap ran \(bootstrapRuns.count) time(s), on the first resolve")

    let overlay = Container(parent: Container.main, label: "debug-overlay")  // searched first, then main
    overlay.register(BackendSession.self) { _ in MockBackendSession() }
    overlay.register(DebugBanner.self) { _ in DebugBanner(text: "DEBUG: mock backend") }
    overlay.register(ImageCache.self) { _ in ImageCache() }.inObjectScope(.container)

    Container.withRoot(overlay) {
        show("inside withRoot(overlay):")
        let cache = ScreenModel().images
        print("  the overlay's ImageCache is its own: \(cache !== Container.main.resolve(ImageCache.self))")
    }
    show("after withRoot:")

    Container.root = overlay
    show("after Container.root = overlay:")
    Container.root = Container.main
    show("after Container.root = main:")
    print("  bootstrap ran \(bootstrapRuns.count) time(s) in all")
}
