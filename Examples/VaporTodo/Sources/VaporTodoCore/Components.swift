import Assemblage
import Logging
import Synchronization

/// Told when the application disposes one of its components; tests record the order.
///
/// ```swift
/// struct PrintingObserver: DisposalObserver {
///     func didDispose(_ component: String) { print("disposed", component) }
/// }
/// ```
public protocol DisposalObserver: Sendable {
    /// Called once a component has released its resources.
    ///
    /// - Parameter component: `"TodoStore"`, `"AuditLog"` or `"RequestTrace <request id>"`.
    func didDispose(_ component: String)
}

/// Records every disposal in order (for the tests).
///
/// ```swift
/// let recorder = RecordingDisposalObserver()
/// try configure(app, observer: recorder)
/// ```
public final class RecordingDisposalObserver: DisposalObserver {
    private let recorded = Mutex<[String]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Appends the component to ``disposals``.
    ///
    /// - Parameter component: The component disposed.
    public func didDispose(_ component: String) { recorded.withLock { $0.append(component) } }

    /// The components disposed so far, in order.
    public var disposals: [String] { recorded.withLock { $0 } }
}

/// A todo.
public struct Todo: Codable, Sendable, Equatable {
    /// Its identifier, unique in the store.
    public var id: Int
    /// Its title.
    public var title: String
    /// Whether it is done.
    public var completed: Bool
}

/// The todos of every user, in memory: one for the application, disposed at shutdown (after the audit log,
/// which was made after it).
///
/// ```swift
/// let todo = await store.add(title: "Try Vapor", for: UserID("ada"))
/// ```
public actor TodoStore: AsyncDisposable {
    private var todos: [UserID: [Todo]] = [:]
    private var nextID = 1
    private let observer: any DisposalObserver

    /// Creates an empty store.
    ///
    /// - Parameter observer: Told when the store is disposed.
    public init(observer: any DisposalObserver) { self.observer = observer }

    /// The user's todos, oldest first.
    ///
    /// - Parameter user: The user.
    /// - Returns: The todos.
    public func list(for user: UserID) -> [Todo] { todos[user] ?? [] }

    /// Adds a todo for the user.
    ///
    /// - Parameters:
    ///   - title: Its title.
    ///   - user: The user.
    /// - Returns: The todo.
    public func add(title: String, for user: UserID) -> Todo {
        let todo = Todo(id: nextID, title: title, completed: false)
        nextID += 1
        todos[user, default: []].append(todo)
        return todo
    }

    /// Tells the observer (a real store would close its connections here).
    public func dispose() async { observer.didDispose("TodoStore") }
}

/// The audit trail: changes buffered in memory, written out (here: counted) when the application shuts down.
///
/// ```swift
/// audit.record("created 7", by: user)
/// ```
public final class AuditLog: AsyncDisposable, Sendable {
    private let buffer = Mutex<[String]>([])
    private let store: TodoStore
    private let observer: any DisposalObserver
    private let logger: Logger

    /// Creates the log.
    ///
    /// - Parameters:
    ///   - store: The store it audits (made first, so disposed after the log).
    ///   - observer: Told when the log is disposed.
    ///   - logger: Where the flush is logged.
    public init(store: TodoStore, observer: any DisposalObserver, logger: Logger) {
        self.store = store
        self.observer = observer
        self.logger = logger
    }

    /// Buffers a change.
    ///
    /// - Parameters:
    ///   - change: What changed.
    ///   - user: Who changed it.
    public func record(_ change: String, by user: UserID) {
        buffer.withLock { $0.append("\(user): \(change)") }
    }

    /// Flushes the buffer and tells the observer.
    public func dispose() async {
        let count = buffer.withLock { buffer in
            defer { buffer.removeAll() }
            return buffer.count
        }
        logger.debug("audit log flushed", metadata: ["entries": "\(count)"])
        observer.didDispose("AuditLog")
    }
}

/// The trace of one request: made first in the request's scope, so disposed last when the scope ends.
///
/// ```swift
/// _ = try req.scope.require(RequestTrace.self)
/// ```
public final class RequestTrace: Disposable, Sendable {
    /// The request traced.
    public let requestID: RequestID
    private let observer: any DisposalObserver

    /// Starts a trace.
    ///
    /// - Parameters:
    ///   - requestID: The request.
    ///   - observer: Told when the trace is disposed.
    public init(requestID: RequestID, observer: any DisposalObserver) {
        self.requestID = requestID
        self.observer = observer
    }

    /// Tells the observer; called once, when the request's scope ends.
    public func dispose() { observer.didDispose("RequestTrace \(requestID)") }
}

/// What a request does with the todos of its user: made once per request, for that request's user.
///
/// ```swift
/// let todos = try await req.scope.resolveAsync(TodoService.self).list()
/// ```
public struct TodoService: Sendable {
    /// The user the service was made for.
    public let user: UserID
    /// The request it serves.
    public let requestID: RequestID
    let store: TodoStore
    let audit: AuditLog

    /// The user's todos.
    ///
    /// - Returns: The todos, oldest first.
    public func list() async -> [Todo] { await store.list(for: user) }

    /// Adds a todo for the user and audits it.
    ///
    /// - Parameter title: Its title.
    /// - Returns: The todo.
    public func add(title: String) async -> Todo {
        let todo = await store.add(title: title, for: user)
        audit.record("created \(todo.id) in \(requestID)", by: user)
        return todo
    }
}
