// The names and forms of Swinject 1.x and early 2.x that Swinject 2.10 still accepts: code written against them
// compiles against Assemblage unchanged. Each is another spelling of an Assemblage API, kept out of the
// documentation's main topics.

/// The Swinject 1.x name of ``Resolver``; code written against it compiles unchanged.
///
/// ```swift
/// func makeFeed(_ resolver: ResolverType) throws -> FeedViewModel {
///     try resolver.require(FeedViewModel.self)
/// }
/// ```
///
/// New code uses ``Resolver``; both names are the same protocol.
@_documentation(visibility: internal)
public typealias ResolverType = Resolver

/// The Swinject 1.x name of ``Assembly``; code written against it compiles unchanged.
///
/// ```swift
/// struct NetworkAssembly: AssemblyType {
///     func assemble(container: Container) {
///         container.register(HTTPClient.self) { _ in URLSessionClient() }
///     }
/// }
/// ```
///
/// New code uses ``Assembly``; both names are the same protocol.
@_documentation(visibility: internal)
public typealias AssemblyType = Assembly

extension Assembler {
    /// Creates an assembler over an optional container and applies `assemblies`.
    ///
    /// Kept for Swinject compatibility, where this form was marked as throwing; it never throws.
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in order.
    ///   - container: The container, or `nil` for a new one.
    @_documentation(visibility: internal)
    @available(*, deprecated, message: "Use Assembler(_:container:), which does not throw.")
    public convenience init(assemblies: [any Assembly], container: Container? = Container()) throws {
        self.init(assemblies, container: container ?? Container())
    }

    /// Creates an assembler whose container falls back to `parentAssembler`'s and applies `assemblies`.
    ///
    /// Kept for Swinject compatibility, where this form was marked as throwing; it never throws.
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in order.
    ///   - parentAssembler: The parent assembler.
    @_documentation(visibility: internal)
    @available(*, deprecated, message: "Use Assembler(_:parent:), which does not throw.")
    public convenience init(assemblies: [any Assembly], parentAssembler: Assembler?) throws {
        self.init(assemblies, parent: parentAssembler)
    }
}
