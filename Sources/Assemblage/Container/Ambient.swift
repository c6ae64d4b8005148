// The core's hook for the ambient container (the public switches are in Globals/Container+Globals.swift).

/// The task-local switch behind ``Container/root``: the single source of truth for "which container does
/// this task resolve from by default". Anything that offers a task-scoped override (a test trait, a
/// `withRoot`-style helper) binds this value rather than a task-local of its own, so that all of them agree.
enum _Ambient {
    /// The innermost ``Container/withRoot(_:_:)`` (or ``Container/withRoot(_:_:)``) container of the
    /// current task, if any.
    @TaskLocal static var container: Container?
}
