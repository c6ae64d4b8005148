public import Assemblage
import FoundationEssentials

/// Navigates between scenes by name: resolves and builds the scene, keeps the ``NavigationState`` and
/// tells its ``NavigationHost`` what to show.
///
/// Scenes resolve the coordinator from the container, where a ``SceneAssembler`` registers it under
/// ``moduleName``, and ask it for navigations:
///
/// ```swift
/// struct HomeScene: SceneModule {
///     static let moduleName = "home"
///
///     @MainActor
///     func build(resolver: Resolver, parameters: SceneParameters) throws -> UIViewController {
///         let coordinator = try resolver.transitionCoordinator()
///         return HomeViewController(onShowOrders: {
///             coordinator.performNavigation(.push(sceneName: OrdersScene.moduleName))
///         })
///     }
/// }
/// ```
///
/// ## State and hosts
/// The coordinator decides every navigation against its own ``state`` and the host only carries it out,
/// so the whole navigation logic runs, and is tested, without a UI: ``HeadlessNavigationHost`` records
/// what it was told. A navigation that cannot happen (an unknown scene, a scene whose `build` throws,
/// `.back` with nothing to go back to, `.push` without a navigation stack) fails with a
/// ``NavigationError`` naming the scene; the state stays as it was and the host is told nothing.
///
/// ## One navigation at a time
/// Navigations run in the order they are asked for. One asked for while the host is still animating the
/// previous one waits for it, so `.back` followed at once by `.push(…)` works on every host. Each
/// completion runs when its navigation has finished (or failed), on the main actor.
///
/// A navigation asked for *while another is under way* is queued, never run inside it: from a scene's
/// `build` (the scene that is being built is not on screen yet), from the host while it performs a
/// transition, or from a completion. It runs after the current navigation has finished, in the order asked
/// for, against the state that navigation left, so the coordinator's ``state`` and what the host shows
/// always agree. (``start(host:sceneName:parameters:animated:)`` asked for during a navigation is refused
/// with ``NavigationError/Code/transitionInProgress`` instead, because it would replace the host.) Queued
/// navigations are run by a loop, not by nested calls, so a host that finishes transitions at once can
/// work through any number of them.
///
/// ## Completion or `async throws`
/// ``performNavigation(_:animated:completion:)`` reports through a completion, as the original design does;
/// ``navigate(_:animated:)`` is the same navigation as `async throws(NavigationError)`, returning once the
/// host has finished:
///
/// ```swift
/// do {
///     try await coordinator.navigate(.push(sceneName: "orders"))
/// } catch {
///     print(error.description)
/// }
/// ```
@MainActor
public final class TransitionCoordinator {
    /// The name the coordinator is registered under (as `TransitionCoordinator`).
    public nonisolated static let moduleName = "TransitionCoordinator"

    /// What scenes are resolved from and built with.
    public let resolver: any Resolver
    /// What is on screen. Changes when a navigation succeeds (before the host animates it), and when the
    /// host reports a change it made on its own.
    public private(set) var state = NavigationState()
    /// The scene ``start(host:sceneName:parameters:animated:)`` made the root; `.reset` returns to it.
    public private(set) var startingSceneName: String?
    /// The parameters the starting scene was built with.
    public private(set) var startingParameters: SceneParameters = [:]

    /// Runs before `.reset` builds the starting scene again (a ``SceneAssembler`` re-registers here).
    var beforeReset: (@MainActor () -> Void)?

    private var binding: (any _HostBinding)?
    /// Navigations waiting to run: `pending[pendingStart...]` (a queue without O(n) removals at the front).
    private var pending: [Request] = []
    private var pendingStart = 0
    /// Whether ``runPending()`` is on the stack: a navigation asked for meanwhile is left for its loop.
    private var isDraining = false
    /// Whether a scene is being built for a navigation or a start that has not been applied yet.
    private var isBuilding = false
    private var running: (serial: Int, completion: Completion?)?
    private var nextSerial = 1
    private var nextEntryID = 1

    /// What a navigation's completion receives.
    public typealias Completion = (Result<Void, NavigationError>) -> Void

