import Foundation
import Testing

@testable import Assemblage

// Behaviours where Assemblage matches Swinject 2.10.0 exactly (its own suite runs in scripts/swinject-suite.sh;
// these are the project's tests of the same behaviours, with their failure paths).

/// Keeps one instance, and lets a test fill it from outside.
private final class BoxStorage: InstanceStorage, @unchecked Sendable {  // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var stored: Any?
    var instance: Any? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

private final class FailureSpy: DebugHelper {
    var failures: [(type: String, key: ServiceKey, available: Int)] = []
    func resolutionFailed<Service>(
        serviceType: Service.Type, key: ServiceKey,
        availableRegistrations: [ServiceKey: ServiceEntryProtocol]
    ) {
        failures.append(("\(serviceType)", key, availableRegistrations.count))
    }
}

@Suite struct SwinjectParityTests {
    // MARK: description

    @Test func descriptionIsSwinjectsFormatSortedWithArgumentsScopeAndSteps() {
        let container = Container()
        container.register(Animal.self, name: "b") { _ in Cat() }.inObjectScope(.container)
        container.register(Animal.self) { (_, name: String, age: Int) in Cat(name: name, age: age) }
            .initCompleted { _, _ in }.initCompleted { _, _ in }
        #expect(
            container.description == """
                [
                    { Service: Animal, Factory: (Resolver, String, Int) -> Animal, ObjectScope: graph, \
                InitCompleted: Specified 2 closures },
                    { Service: Animal, Name: "b", Factory: Resolver -> Animal, ObjectScope: container }
                ]
                """)
    }

    @Test func emptyContainerDescribesAsEmptyBrackets() {
        #expect(Container().description == "[\n]")
        #expect(Container(label: "empty").debugDescription == "empty: 0 registrations")
    }

    // MARK: Options in keys

    @Test func keysWithEqualOptionsAreEqualAndHashAlike() {
        let one = ServiceKey(serviceType: Animal.self, argumentsType: Resolver.self, option: Shelf(number: 1))
        let same = ServiceKey(serviceType: Animal.self, argumentsType: Resolver.self, option: Shelf(number: 1))
        #expect(one == same)
        #expect(one.hashValue == same.hashValue)
        #expect(one.option?.description == "Shelf: 1")
        #expect("\(one)".contains("option: Shelf: 1"))
    }

    @Test func keysWithDifferentOrMissingOptionsDiffer() {
        let one = ServiceKey(serviceType: Animal.self, argumentsType: Resolver.self, option: Shelf(number: 1))
        let two = ServiceKey(serviceType: Animal.self, argumentsType: Resolver.self, option: Shelf(number: 2))
        let none = ServiceKey(serviceType: Animal.self, argumentsType: Resolver.self)
        #expect(one != two)
        #expect(one != none)
        #expect(none.option == nil)
    }

    // MARK: Custom scopes

    @Test func resettingCustomScopeClearsStorageOfRegistrationNeverResolved() {
        let storage = BoxStorage()
        let scope = ObjectScope(storageFactory: { storage })
        let container = Container()
        container.register(Animal.self) { _ in Cat() }.inObjectScope(scope)
        storage.instance = Dog()
        #expect(container.resolve(Animal.self)?.name == "Rex")  // the storage's instance is used
        container.resetObjectScope(scope)
        #expect(storage.instance == nil)
        #expect(container.resolve(Animal.self)?.name == "Mimi")
    }

    @Test func resettingCustomScopeThroughChildClearsParentsRegistration() {
        let storage = BoxStorage()
        let scope = ObjectScope(storageFactory: { storage })
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(Animal.self) { _ in Cat() }.inObjectScope(scope)
        storage.instance = Dog()
        child.resetObjectScope(scope)
        #expect(storage.instance == nil)
    }

    @Test func resettingAnotherScopeLeavesCustomStorageAlone() {
        let storage = BoxStorage()
        let container = Container()
        container.register(Animal.self) { _ in Cat() }.inObjectScope(ObjectScope(storageFactory: { storage }))
        storage.instance = Dog()
        container.resetObjectScope(ObjectScope(storageFactory: BoxStorage.init))
        #expect(storage.instance is Dog)
    }

    // MARK: Debug helper

