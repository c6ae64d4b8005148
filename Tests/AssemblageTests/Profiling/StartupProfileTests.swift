import Assemblage
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

// The startup profile: what a recording sees (nesting, threads, async factories, scopes, modules, failures) and
// its three renderings. A recording sees every container of the process, and tests run in parallel, so each test
// looks only at the types declared for it here, made by containers of labels of its own.

private final class ProfiledRoot: Sendable {
    init(_ leaf: ProfiledLeaf) {}
}
private final class ProfiledLeaf: Sendable {}
private final class ProfiledWorker: Sendable {}
private final class ProfiledAsyncRoot: Sendable {}
private final class ProfiledAsyncChild: Sendable {}
private final class ProfiledSyncChild: Sendable {}
private final class ProfiledScoped: Sendable {}
private final class ProfiledModuleLeaf: Sendable {}
private final class ProfiledModuleRoot: Sendable {
    init(_ leaf: ProfiledModuleLeaf) {}
}
private final class ProfiledFailing: Sendable {}
private final class ProfiledUnrecorded: Sendable {}
private final class ProfiledEarlySingleton: Sendable {}
private final class ProfiledRendered: Sendable {
    init(_ leaf: ProfiledLeaf) {}
}
private struct ProfiledFailure: Error {}

private struct ProfiledLeafModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) {
        container.register(ProfiledModuleLeaf.self) { _ in ProfiledModuleLeaf() }.inObjectScope(.container)
    }
}

private struct ProfiledRootModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [ProfiledLeafModule.self] }
    func assemble(container: Container) {
        container.register(ProfiledModuleRoot.self) { r in ProfiledModuleRoot(r.resolve(ProfiledModuleLeaf.self)!) }
    }
}

extension StartupProfile {
    /// The instances of `type`, made by the container labelled `container` when one is given.
    fileprivate func instances<T>(of type: T.Type, in container: String? = nil) -> [Instance] {
        instances.filter { $0.registration.serviceType == type && (container == nil || $0.container == container) }
    }
}

/// Counts the `rect` elements of class `frame` and collects the `title` texts of an SVG.
private final class SVGFrameCounter: NSObject, XMLParserDelegate {
    var frames = 0
    var titles: [String] = []
    private var inTitle = false

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if element == "rect", attributes["class"] == "frame" { frames += 1 }
        if element == "title" {
            inTitle = true
            titles.append("")
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "title" { inTitle = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { titles[titles.count - 1] += string }
    }
}

@Suite struct StartupProfileTests {
    /// A container whose root (transient) asks for a leaf (singleton); both factories take some time.
    private func nestedContainer(_ label: String) -> Container {
        let container = Container(label: label)
        container.register(ProfiledLeaf.self) { _ in
            Thread.sleep(forTimeInterval: 0.02)
            return ProfiledLeaf()
        }.inObjectScope(.container)
        container.register(ProfiledRoot.self) { r in
            Thread.sleep(forTimeInterval: 0.01)
            return ProfiledRoot(r.resolve(ProfiledLeaf.self)!)
        }
        return container
    }

    @Test func nestedCreationRecordsItsParentAndSelfTime() throws {
        let container = nestedContainer("nested")
        let profile = StartupProfile.record { _ = container.resolve(ProfiledRoot.self) }
        let root = try #require(profile.instances(of: ProfiledRoot.self, in: "nested").first)
        let leaf = try #require(profile.instances(of: ProfiledLeaf.self, in: "nested").first)
        #expect(root.parent == nil)
        #expect(leaf.parent == root.id)
        #expect(root.scope == "graph" && leaf.scope == "container")

        #expect(root.site.file.hasSuffix("StartupProfileTests.swift"))
        #expect(leaf.startNanoseconds >= root.startNanoseconds)
        #expect(leaf.durationNanoseconds >= 20_000_000)
        #expect(root.durationNanoseconds >= leaf.durationNanoseconds + 10_000_000)
        #expect(root.selfNanoseconds == root.durationNanoseconds - leaf.durationNanoseconds)
        #expect(leaf.selfNanoseconds == leaf.durationNanoseconds)
        #expect(leaf.thread == root.thread)
        #expect(profile.durationNanoseconds >= root.durationNanoseconds)
    }