    private struct Request {
        let navigation: NavigationType
        let animated: Bool
        let completion: Completion?
    }

    /// Creates a coordinator that builds scenes with `resolver`; call
    /// ``start(host:sceneName:parameters:animated:)`` to show the first scene.
    ///
    /// A ``SceneAssembler`` creates and registers its coordinator for you. To use one without it, register
    /// it yourself, so that scenes can resolve it:
    ///
    /// ```swift
    /// let coordinator = TransitionCoordinator(resolver: container)
    /// container.register(TransitionCoordinator.self, name: TransitionCoordinator.moduleName) { _ in coordinator }
    /// try coordinator.start(host: host, sceneName: "home")
    /// ```
    ///
    /// - Parameter resolver: Resolves the scene modules and what they need.
    public init(resolver: any Resolver) {
        self.resolver = resolver
    }

    /// The host the coordinator drives, once started.
    public var host: (any NavigationHost)? { binding?.host }

    /// Whether a navigation is running, being prepared (its scene is being built) or waiting.
    public var isNavigating: Bool { running != nil || hasPending || isBuilding }

    private var hasPending: Bool { pendingStart < pending.count }

    // MARK: Starting

    /// Builds the starting scene and makes it the root on `host`; the coordinator drives `host` from now on.
    ///
    /// Resolves the scene module named `sceneName` for `Host.View` views, builds it, and tells the host to
    /// show it as the root (``HostTransition/setRoot(_:)``). Calling it again (with the same or another host)
    /// starts over. `.reset` returns to this scene.
    ///
    /// ```swift
    /// let host = HeadlessNavigationHost<TestView>()
    /// try coordinator.start(host: host, sceneName: "home")
    /// ```
    ///
    /// - Parameters:
    ///   - host: The host to show scenes on.
    ///   - sceneName: The starting scene's name.
    ///   - parameters: What the starting scene is built with.
    ///   - animated: Whether the host animates showing it.
    /// - Throws: ``NavigationError`` when the scene is unknown or cannot be built, or
    ///   ``NavigationError/Code/transitionInProgress`` while a navigation is running, waiting or being
    ///   built (also when a scene's `build` calls it). The coordinator then
    ///   keeps its previous host, state and starting scene.
    public func start<Host: NavigationHost>(
        host: Host, sceneName: String, parameters: SceneParameters = [:],
        animated: Bool = false
    ) throws(NavigationError) {
        try start(
            binding: _TypedHostBinding(host), sceneName: sceneName, parameters: parameters,
            animated: animated, beforeBuilding: nil)
    }

    /// Starts again from the starting scene on the current host (what ``SceneAssembler/reconfigure(animated:)`` does).
    func restart(animated: Bool, beforeBuilding: (@MainActor () -> Void)?) throws(NavigationError) {
        guard let binding, let startingSceneName else {
            throw NavigationError(code: .notStarted, navigation: .reset)
        }
        try start(
            binding: binding, sceneName: startingSceneName, parameters: startingParameters,
            animated: animated, beforeBuilding: beforeBuilding)
    }

    private func start(
        binding: any _HostBinding, sceneName: String, parameters: SceneParameters, animated: Bool,
        beforeBuilding: (@MainActor () -> Void)?
    ) throws(NavigationError) {
        let navigation = NavigationType.setRoot(sceneName: sceneName, parameters: parameters)
        guard !isNavigating else {
            throw NavigationError(code: .transitionInProgress, navigation: navigation, sceneName: sceneName)
        }
        // Navigations the starting scene asks for while it is built are queued and run once it is shown.
        defer { runPending() }
        beforeBuilding?()
        let entry = makeEntry(sceneName, parameters)
        let transition: _PreparedTransition
        isBuilding = true
        do {
            transition = try binding.prepare(.setRoot(entry), resolver: resolver)
            isBuilding = false
        } catch {
            isBuilding = false
            var error = error
            error.navigation = navigation
            throw error
        }
        let isNewHost = self.binding.map { $0.host !== binding.host } ?? true
        self.binding = binding
        startingSceneName = sceneName
        startingParameters = parameters
        state = NavigationState(layers: [.init(entries: [entry], isNavigationStack: true)])
        if isNewHost { binding.host.attach(to: self) }
        let serial = begin(nil)
        transition(animated) { [weak self] in self?.finish(serial, .success(())) }
    }

