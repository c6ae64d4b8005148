import Dispatch
import Testing

@testable import Assemblage

// `restoreObjectGraph` (Swinject's internal hook) and the registry's size are internal, hence `@testable`.

private final class Document: @unchecked Sendable {}
private final class Page: @unchecked Sendable {
    let graph: GraphIdentifier?
    init(graph: GraphIdentifier?) { self.graph = graph }
}
private final class Editor: @unchecked Sendable {
    let graph: GraphIdentifier
    let document: Document
    let page: Page
    init(graph: GraphIdentifier, document: Document, page: Page) {
        self.graph = graph
        self.document = document
        self.page = page
    }
}

/// Records what a custom scope's storage is asked, per graph.
private final class StorageSpy: InstanceStorage, @unchecked Sendable {
    var instance: Any?
    var read: [GraphIdentifier] = []
    var written: [GraphIdentifier] = []
    func instance(inGraph graph: GraphIdentifier) -> Any? {
        read.append(graph)
        return nil
    }
    func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) { written.append(graph) }
}

/// Serialized: the memory tests count the graphs remembered process-wide, and only this suite makes any.
@Suite(.serialized) struct ObjectGraphTests {
    /// Document is `.graph`; Page records the graph it was made in; Editor reads its graph's identifier.
    private func editing(documents: Counter = Counter()) -> Container {
        let container = Container()
        container.register(Document.self) { _ in
            documents.increment()
            return Document()
        }
        container.register(Page.self) { r in Page(graph: (r as! Container).currentObjectGraph) }
            .inObjectScope(.transient)
        container.register(Editor.self) { r in
            Editor(
                graph: try r.require(GraphIdentifier.self), document: try r.require(Document.self),
                page: try r.require(Page.self))
        }
        return container
    }

    // MARK: Identifiers

    @Test func identifierIsNilOutsideAResolution() {
        let container = editing()
        #expect(container.currentObjectGraph == nil)
        #expect(container.resolve(GraphIdentifier.self) == nil)
        let error = #expect(throws: ResolutionError.self) { try container.require(GraphIdentifier.self) }
        #expect(error?.code == .notRegistered)
        _ = container.resolve(Editor.self)
        #expect(container.currentObjectGraph == nil)
        #expect(container.resolve(GraphIdentifier.self) == nil)
    }

    @Test func identifierIsTheSameThroughoutOneResolveAndNewForTheNext() throws {
        let container = editing()
        let first = try container.require(Editor.self)
        let second = try container.require(Editor.self)
        #expect(first.page.graph == first.graph)  // read through currentObjectGraph and resolved: the same
        #expect(second.page.graph == second.graph)
        #expect(first.graph != second.graph)
    }

    @Test func namedOrArgumentGraphIdentifierIsNotTheGraph() {
        let container = Container()
        container.register(Page.self) { r in Page(graph: r.resolve(GraphIdentifier.self, name: "other")) }
        #expect(container.resolve(Page.self)?.graph == nil)
        #expect(container.resolve(Page.self) != nil)
    }

    @Test func graphsOnDifferentThreadsHaveDistinctIdentifiers() {
        let container = Container()
        let seen = Collector<GraphIdentifier>()
        let mismatches = Collector<String>()
        container.register(Page.self) { r in Page(graph: (r as! Container).currentObjectGraph) }
        container.register(Editor.self) { r in
            let graph = (r as! Container).currentObjectGraph!
            seen.append(graph)
            let page = try r.require(Page.self)
            if page.graph != graph || (r as! Container).currentObjectGraph != graph {
                mismatches.append("\(String(describing: page.graph)) != \(graph)")
            }
            return Editor(graph: graph, document: Document(), page: page)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 { _ = container.resolve(Editor.self) }
        }
        #expect(seen.all.count == 1_600)
        #expect(Set(seen.all).count == 1_600)
        #expect(mismatches.all.isEmpty)
    }

    // MARK: withObjectGraph

    @Test func withObjectGraphReturnsInstancesOfThatGraph() throws {
        let documents = Counter()
        let container = editing(documents: documents)
        let editor = try container.require(Editor.self)
        let (first, second, graph) = try container.withObjectGraph(editor.graph) { container in
            (try container.require(Document.self), try container.require(Document.self), container.currentObjectGraph)
        }
        #expect(first === editor.document)
        #expect(second === editor.document)
        #expect(graph == editor.graph)
        #expect(documents.count == 1)
    }

