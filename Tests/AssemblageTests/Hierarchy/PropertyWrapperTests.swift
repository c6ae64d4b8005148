import Assemblage
import Dispatch
import Foundation
import Testing

// Owners of injected properties, in the shapes Swift 6 code uses.

final class Household {
    @Injected var pet: Animal
    @Injected(name: "dog") var dog: Animal
    @OptionalInjected var food: Food?
    @LazyInjected var engine: Engine
    @WeakLazyInjected var friend: Animal?
}

/// A `Sendable` struct can hold every wrapper whose service is `Sendable`.
struct SessionUser: Sendable {
    @Injected var session: Session
    @OptionalInjected(name: "backup") var backup: Session?
    @LazyInjected var lazySession: Session
}

/// A non-`Sendable` service is fine in an actor, which keeps it isolated.
actor Kennel {
    @Injected var resident: Animal
    @LazyInjected var engine: Engine
    func residentName() -> String { resident.name }
}

/// And in a `@MainActor` type.
@MainActor final class PetScreen {
    @Injected var pet: Animal
    @LazyInjected var engine: Engine
}

final class SlowEngine: @unchecked Sendable {
    init(_ counter: Counter) {
        counter.increment()
        usleep(2_000)
    }
}

@Suite struct PropertyWrapperTests {
    private func pets() -> Container {
        let container = Container(label: "pets")
        container.register(Animal.self) { _ in Cat() }
        container.register(Animal.self, name: "dog") { _ in Dog() }
        container.register(Engine.self) { _ in Engine() }
        return container
    }

    // MARK: @Injected

    @Test func injectedResolvesFromTheEffectiveRootWhenItsOwnerIsCreated() {
        let owner = Container.withRoot(pets()) { Household() }
        #expect(owner.pet.name == "Mimi")
        #expect(owner.dog.name == "Rex")
    }

    @Test func injectedUsesTheContainerItIsGivenWhateverTheRoot() {
        let other = Container(label: "other")
        other.register(Animal.self) { _ in Dog(name: "Fido") }
        let injected = Container.withRoot(pets()) { Injected<Animal>(container: other) }
        #expect(injected.wrappedValue.name == "Fido")
        #expect(Injected<Animal>(name: "dog", container: pets()).wrappedValue.name == "Rex")
    }

    @Test func injectedCanBeReassigned() {
        var injected = Injected<Animal>(container: pets())
        injected.wrappedValue = Dog(name: "Spot")
        #expect(injected.wrappedValue.name == "Spot")
    }