    // MARK: Navigating

    /// Performs a navigation, then calls `completion` with its result.
    ///
    /// ```swift
    /// coordinator.performNavigation(.presentAndPush(sceneName: "signIn", parameters: ["next": "orders"]),
    ///                               animated: true) { result in
    ///     if case .failure(let error) = result { print(error) }
    /// }
    /// ```
    ///
    /// Navigations run one at a time, in order (see the type's overview). A navigation that fails leaves the
    /// state unchanged and tells the host nothing; when the coordinator is idle, its completion runs before
    /// this method returns. Asked for during another navigation (from a scene's `build`, from the host while
    /// it performs a transition, or from a completion), it is queued and runs after that navigation.
    ///
    /// - Parameters:
    ///   - navigation: What to do.
    ///   - animated: Whether the host animates it.
    ///   - completion: Called on the main actor once the host has finished, or with the ``NavigationError``
    ///     that stopped the navigation.
    public func performNavigation(
        _ navigation: NavigationType, animated: Bool = true,
        completion: Completion? = nil
    ) {
        pending.append(Request(navigation: navigation, animated: animated, completion: completion))
        runPending()
    }

    /// Performs a navigation and returns once the host has finished it.
    ///
    /// ```swift
    /// try await coordinator.navigate(.back)
    /// try await coordinator.navigate(.push(sceneName: "orders"), animated: false)
    /// ```
    ///
    /// - Parameters:
    ///   - navigation: What to do.
    ///   - animated: Whether the host animates it.
    /// - Throws: ``NavigationError`` when the navigation cannot happen; the state is then unchanged.
    public func navigate(_ navigation: NavigationType, animated: Bool = true) async throws(NavigationError) {
        let result = await withCheckedContinuation { continuation in
            performNavigation(navigation, animated: animated) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// Runs waiting navigations until one is under way (its host has not finished) or none is left.
    ///
    /// A loop, never a recursion: when a host finishes a transition at once, `finish` comes back here while
    /// this loop is on the stack, returns, and the loop takes the next navigation. A navigation asked for
    /// from a scene's `build` or from a completion is appended and taken by the same loop.
    private func runPending() {
        guard !isDraining, !isBuilding else { return }
        isDraining = true
        defer { isDraining = false }
        while running == nil, let request = takePending() {
            isBuilding = true
            let planned = Result { () throws(NavigationError) in try plan(request.navigation) }
            isBuilding = false
            switch planned {
            case .success(let (apply, transition)):
                apply(&state)
                let serial = begin(request.completion)
                transition(request.animated) { [weak self] result in self?.finish(serial, result) }
            case .failure(var error):
                error.navigation = request.navigation
                request.completion?(.failure(error))
            }
        }
    }

    /// The oldest waiting navigation, removed from the queue.
    private func takePending() -> Request? {
        guard hasPending else { return nil }
        let request = pending[pendingStart]
        pendingStart += 1
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        } else if pendingStart >= 1_024, pendingStart * 2 >= pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        return request
    }

    private func begin(_ completion: Completion?) -> Int {
        let serial = nextSerial
        nextSerial += 1
        running = (serial, completion)
        return serial
    }

    /// Ends the running navigation (a second call for the same one, from a faulty host, is ignored).
    private func finish(_ serial: Int, _ result: Result<Void, NavigationError>) {
        guard let current = running, current.serial == serial else { return }
        running = nil
        current.completion?(result)
        runPending()
    }

    // MARK: Changes the host made on its own

    /// Records that the host popped `count` scenes off the top navigation stack by itself (a Back button,
    /// an edge swipe), without telling the host anything.
    ///
    /// ```swift
    /// // In a UINavigationControllerDelegate, after the user tapped Back:
    /// coordinator.hostDidPop()
    /// ```
    ///
    /// A report that does not fit the state (more scenes than the stack holds above its first) is ignored
    /// beyond what fits.
    ///
    /// - Parameter count: How many scenes were popped.
    public func hostDidPop(count: Int = 1) {
        guard count > 0, let top = state.layers.indices.last else { return }
        let removable = min(count, state.layers[top].entries.count - 1)
        state.layers[top].entries.removeLast(removable)
    }

    /// Records that the host dismissed the top modal by itself (a swipe down on a sheet), without telling
    /// the host anything.
    ///
    /// ```swift
    /// // In presentationControllerDidDismiss(_:):
    /// coordinator.hostDidDismiss()
    /// ```
    ///
    /// Ignored when no modal is on screen.
    public func hostDidDismiss() {
        guard state.layers.count > 1 else { return }
        state.layers.removeLast()
    }
}

// MARK: - Planning

extension TransitionCoordinator {
    /// A transition ready to run, reporting its result.
    typealias _Planned =
        @MainActor (
            _ animated: Bool,
            _ completion: @escaping @MainActor @Sendable (Result<Void, NavigationError>) -> Void
        ) -> Void

