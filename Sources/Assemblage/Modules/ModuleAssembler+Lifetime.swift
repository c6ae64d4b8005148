// A module graph's end, and the container that stands for the whole graph where an integration takes one.

extension ModuleAssembler {
    /// The container that stands for the whole graph: ``resolver`` as a ``Container``.
    ///
    /// Its resolves search every module's scope, as ``resolver``'s do; its request scopes are
    /// ``makeScope(label:)``'s; shutting it down shuts the modules down (see ``shutdown()``). Pass it where an
    /// integration takes a container — a request-scope middleware, a service group's container service:
    ///
    /// ```swift
    /// let assembler = try ModuleAssembler([AppModule()])
    /// let group = ServiceGroup(
    ///     services: [ContainerService(assembler.container), server], logger: logger)
    /// ```
    ///
    /// Registering into it after assembly adds to what the graph's resolver sees, as `postAssemble` does; no
    /// module sees those registrations.
    public var container: Container { root }

    /// Shuts the graph down for good: disposes what the assembler's own container made, then what each module
    /// made — the modules that depend on others before their dependencies, each in reverse creation order — and
    /// makes every later resolve, through the assembler or any module, fail with
    /// ``ResolutionError/Code/containerShutDown``.
    ///
    /// ```swift
    /// try await assembler.shutdown()   // FeedModule's instances, then NetworkModule's, then StorageModule's
    /// ```
    ///
    /// A parent assembler's modules are the parent's to shut down. Calling it again does nothing.
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw, in any module; the others were disposed all
    ///   the same.
    public func shutdown() async throws(DisposalError) { try await root.shutdown() }

    /// Shuts the graph down synchronously, for good (see the `async` form).
    ///
    /// Instances that can only be disposed asynchronously are not disposed: each is reported in the error with
    /// ``DisposalError/Failure/requiresAsyncDisposal`` set. Prefer `try await assembler.shutdown()`.
    ///
    /// ```swift
    /// try assembler.shutdownSynchronously()
    /// ```
    ///
    /// - Throws: ``DisposalError`` listing every disposer that threw or could not run.
    @available(*, noasync, message: "in an async context, use `try await shutdown()`, which awaits async disposers")
    public func shutdownSynchronously() throws(DisposalError) { try root.shutdownSynchronously() }
}
