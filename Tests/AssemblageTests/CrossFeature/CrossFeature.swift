/// The namespace of the tests that use two features together (a request scope in a module tree, a decorated scoped
/// service, an async factory in a request), one file per pair, so that `swift test --filter CrossFeature` runs them
/// all. Each suite is declared in an extension of it.
enum CrossFeature {}