    @Test func withObjectGraphSharesWhatItMakesAcrossItsResolvesAndRemembersIt() throws {
        let documents = Counter()
        let container = editing(documents: documents)
        let graph = try container.require(Editor.self).graph  // the editor and its document are gone
        let made = try container.withObjectGraph(graph) { container in
            let document = try container.require(Document.self)  // not held by anyone between the two resolves
            #expect(try container.require(Document.self) === document)
            #expect(try container.require(Editor.self).document === document)
            return document
        }
        #expect(documents.count == 2)
        #expect(container.currentObjectGraph == nil)
        #expect(try container.require(Document.self) !== made)  // a new graph
        #expect(try container.withObjectGraph(graph) { try $0.require(Document.self) } === made)
    }

    @Test func withObjectGraphMakesAgainWhatWasReleased() throws {
        let documents = Counter()
        let container = editing(documents: documents)
        let graph = try container.require(Editor.self).graph
        _ = try container.withObjectGraph(graph) { try $0.require(Document.self) }
        #expect(documents.count == 2)
    }

    @Test func withObjectGraphOfTheCurrentGraphRunsInIt() throws {
        let container = editing()
        container.register(Page.self) { r in
            let container = r as! Container
            let document = try r.require(Document.self)
            let again = try container.withObjectGraph(container.currentObjectGraph!) { try $0.require(Document.self) }
            #expect(again === document)
            return Page(graph: container.currentObjectGraph)
        }
        let editor = try container.require(Editor.self)
        #expect(editor.page.graph == editor.graph)
    }

    @Test func withObjectGraphInsideAFactorySetsTheOuterGraphAside() throws {
        let container = editing()
        let other = try container.require(Editor.self)
        container.register(Page.self) { r in
            let container = r as! Container
            let outer = container.currentObjectGraph
            let document = try r.require(Document.self)
            let inner = try container.withObjectGraph(other.graph) { container in
                (try container.require(Document.self), container.currentObjectGraph)
            }
            #expect(inner.0 === other.document)
            #expect(inner.1 == other.graph)
            #expect(container.currentObjectGraph == outer)
            #expect(try r.require(Document.self) === document)
            return Page(graph: outer)
        }
        let editor = try container.require(Editor.self)
        #expect(editor.page.graph == editor.graph)
        #expect(editor.document !== other.document)
    }