    @Test func anInstanceThatExistsAlreadyIsNotMadeAgainNorRecorded() {
        let container = Container()
        container.register(ProfiledEarlySingleton.self) { _ in ProfiledEarlySingleton() }.inObjectScope(.container)
        _ = container.resolve(ProfiledEarlySingleton.self)
        let profile = StartupProfile.record { _ = container.resolve(ProfiledEarlySingleton.self) }
        #expect(profile.instances(of: ProfiledEarlySingleton.self).isEmpty)
    }

    @Test func nothingIsRecordedOutsideARecording() {
        let container = Container()
        container.register(ProfiledUnrecorded.self) { _ in ProfiledUnrecorded() }
        _ = container.resolve(ProfiledUnrecorded.self)
        let profile = StartupProfile.record { _ = nestedContainer("off").resolve(ProfiledRoot.self) }
        _ = container.resolve(ProfiledUnrecorded.self)
        #expect(profile.instances(of: ProfiledUnrecorded.self).isEmpty)
        #expect(profile.instances(of: ProfiledRoot.self, in: "off").count == 1)
    }

    @Test func overlappingRecordingsBothSeeWhatIsMadeWhileBothRun() {
        let container = nestedContainer("overlap")
        var inner: StartupProfile?
        let outer = StartupProfile.record {
            inner = StartupProfile.record { _ = container.resolve(ProfiledRoot.self) }
            _ = container.resolve(ProfiledRoot.self)
        }
        #expect(inner?.instances(of: ProfiledRoot.self, in: "overlap").count == 1)
        #expect(outer.instances(of: ProfiledRoot.self, in: "overlap").count == 2)
        #expect(outer.instances(of: ProfiledLeaf.self, in: "overlap").count == 1)
    }

    @Test func instancesMadeOnOtherThreadsAreRecordedWithTheirThread() throws {
        let container = Container(label: "threads")
        container.register(ProfiledLeaf.self) { _ in ProfiledLeaf() }
        container.register(ProfiledWorker.self) { r in
            _ = r.resolve(ProfiledLeaf.self)
            Thread.sleep(forTimeInterval: 0.005)
            return ProfiledWorker()
        }
        let profile = StartupProfile.record {
            let group = DispatchGroup()
            for _ in 0..<3 {
                group.enter()
                Thread {
                    _ = container.resolve(ProfiledWorker.self)
                    group.leave()
                }.start()
            }
            _ = container.resolve(ProfiledWorker.self)
            group.wait()
        }
        let workers = profile.instances(of: ProfiledWorker.self, in: "threads")
        #expect(workers.count == 4)
        for worker in workers {
            let leaves = profile.instances.filter { $0.parent == worker.id }
            #expect(leaves.count == 1)
            #expect(leaves.first?.thread == worker.thread)
        }
        #expect(Set(workers.map(\.thread)).count == 4)
    }

    @Test func asyncFactoriesAreRecordedOnceWithTheirChildren() async throws {
        let container = Container()
        container.register(ProfiledAsyncChild.self) { _ async in
            try? await Task.sleep(nanoseconds: 5_000_000)
            return ProfiledAsyncChild()
        }
        container.register(ProfiledSyncChild.self) { _ in ProfiledSyncChild() }
        container.register(ProfiledAsyncRoot.self) { r async throws in
            _ = try await r.resolveAsync(ProfiledAsyncChild.self)
            _ = r.resolve(ProfiledSyncChild.self)
            return ProfiledAsyncRoot()
        }.inObjectScope(.container)
        let profile = try await StartupProfile.record { _ = try await container.resolveAsync(ProfiledAsyncRoot.self) }
        let roots = profile.instances(of: ProfiledAsyncRoot.self)
        let root = try #require(roots.first)
        #expect(roots.count == 1)
        #expect(root.isAsync)
        let asyncChild = try #require(profile.instances(of: ProfiledAsyncChild.self).first)
        let syncChild = try #require(profile.instances(of: ProfiledSyncChild.self).first)
        #expect(asyncChild.isAsync && !syncChild.isAsync)
        #expect(asyncChild.parent == root.id)
        #expect(syncChild.parent == root.id)
        #expect(asyncChild.durationNanoseconds >= 5_000_000)
        #expect(root.durationNanoseconds >= asyncChild.durationNanoseconds)
    }

