import Assemblage
import Foundation

/// Records disposals, in order, from any thread.
final class DisposalLog: @unchecked Sendable {  // @unchecked: `names` is guarded by `lock`.
    private let lock = NSLock()
    private var names: [String] = []

    func record(_ name: String) { lock.withLock { names.append(name) } }
    var entries: [String] { lock.withLock { names } }
    func count(of name: String) -> Int { lock.withLock { names.filter { $0 == name }.count } }
}

/// A request value, provided per scope.
struct RequestValue: Sendable, Equatable {
    let id: Int
}

/// A service that disposes synchronously and records it.
final class Tracked: Disposable, @unchecked Sendable {  // @unchecked: immutable but for `disposals`.
    let name: String
    let log: DisposalLog
    let dependencies: [Tracked]
    private(set) var disposals = 0

    init(_ name: String, log: DisposalLog, dependencies: [Tracked] = []) {
        self.name = name
        self.log = log
        self.dependencies = dependencies
    }

    func dispose() throws {
        disposals += 1
        log.record(name)
    }
}

/// A service that can only be disposed asynchronously.
final class AsyncTracked: AsyncDisposable, Sendable {
    let name: String
    let log: DisposalLog

    init(_ name: String, log: DisposalLog) {
        self.name = name
        self.log = log
    }

    func dispose() async throws {
        await Task.yield()
        log.record(name)
    }
}

/// A service whose disposal fails.
final class FailingDisposal: Disposable, Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "socket already closed" }
    }

    func dispose() throws { throw Failure() }
}

/// What an app-level service sees of the request it was built for.
final class Audit: Sendable {
    let request: RequestValue
    init(request: RequestValue) { self.request = request }
}

/// Objects watched without being kept alive, to count later how many still are.
struct AliveWatch<Object: AnyObject> {
    private final class Reference {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }
    private var references: [Reference] = []

    mutating func watch(_ object: Object) { references.append(Reference(object)) }
    var alive: Int { references.filter { $0.object != nil }.count }
}