    @Test func debugHelperHearsOfMissingRegistrationWithAllAvailable() {
        let spy = FailureSpy()
        let parent = Container()
        parent.register(Int.self) { _ in 1 }
        let container = Container(parent: parent, debugHelper: spy)
        container.register(Double.self) { _ in 1 }
        #expect(container.resolve(String.self, name: "x") == nil)
        #expect(spy.failures.count == 1)
        #expect(spy.failures.first?.type == "String")
        #expect(spy.failures.first?.key == ServiceKey(String.self, name: "x"))
        #expect(spy.failures.first?.available == 2)
    }

    @Test func debugHelperIsNotToldOfSuccess() {
        let spy = FailureSpy()
        let container = Container(debugHelper: spy)
        container.register(Int.self) { _ in 1 }
        #expect(container.resolve(Int.self) == 1)
        #expect(spy.failures.isEmpty)
    }

    @Test func invokerResolveReachesRegistrationsWithoutArgumentsOnly() {
        let spy = FailureSpy()
        let container = Container(debugHelper: spy)
        container.register(Animal.self, name: "cat") { _ in Cat(name: "Invoked") }
        let found: Animal? = container._resolve(name: "cat") { (factory: (Resolver) -> Any) in factory(container) }
        #expect(found?.name == "Invoked")
        let missing: Animal? = container._resolve(name: "cat", option: Shelf(number: 1)) {
            (factory: (Resolver) -> Any) in
            factory(container)
        }
        #expect(missing == nil)
        #expect(
            spy.failures.first?.key
                == ServiceKey(
                    serviceType: Animal.self, argumentsType: Resolver.self,
                    name: "cat", option: Shelf(number: 1)))
    }

    @Test func entryMadeOutsideContainerKeepsGivenScope() {
        let entry = ServiceEntry(
            serviceType: Int.self, argumentsType: Resolver.self, factory: { 0 }, objectScope: .weak)
        #expect(entry.objectScope === ObjectScope.weak)
        #expect(
            ServiceEntry(serviceType: Int.self, argumentsType: Resolver.self, factory: { 0 }).objectScope
                === ObjectScope.graph)
    }
}

@Suite struct SynchronizedViewTests {
    /// A factory that is not thread-safe: it mutates an unguarded counter, as code written for Swinject's
    /// `synchronize()` may; a data race here would be reported by the thread sanitizer.
    private final class Unguarded: @unchecked Sendable {  // @unchecked: only touched under the view's lock.
        var inside = 0
        var maximum = 0
        var made = 0
    }

    @Test func synchronizedViewRunsOneFactoryAtATime() {
        let state = Unguarded()
        let container = Container()
        container.register(Animal.self) { _ in
            state.inside += 1
            state.maximum = max(state.maximum, state.inside)
            for _ in 0..<200 { state.made += 1 }
            state.inside -= 1
            return Cat()
        }
        let serial = container.synchronize()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 { _ = serial.resolve(Animal.self) }
        }
        #expect(state.maximum == 1)
        #expect(state.made == 8 * 200 * 200)
    }

    @Test func nestedResolvesOfTheSameThreadReenterTheLock() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "Nested") }
        container.register(Person.self) { r in Person(pet: try r.require(Animal.self)) }
        let serial = container.synchronize()
        #expect(serial.resolve(Person.self)?.pet.name == "Nested")
        #expect(try serial.require(Person.self).pet.name == "Nested")
        #expect(serial.resolve(String.self, arguments: 1, 2, 3, 4) == nil)
    }

    @Test func synchronizedViewThrowsTheFullErrorFromRequire() {
        let serial = Container().synchronize()
        do {
            _ = try serial.require(Animal.self)
            Issue.record("require should have thrown")
        } catch {
            #expect(error.code == .notRegistered)
            #expect(!error.description.contains("a Resolver of your own"))
        }
    }

    @Test func synchronizedViewIsAChildContainer() throws {
        let container = Container()
        let serial = container.synchronize()
        let view = serial as? Container
        #expect(view != nil)
        #expect(view?.fallbacks.first === container)
        view?.register(Animal.self) { _ in Dog() }
        #expect(container.resolve(Animal.self) == nil)
        #expect(serial.resolve(Animal.self)?.name == "Rex")
        #expect(serial._container === view)
    }
}