    @Test func scopedInstancesAndModulesAreRecordedWithTheirContainers() throws {
        let assembler = try ModuleAssembler([ProfiledRootModule()])
        let container = Container(label: "requests")
        container.register(ProfiledScoped.self) { _ in ProfiledScoped() }.inObjectScope(.scoped)
        let profile = StartupProfile.record {
            _ = assembler.resolver.resolve(ProfiledModuleRoot.self)
            let scope = container.makeScope(label: "request 1")
            _ = scope.resolve(ProfiledScoped.self)
            try? scope.endSynchronously()
        }
        let root = try #require(profile.instances(of: ProfiledModuleRoot.self).first)
        let leaf = try #require(profile.instances(of: ProfiledModuleLeaf.self).first)
        #expect(leaf.parent == root.id)
        #expect(root.container.contains("ProfiledRootModule"))
        #expect(leaf.container.contains("ProfiledLeafModule"))
        let scoped = try #require(profile.instances(of: ProfiledScoped.self).first)
        #expect(scoped.scope == "scoped")
        #expect(scoped.container == "request 1")
    }

    @Test func aFailingFactoryIsRecordedAsFailedAndTheBodysErrorPassesThrough() throws {
        let container = Container()
        container.register(ProfiledFailing.self) { _ in throw ProfiledFailure() }
        let profile = StartupProfile.record { _ = container.resolve(ProfiledFailing.self) }
        let failing = try #require(profile.instances(of: ProfiledFailing.self).first)
        #expect(failing.failed)
        #expect(profile.text.contains("[failed]"))
        #expect(throws: ProfiledFailure.self) {
            _ = try StartupProfile.record { throw ProfiledFailure() }
        }
    }

    // MARK: Renderings

    /// A profile with a nested pair, a named registration whose name needs escaping, and a failure.
    private func renderedProfile() -> StartupProfile {
        let container = Container(label: "rendered <app> & \"friends\"")
        container.register(ProfiledLeaf.self, name: "quote \" back\\slash <tag> & amp") { _ in ProfiledLeaf() }
        container.register(ProfiledRendered.self) { r in
            ProfiledRendered(r.resolve(ProfiledLeaf.self, name: "quote \" back\\slash <tag> & amp")!)
        }
        container.register(ProfiledFailing.self) { _ in throw ProfiledFailure() }
        return StartupProfile.record {
            _ = container.resolve(ProfiledRendered.self)
            _ = container.resolve(ProfiledFailing.self)
        }
    }

