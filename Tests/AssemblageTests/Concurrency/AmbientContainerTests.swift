import Assemblage
import Testing

@Suite struct AmbientContainerTests {
    @Test func outsideEverySectionTheAmbientContainerIsTheProcessDefault() {
        #expect(Container.ambient === Container.ambient)
        #expect(Container.ambient.label == "ambient")
    }

    @Test func withAmbientInstallsTheContainerForTheSynchronousSection() throws {
        let container = Container(label: "section")
        container.register(Cat.self) { _ in Cat(name: "Ambient") }
        let name = try Container.withAmbient(container) { try Container.ambient.require(Cat.self).name }
        #expect(name == "Ambient")
        #expect(Container.ambient !== container)
    }

    @Test func sectionsNestAndTheInnermostWins() {
        let outer = Container(label: "outer")
        let inner = Container(label: "inner")
        Container.withAmbient(outer) {
            #expect(Container.ambient === outer)
            Container.withAmbient(inner) { #expect(Container.ambient === inner) }
            #expect(Container.ambient === outer)
        }
    }

    @Test func asyncSectionHoldsAcrossSuspensionsAndInChildTasks() async throws {
        let container = Container(label: "async")
        try await Container.withAmbient(container) {
            try await Task.sleep(nanoseconds: 1_000)
            #expect(Container.ambient === container)
            async let child = Container.ambient
            let fromGroup = await withTaskGroup(of: Bool.self) { group in
                group.addTask { Container.ambient === container }
                return await group.reduce(true) { $0 && $1 }
            }
            #expect(await child === container)
            #expect(fromGroup)
        }
    }

    @Test func parallelTasksEachSeeTheirOwnRegistrations() async {
        let names = await withTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<32 {
                group.addTask {
                    let container = Container(parent: Container.ambient, label: "task \(index)")
                    container.register(Cat.self) { _ in Cat(name: "cat \(index)") }
                    return await Container.withAmbient(container) {
                        await Task.yield()
                        return (index, Container.ambient.resolve(Cat.self)?.name)
                    }
                }
            }
            return await group.reduce(into: [Int: String?]()) { $0[$1.0] = $1.1 }
        }
        #expect(names.count == 32)
        #expect(names.allSatisfy { $0.value == "cat \($0.key)" })
    }

    @Test func detachedTasksDoNotInheritTheSection() async {
        let container = Container(label: "not inherited")
        let seen = await Container.withAmbient(container) {
            await Task.detached { Container.ambient }.value
        }
        #expect(seen !== container)
    }
}