    @Test func withObjectGraphThatThrowsEndsItsGraph() throws {
        let container = editing()
        let graph = try container.require(Editor.self).graph
        #expect(throws: Boom.self) {
            try container.withObjectGraph(graph) { container in
                _ = try container.require(Document.self)
                throw Boom()
            }
        }
        #expect(container.currentObjectGraph == nil)
        let first = try container.require(Document.self)
        #expect(try container.require(Document.self) !== first)
    }

    @Test func withObjectGraphSurvivesRegistrationsReplacedInsideIt() throws {
        let container = Container()
        container.register(Document.self) { _ in Document() }
        try container.withObjectGraph(GraphIdentifier()) { container in
            let document = try container.require(Document.self)
            // The graph holds the replaced registrations' addresses: new registrations must not be taken for them
            // (a freed registration's memory is soon reused by the allocator for the next one of its size).
            for _ in 0..<100 {
                container.removeAll()
                container.register(Document.self) { _ in Document() }
                #expect(try container.require(Document.self) !== document)
            }
        }
    }

    @Test func customStorageSeesTheScopedGraph() throws {
        let spy = StorageSpy()
        let container = editing()
        container.register(Page.self) { _ in Page(graph: nil) }.inObjectScope(ObjectScope(storageFactory: { spy }))
        let graph = try container.require(Editor.self).graph
        spy.read.removeAll()
        spy.written.removeAll()
        _ = try container.withObjectGraph(graph) { try $0.require(Page.self) }
        #expect(spy.read == [graph])
        #expect(spy.written == [graph])
    }

    // MARK: restoreObjectGraph

    @Test func restoredGraphServesTheNextResolveOnly() throws {
        let container = editing()
        let editor = try container.require(Editor.self)
        container.restoreObjectGraph(editor.graph)
        #expect(container.currentObjectGraph == nil)  // not being resolved yet
        #expect(try container.require(Document.self) === editor.document)  // a top-level hit
        #expect(container.currentObjectGraph == nil)
        #expect(try container.require(Document.self) !== editor.document)

        container.restoreObjectGraph(editor.graph)
        let again = try container.require(Editor.self)  // the restored graph's editor, still alive
        #expect(again.graph == editor.graph)
        #expect(again.document === editor.document)
        #expect(try container.require(Editor.self).graph != editor.graph)
    }

    @Test func restoredGraphSurvivesRegistrationsReplacedBeforeItsResolve() throws {
        let container = Container()
        container.register(Document.self) { _ in Document() }
        let graph = GraphIdentifier()
        let document = try container.withObjectGraph(graph) { try $0.require(Document.self) }
        container.restoreObjectGraph(graph)
        container.removeAll()
        container.register(Document.self) { _ in Document() }  // most likely where the old registration was
        #expect(try container.require(Document.self) !== document)
        #expect(container.currentObjectGraph == nil)
    }

    @Test func secondRestoreReplacesTheFirst() throws {
        let container = editing()
        let first = try container.require(Editor.self)
        let second = try container.require(Editor.self)
        container.restoreObjectGraph(first.graph)
        container.restoreObjectGraph(second.graph)
        #expect(try container.require(Document.self) === second.document)
    }

    @Test func customStorageSeesTheRestoredGraph() {
        let spy = StorageSpy()
        let container = Container()
        container.register(Document.self) { _ in Document() }.inObjectScope(ObjectScope(storageFactory: { spy }))
        let graph = GraphIdentifier()
        container.restoreObjectGraph(graph)
        _ = container.resolve(Document.self)
        #expect(spy.read == [graph])
        #expect(spy.written == [graph])
        _ = container.resolve(Document.self)
        #expect(spy.read.count == 2)
        #expect(spy.read.last != graph)
    }

    // MARK: Memory

    @Test func rememberedGraphsAreBoundedByTheirLiveInstances() throws {
        let container = editing()
        // Graphs whose instances are all released: the registry sweeps them as it grows.
        for _ in 0..<5_000 { _ = try container.require(Editor.self) }
        #expect(_GraphRegistry.shared.count <= 2 * _GraphRegistry.minimumSweep)
        // Graphs whose instances live are kept, each restorable, however many there are.
        let held = try (0..<300).map { _ in try container.require(Editor.self) }
        #expect(_GraphRegistry.shared.count >= 300)
        for editor in held {
            #expect(try container.withObjectGraph(editor.graph) { try $0.require(Document.self) } === editor.document)
        }
        let graphs = held.map(\.graph)
        _ = consume held
        for _ in 0..<1_000 { _ = try container.require(Editor.self) }
        #expect(_GraphRegistry.shared.count <= 2 * _GraphRegistry.minimumSweep)
        #expect(graphs.allSatisfy { _GraphRegistry.shared.liveInstances(of: $0).isEmpty })
    }

    @Test func graphWithoutClassInstancesIsNotRemembered() {
        let container = Container()
        container.register(Int.self) { r in r.resolve(GraphIdentifier.self) == nil ? 0 : 1 }
        let graph = GraphIdentifier()
        #expect(container.withObjectGraph(graph) { $0.resolve(Int.self) } == 1)
        #expect(!_GraphRegistry.shared.remembers(graph))
    }

    @Test func unidentifiedGraphsAreNotRemembered() throws {
        let container = Container()
        container.register(Document.self) { _ in Document() }
        container.register(Page.self) { r in
            _ = try r.require(Document.self)
            return Page(graph: nil)
        }
        let before = _GraphRegistry.shared.count
        let pages = try (0..<100).map { _ in try container.require(Page.self) }
        #expect(_GraphRegistry.shared.count == before)
        #expect(pages.count == 100)
    }

    // MARK: Lazy and Provider

    @Test func lazyResolvesUnderTheIdentifierOfTheGraphItWasMadeIn() throws {
        final class Holder: @unchecked Sendable {
            let graph: GraphIdentifier
            let page: Lazy<Page>
            init(graph: GraphIdentifier, page: Lazy<Page>) {
                self.graph = graph
                self.page = page
            }
        }
        let container = editing()
        container.register(Holder.self) { r in
            Holder(graph: try r.require(GraphIdentifier.self), page: try r.require(Lazy<Page>.self))
        }
        let holder = try container.require(Holder.self)
        #expect(holder.page.instance.graph == holder.graph)
    }

    @Test func lazyAndProviderThroughASynchronizedResolverOnManyThreads() {
        let container = Container()
        let graphs = Collector<GraphIdentifier>()
        container.register(Page.self) { r in
            let graph = (r as! Container).currentObjectGraph!
            graphs.append(graph)
            return Page(graph: graph)
        }
        let resolver = container.synchronize()
        let failures = Collector<String>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<100 {
                guard let lazy = resolver.resolve(Lazy<Page>.self), let provider = resolver.resolve(Provider<Page>.self)
                else { return failures.append("not resolved") }
                if lazy.instance !== lazy.instance { failures.append("lazy made twice") }
                if provider.instance === provider.instance { failures.append("provider made once") }
            }
        }
        #expect(failures.all.isEmpty)
        #expect(graphs.all.count == 8 * 100 * 3)
        #expect(Set(graphs.all).count == graphs.all.count)  // each top-level resolve its own graph
    }
}
