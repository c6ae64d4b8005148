/// A module that stands in for `ReplacedAssembly`, usually in tests (Knit's `FakeAssembly`): it replaces that module,
/// has no dependencies unless it declares some, and can create itself.
///
/// ```swift
/// struct FakeStorageModule: FakeAssembly {
///     typealias ReplacedAssembly = StorageModule
///     func assemble(container: Container) {
///         container.register(Storage.self) { _ in InMemoryStorage() }
///     }
/// }
/// extension StorageModule: DefaultModuleAssemblyOverride {
///     typealias OverrideType = FakeStorageModule
/// }
/// ```
///
/// It is a ``AutoInitModuleAssembly`` whose ``ModuleAssembly/replaces`` is `[ReplacedAssembly.self]`.
public protocol FakeAssembly: AutoInitModuleAssembly {
    /// The module this one replaces.
    associatedtype ReplacedAssembly: ModuleAssembly
}

extension FakeAssembly {
    /// The replaced module.
    public static var replaces: [any ModuleAssembly.Type] { [ReplacedAssembly.self] }

    /// No dependencies.
    public static var dependencies: [any ModuleAssembly.Type] { [] }
}
