import Assemblage
import Testing

@Suite struct AmbientContainerTests {
    // Outside every section the ambient container is the assigned root: checked in the serialized
    // GlobalContainerTests, the only suite that reads the process-wide globals outside a section.

    @Test func withRootAndWithAmbientAreOneSwitch() {
        let section = Container(label: "section")
        Container.withRoot(section) {
            #expect(Container.ambient === section)
        }
        Container.withAmbient(section) {
            #expect(Container.root === section)
        }
    }

    @Test func withAmbientInstallsTheContainerForTheSynchronousSection() throws {
        let outside = Container(label: "outside")
        let container = Container(label: "section")
        container.register(Cat.self) { _ in Cat(name: "Ambient") }
        try Container.withAmbient(outside) {
            let name = try Container.withAmbient(container) { try Container.ambient.require(Cat.self).name }
            #expect(name == "Ambient")
            #expect(Container.ambient === outside)
        }
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
                    let container = Container(label: "task \(index)")
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

    // Detached tasks not inheriting the section: GlobalContainerTests.detachedTasksDoNotInheritWithRoot (it
    // reads the process-wide root, so it lives in that serialized suite).
}
