import Assemblage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One step the coordinator asks of its host, before the scene is built.
enum _HostStep {
    case setRoot(NavigationState.Entry)
    case push(NavigationState.Entry)
    case present(NavigationState.Entry, inNavigationStack: Bool)
    case pop
    case dismiss
}

/// A transition ready to run: the scene is built, and calling it tells the host.
typealias _PreparedTransition =
    @MainActor (
        _ animated: Bool,
        _ completion: @escaping @MainActor @Sendable () -> Void
    ) -> Void

/// A host, with its view type erased so that the coordinator itself need not be generic.
@MainActor
protocol _HostBinding: AnyObject {
    var host: any NavigationHost { get }
    /// Builds the step's scene (if it has one) and returns the transition that shows it.
    func prepare(_ step: _HostStep, resolver: any Resolver) throws(NavigationError) -> _PreparedTransition
    func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void)
}

/// The binding for a host of a known type: builds `AnySceneModule<Host.View>` scenes and hands the views over.
@MainActor
final class _TypedHostBinding<Host: NavigationHost>: _HostBinding {
    let typedHost: Host

    init(_ host: Host) { typedHost = host }

    var host: any NavigationHost { typedHost }

    func prepare(_ step: _HostStep, resolver: any Resolver) throws(NavigationError) -> _PreparedTransition {
        let transition: HostTransition<Host.View>
        switch step {
        case .setRoot(let entry): transition = .setRoot(try build(entry, resolver: resolver))
        case .push(let entry): transition = .push(try build(entry, resolver: resolver))
        case .present(let entry, let inNavigationStack):
            transition = .present(try build(entry, resolver: resolver), inNavigationStack: inNavigationStack)
        case .pop: transition = .pop
        case .dismiss: transition = .dismiss
        }
        let host = typedHost
        return { animated, completion in host.perform(transition, animated: animated, completion: completion) }
    }

    func open(_ url: URL, completion: @escaping @MainActor @Sendable (Bool) -> Void) {
        typedHost.open(url, completion: completion)
    }

    /// Resolves the scene module registered under the entry's name for this host's views, and builds it.
    private func build(_ entry: NavigationState.Entry, resolver: any Resolver) throws(NavigationError) -> Host.View {
        let module: AnySceneModule<Host.View>
        do {
            module = try resolver.require(AnySceneModule<Host.View>.self, name: entry.sceneName)
        } catch {
            guard error.code == .notRegistered, error.path.count <= 1 else {
                // The scene's own registration exists but its factory failed.
                throw NavigationError(code: .sceneBuildFailed, sceneName: entry.sceneName, underlying: error)
            }
            throw NavigationError(
                code: .unknownScene, sceneName: entry.sceneName,
                registeredScenes: error.nearMisses.compactMap(\.name).sorted(),
                detail: "for \(Host.View.self) views", underlying: error)
        }
        do {
            return try module.build(resolver: resolver, parameters: entry.parameters)
        } catch let error as NavigationError where error.code == .invalidParameters {
            var error = error
            error.sceneName = entry.sceneName
            throw error
        } catch {
            throw NavigationError(code: .sceneBuildFailed, sceneName: entry.sceneName, underlying: error)
        }
    }
}
