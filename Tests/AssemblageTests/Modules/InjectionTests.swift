import Assemblage
import Testing

/// Made by a framework (a storyboard, a request router), never by the container.
final class ProfileScreen: @unchecked Sendable {
    var transport: HTTPTransport?
    var analytics: AnalyticsTracker?
    var steps: [String] = []
}

struct ProfileScreenModule: RecordingModule, AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [AnalyticsModule.self] }
    func register(into container: Container) {
        container.registerInjection(for: ProfileScreen.self) { r, screen in
            screen.transport = try r.require(HTTPTransport.self)
            screen.steps.append("transport")
        }
        .initCompleted { r, screen in
            screen.analytics = try r.require(AnalyticsTracker.self)
            screen.steps.append("analytics")
        }
    }
}

@Suite struct InjectionTests {
    @Test func injectRunsTheRegisteredStepsInOrder() throws {
        let container = Container()
        container.register(HTTPTransport.self) { _ in LiveTransport(baseURL: "x") }.inObjectScope(.container)
        container.registerInjection(for: ProfileScreen.self) { r, screen in
            screen.transport = r.resolve(HTTPTransport.self)
            screen.steps.append("first")
        }
        .initCompleted { _, screen in screen.steps.append("second") }
        let screen = ProfileScreen()
        let returned = try container.inject(into: screen)
        #expect(returned === screen)
        #expect(screen.steps == ["first", "second"])
        #expect(screen.transport === container.resolve(HTTPTransport.self))
    }

    @Test func eachInjectionRunsAgainForANewObject() throws {
        let container = Container()
        container.registerInjection(for: ProfileScreen.self) { _, screen in screen.steps.append("injected") }
        let first = ProfileScreen()
        let second = ProfileScreen()
        try container.inject(into: first)
        try container.inject(into: second)
        try container.inject(into: first)
        #expect(first.steps == ["injected", "injected"])
        #expect(second.steps == ["injected"])
    }

    @Test func injectionRunsInTheRegisteringModulesScope() throws {
        let assembler = try ModuleAssembler([ProfileScreenModule()])
        let screen = try assembler.resolver.inject(into: ProfileScreen())
        #expect(screen.steps == ["transport", "analytics"])
        #expect(screen.analytics === (try assembler.resolver.require(AnalyticsTracker.self)))
        #expect(screen.transport === screen.analytics?.transport)
    }

    @Test func injectWithoutARegistrationThrowsNotRegistered() {
        let container = Container()
        container.register(ProfileScreen.self) { _ in ProfileScreen() }  // an ordinary registration is not an injection
        let error = #expect(throws: ResolutionError.self) { try container.inject(into: ProfileScreen()) }
        #expect(error?.code == .injectionNotRegistered)
        #expect(error?.key == ServiceKey(ProfileScreen.self))
        #expect(
            error?.description == "No injection is registered for ProfileScreen.\n"
                + "  Fix: container.registerInjection(for: ProfileScreen.self) { r, object in … }")
    }

    @Test func namedInjectionsAreSeparate() throws {
        let container = Container()
        container.registerInjection(for: ProfileScreen.self, name: "compact") { _, screen in
            screen.steps.append("compact")
        }
        let screen = ProfileScreen()
        try container.inject(into: screen, name: "compact")
        #expect(screen.steps == ["compact"])
        let error = #expect(throws: ResolutionError.self) { try container.inject(into: screen) }
        #expect(error?.code == .injectionNotRegistered)
        let named = #expect(throws: ResolutionError.self) { try container.inject(into: screen, name: "wide") }
        #expect(named?.description.contains("registerInjection(for: ProfileScreen.self, name: \"wide\")") == true)
    }

    @Test func failingStepThrowsItsFailureWithTheResolutionPathFromTheObject() {
        let container = Container()
        container.registerInjection(for: ProfileScreen.self) { r, screen in
            screen.analytics = try r.require(AnalyticsTracker.self)
        }
        let error = #expect(throws: ResolutionError.self) { try container.inject(into: ProfileScreen()) }
        #expect(error?.code == .notRegistered)
        #expect(error?.key == ServiceKey(AnalyticsTracker.self))
        #expect(error?.path == [ServiceKey(ProfileScreen.self), ServiceKey(AnalyticsTracker.self)])
        #expect(
            error?.description.hasPrefix(
                "No registration for AnalyticsTracker.\n"
                    + "  Resolution path: ProfileScreen → AnalyticsTracker") == true)
    }

    @Test func throwingStepIsReportedWithItsError() {
        let container = Container()
        container.registerInjection(for: ProfileScreen.self) { _, _ in throw Boom() }
        let error = #expect(throws: ResolutionError.self) { try container.inject(into: ProfileScreen()) }
        #expect(error?.code == .factoryFailed)
        #expect(error?.key == ServiceKey(ProfileScreen.self))
        #expect(error?.underlyingDescription == "boom")
    }

    @Test func injectionDoesNotInterfereWithOrdinaryRegistrations() throws {
        let container = Container()
        container.registerInjection(for: ProfileScreen.self) { _, screen in screen.steps.append("injected") }
        #expect(container.resolve(ProfileScreen.self) == nil)
        container.register(ProfileScreen.self) { _ in ProfileScreen() }
        #expect(container.resolve(ProfileScreen.self)?.steps == [])
    }

    @Test func injectionEntryNamesItsKey() {
        let entry = Container().registerInjection(for: ProfileScreen.self, name: "n") { _, _ in }
        #expect(entry.key == ServiceKey(ProfileScreen.self, name: "n"))
    }
}