    @Test func injectedStopsTheProgramWithTheFullErrorWhenTheRegistrationIsMissing() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = Container(label: "empty")
            container.register(Animal.self, name: "dog") { _ in Dog() }
            _ = Injected<Animal>(container: container)
        }.map { result in
            let output = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(output.contains("@Injected could not resolve Animal from the container \"empty\""))
            #expect(output.contains("No registration for Animal."))
            #expect(output.contains(#"Registered for Animal: Animal (name: "dog")"#))
            #expect(output.contains("@OptionalInjected"))
        }
    }

    // MARK: @OptionalInjected

    @Test func optionalInjectedIsNilAndKeepsTheErrorWhenTheRegistrationIsMissing() {
        let owner = Container.withRoot(pets()) { Household() }
        #expect(owner.food == nil)
        #expect(owner.$food.resolutionError?.code == .notRegistered)
        #expect(owner.$food.resolutionError?.description.hasPrefix("No registration for Food.") == true)
    }

    @Test func optionalInjectedResolvesWhenRegistered() {
        let container = pets()
        container.register(Food.self) { _ in Fish() }
        let owner = Container.withRoot(container) { Household() }
        #expect(owner.food is Fish)
        #expect(owner.$food.resolutionError == nil)
    }

    @Test func optionalInjectedIsNilWhenTheFactoryThrows() {
        let container = Container()
        container.register(Food.self) { _ in throw Boom() }
        let food = OptionalInjected<Food>(container: container)
        #expect(food.wrappedValue == nil)
        #expect(food.projectedValue.resolutionError?.code == .factoryFailed)
    }

    // MARK: @LazyInjected

    @Test func lazyInjectedResolvesOnFirstReadOnlyAndKeepsTheInstance() {
        let counter = Counter()
        let container = Container()
        container.register(Engine.self) { _ in
            counter.increment()
            return Engine()
        }  // transient
        let engine = LazyInjected<Engine>(container: container)
        #expect(counter.count == 0)
        #expect(!engine.isResolved)
        let first = engine.wrappedValue
        #expect(engine.wrappedValue === first)
        #expect(engine.isResolved)
        #expect(counter.count == 1)
    }

    @Test func lazyInjectedResolvesFromTheRootEffectiveAtFirstRead() {
        let owner = Container.withRoot(pets()) { Household() }
        let later = Container()
        let engine = UncheckedBox(value: Engine())
        later.register(Engine.self) { _ in engine.value }
        #expect(Container.withRoot(later) { owner.engine } === engine.value)
        #expect(owner.engine === engine.value)
    }

    @Test func lazyInjectedCopiesShareTheirStorage() {
        let engine = LazyInjected<Engine>(container: pets())
        let copy = engine
        #expect(copy.wrappedValue === engine.wrappedValue)
    }

    @Test func lazyInjectedMissingRegistrationThrowsFromGetAndIsRetriedLater() throws {
        let container = Container(label: "late")
        let engine = LazyInjected<Engine>(container: container)
        let error = #expect(throws: ResolutionError.self) { try engine.projectedValue.get() }
        #expect(error?.code == .notRegistered)
        #expect(!engine.isResolved)
        container.register(Engine.self) { _ in Engine() }
        #expect(try engine.projectedValue.get() === engine.wrappedValue)
    }

    @Test func lazyInjectedStopsTheProgramWhenReadWithoutARegistration() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = LazyInjected<Engine>(container: Container(label: "empty")).wrappedValue
        }.map { result in
            let output = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(output.contains("@LazyInjected could not resolve Engine from the container \"empty\""))
            #expect(output.contains("No registration for Engine."))
        }
    }

    @Test func lazyInjectedResolvesOnceUnderConcurrentFirstReads() {
        let counter = Counter()
        let container = Container()
        container.register(SlowEngine.self) { _ in SlowEngine(counter) }  // transient: the wrapper must keep one
        let engine = LazyInjected<SlowEngine>(container: container)
        let seen = Collector<ObjectIdentifier>()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in seen.append(ObjectIdentifier(engine.wrappedValue)) }
        #expect(counter.count == 1)
        #expect(Set(seen.all).count == 1)
        #expect(seen.all.count == 16)
    }

    @Test func lazyInjectedReadByItsOwnFactoryIsACycleNotADeadlock() {
        final class Holder: @unchecked Sendable {
            @LazyInjected var engine: Engine
            init(_ container: Container) { _engine = LazyInjected(container: container) }
        }
        let container = Container()
        let holder = Holder(container)
        container.register(Engine.self) { _ in
            _ = try holder.$engine.get()
            return Engine()
        }
        let error = #expect(throws: ResolutionError.self) { try holder.$engine.get() }
        #expect(error?.code == .cycle)
        #expect(!holder.$engine.isResolved)
    }

    @Test func lazyInjectedReleaseAndAssignment() {
        let engine = LazyInjected<Engine>(container: pets())
        let first = engine.wrappedValue
        engine.projectedValue.release()
        #expect(!engine.isResolved)
        #expect(engine.wrappedValue !== first)
        let replacement = Engine()
        engine.wrappedValue = replacement
        #expect(engine.wrappedValue === replacement)
    }

    // MARK: @WeakLazyInjected

    @Test func weakLazyInjectedHoldsTheServiceWithoutKeepingItAlive() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }.inObjectScope(.container)
        let friend = WeakLazyInjected<Animal>(container: container)
        #expect(!friend.isResolved)
        var cat = container.resolve(Animal.self)
        #expect(cat != nil)
        #expect(friend.wrappedValue === cat)
        container.removeAll()  // the container lets go of its instance; `cat` still holds it
        #expect(friend.wrappedValue === cat)
        cat = nil
        #expect(friend.wrappedValue == nil)  // weak: gone with the last owner
        #expect(friend.isResolved)  // and not resolved again
    }

    @Test func weakLazyInjectedIsNilWithoutARegistrationAndRetriesLater() {
        let container = Container()
        let friend = WeakLazyInjected<Animal>(container: container)
        #expect(friend.wrappedValue == nil)
        #expect(!friend.isResolved)
        let error = #expect(throws: ResolutionError.self) { try friend.projectedValue.get() }
        #expect(error?.code == .notRegistered)
        container.register(Animal.self) { _ in Cat() }.inObjectScope(.container)
        #expect(friend.wrappedValue?.name == "Mimi")
    }

    @Test func weakLazyInjectedReadsNilAtOnceForATransientService() {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }.inObjectScope(.transient)
        let friend = WeakLazyInjected<Animal>(container: container)
        #expect(friend.wrappedValue == nil)
        #expect(friend.isResolved)
        friend.projectedValue.release()
        #expect(!friend.isResolved)
    }

    @Test func weakLazyInjectedResolvesFromTheEffectiveRoot() {
        let owner = Household.make(in: pets())
        let dog = UncheckedBox<Animal>(value: Dog(name: "Buddy"))
        let root = Container()
        root.register(Animal.self) { _ in dog.value }
        #expect(Container.withRoot(root) { owner.friend } === dog.value)
    }

    @Test func weakLazyInjectedRefusesAValueType() async {
        await #expect(processExitsWith: .failure) {
            let container = Container()
            container.register(Int.self) { _ in 7 }
            _ = WeakLazyInjected<Int>(container: container).wrappedValue
        }
    }

    // MARK: Swift 6 owners

    @Test func wrappersWorkInSendableStructsAndActors() async {
        let container = pets()
        container.register(Session.self) { _ in LiveSession() }
        let user = Container.withRoot(container) { SessionUser() }
        #expect(user.session.id == "live")
        #expect(user.backup == nil)
        #expect(Container.withRoot(container) { user.lazySession.id } == "live")
        let sent = await Task.detached { user.lazySession.id }.value  // the struct crosses tasks: it is Sendable
        #expect(sent == "live")

        let kennel = Container.withRoot(container) { Kennel() }
        #expect(await kennel.residentName() == "Mimi")
    }

    @MainActor @Test func wrappersWorkInMainActorTypes() {
        let container = pets()
        let screen = Container.withRoot(container) { PetScreen() }
        #expect(screen.pet.name == "Mimi")
        #expect(Container.withRoot(container) { screen.engine } === screen.engine)
    }
}

extension Household {
    static func make(in container: Container) -> Household { Container.withRoot(container) { Household() } }
}
