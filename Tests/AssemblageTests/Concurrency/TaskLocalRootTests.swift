import Assemblage
import Testing

@Suite struct TaskLocalRootTests {
    // Outside every section the root is the assigned one: checked in the serialized
    // GlobalContainerTests, the only suite that reads the process-wide globals outside a section.

    @Test func withRootInstallsTheContainerForTheSynchronousSection() throws {
        let outside = Container(label: "outside")
        let container = Container(label: "section")
        container.register(Cat.self) { _ in Cat(name: "Section") }
        try Container.withRoot(outside) {
            let name = try Container.withRoot(container) { try Container.root.require(Cat.self).name }
            #expect(name == "Section")
            #expect(Container.root === outside)
        }
    }

    @Test func sectionsNestAndTheInnermostWins() {
        let outer = Container(label: "outer")
        let inner = Container(label: "inner")
        Container.withRoot(outer) {
            #expect(Container.root === outer)
            Container.withRoot(inner) { #expect(Container.root === inner) }
            #expect(Container.root === outer)
        }
    }

    @Test func asyncSectionHoldsAcrossSuspensionsAndInChildTasks() async throws {
        let container = Container(label: "async")
        try await Container.withRoot(container) {
            try await Task.sleep(nanoseconds: 1_000)
            #expect(Container.root === container)
            async let child = Container.root
            let fromGroup = await withTaskGroup(of: Bool.self) { group in
                group.addTask { Container.root === container }
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
                    return await Container.withRoot(container) {
                        await Task.yield()
                        return (index, Container.root.resolve(Cat.self)?.name)
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