    /// Checks `navigation` against the state and builds its scene; returns the change to the state and the
    /// transition that shows it. Throws, changing nothing, when it cannot happen.
    ///
    /// The change is applied to ``state`` in place (a push costs O(1), not a copy of the stack).
    private func plan(_ navigation: NavigationType) throws(NavigationError)
        -> (apply: (inout NavigationState) -> Void, transition: _Planned)
    {
        guard let binding, let top = state.layers.last, let topEntry = top.entries.last else {
            throw NavigationError(code: .notStarted, sceneName: navigation.sceneName)
        }
        let apply: (inout NavigationState) -> Void
        let step: _HostStep
        switch navigation {
        case .setRoot(let name, let parameters):
            let entry = makeEntry(name, parameters)
            apply = { $0.layers = [.init(entries: [entry], isNavigationStack: true)] }
            step = .setRoot(entry)
        case .push(let name, let parameters):
            guard top.isNavigationStack else {
                throw NavigationError(code: .noNavigationStack, sceneName: name, detail: topEntry.sceneName)
            }
            let entry = makeEntry(name, parameters)
            apply = { $0.layers[$0.layers.count - 1].entries.append(entry) }
            step = .push(entry)
        case .present(let name, let parameters), .presentAndPush(let name, let parameters):
            let inNavigationStack = if case .presentAndPush = navigation { true } else { false }
            let entry = makeEntry(name, parameters)
            apply = { $0.layers.append(.init(entries: [entry], isNavigationStack: inNavigationStack)) }
            step = .present(entry, inNavigationStack: inNavigationStack)
        case .back:
            if top.entries.count > 1 {
                apply = { $0.layers[$0.layers.count - 1].entries.removeLast() }
                step = .pop
            } else if state.layers.count > 1 {
                apply = { $0.layers.removeLast() }
                step = .dismiss
            } else {
                throw NavigationError(code: .nothingToGoBack, sceneName: topEntry.sceneName)
            }
        case .reset:
            guard let startingSceneName else { throw NavigationError(code: .notStarted) }
            beforeReset?()
            return try plan(.setRoot(sceneName: startingSceneName, parameters: startingParameters))
        case .openURL(let url):
            return (
                { _ in },
                { _, completion in
                    binding.open(url) { opened in
                        completion(
                            opened
                                ? .success(())
                                : .failure(
                                    NavigationError(
                                        code: .urlNotOpened, navigation: navigation, sceneName: topEntry.sceneName,
                                        detail: url.absoluteString)))
                    }
                }
            )
        }
        let transition = try binding.prepare(step, resolver: resolver)
        return (apply, { animated, completion in transition(animated) { completion(.success(())) } })
    }

    private func makeEntry(_ sceneName: String, _ parameters: SceneParameters) -> NavigationState.Entry {
        defer { nextEntryID += 1 }
        return NavigationState.Entry(id: nextEntryID, sceneName: sceneName, parameters: parameters)
    }
}