    @Test func chromeTraceJSONParsesAndNamesEveryInstance() throws {
        let profile = renderedProfile()
        let json = try JSONSerialization.jsonObject(with: Data(profile.chromeTraceJSON.utf8)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(complete.count == profile.instances.count)
        for (event, instance) in zip(complete, profile.instances) {
            #expect(event["name"] as? String == instance.registration.description)
            #expect(event["ts"] is Double || event["ts"] is Int)
            #expect((event["dur"] as? NSNumber)?.doubleValue == Double(instance.durationNanoseconds) / 1_000)
            #expect(event["pid"] is Int)
            #expect(event["tid"] as? Int == instance.thread)
            let args = try #require(event["args"] as? [String: Any])
            #expect(args["registration"] as? String == instance.registration.description)
            #expect(args["scope"] as? String == instance.scope)
            #expect(args["container"] as? String == instance.container)
            #expect(args["parent"] as? Int == instance.parent)
        }
        let leaf = try #require(complete.first { ($0["name"] as? String)?.hasPrefix("ProfiledLeaf") == true })
        #expect((leaf["args"] as? [String: Any])?["parentRegistration"] as? String == "ProfiledRendered")
        #expect(complete.contains { ($0["args"] as? [String: Any])?["failed"] as? Bool == true })
        #expect(events.contains { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" })
    }

    @Test func flameGraphSVGParsesAndHasOneFramePerInstance() throws {
        let profile = renderedProfile()
        let parser = XMLParser(data: Data(profile.flameGraphSVG.utf8))
        let counter = SVGFrameCounter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.frames == profile.instances.count)
        #expect(counter.frames >= 3)
        #expect(counter.titles.contains { $0.hasPrefix("ProfiledRendered: ") && $0.contains("self") })
        #expect(counter.titles.contains { $0.contains("quote \" back\\slash <tag> & amp") })
        #expect(!profile.flameGraphSVG.contains("<script"))
    }

    @Test func anEmptyProfileRendersToo() throws {
        let profile = StartupProfile.record {}
        let own = profile.instances.filter { $0.registration.serviceType == ProfiledRendered.self }
        #expect(own.isEmpty)
        #expect(XMLParser(data: Data(profile.flameGraphSVG.utf8)).parse())
        _ = try JSONSerialization.jsonObject(with: Data(profile.chromeTraceJSON.utf8))
        #expect(profile.text.hasPrefix("Startup profile: "))
    }

    @Test func textListsTheSlowestBySelfAndByTotalTime() throws {
        let container = nestedContainer("text")
        let profile = StartupProfile.record { _ = container.resolve(ProfiledRoot.self) }
        let text = profile.text(top: 3)
        let bySelf = try #require(text.range(of: "Slowest by self time:"))
        let byTotal = try #require(text.range(of: "Slowest by total time:"))
        #expect(bySelf.upperBound < byTotal.lowerBound)
        #expect(text.contains("ProfiledLeaf (made for ProfiledRoot)"))
        // The leaf's own work is the larger; the root's total includes the leaf's.
        let selfTable = text[bySelf.upperBound..<byTotal.lowerBound]
        let totalTable = text[byTotal.upperBound...]
        if profile.instances.count == 2 {
            #expect(
                try #require(selfTable.range(of: "ProfiledLeaf")).lowerBound
                    < #require(selfTable.range(of: "ProfiledRoot\n")).lowerBound)
            #expect(
                try #require(totalTable.range(of: "ProfiledRoot\n")).lowerBound
                    < #require(totalTable.range(of: "ProfiledLeaf")).lowerBound)
        }
    }

    @Test func writingToAFolderWritesAllThreeRenderings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = renderedProfile()
        let written = try profile.write(to: folder)
        #expect(
            written.map(\.lastPathComponent).sorted()
                == ["startup-profile.svg", "startup-profile.trace.json", "startup-profile.txt"])
        #expect(
            try String(contentsOf: folder.appendingPathComponent("startup-profile.svg"), encoding: .utf8)
                == profile.flameGraphSVG)
        let single = folder.appendingPathComponent("one.json")
        try profile.write(to: single)
        #expect(try String(contentsOf: single, encoding: .utf8) == profile.chromeTraceJSON)
    }

    @Test func writingWhereNothingCanBeWrittenIsATypedError() throws {
        let profile = StartupProfile.record {}
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString).txt")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // A folder below a file cannot be made, nor a file written there.
        for url in [file.appendingPathComponent("inside"), file.appendingPathComponent("inside.svg")] {
            #expect {
                try profile.write(to: url)
            } throws: { error in
                (error as? ContainerError)?.code == .profileNotWritten
                    && "\(error)".contains("could not be written")
            }
        }
        #expect(throws: ContainerError.self) { try profile.write(to: URL(string: "https://example.com/p.svg")!) }
    }
}
