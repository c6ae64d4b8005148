// swift-tools-version: 6.1
import PackageDescription

// Opt-in integrations, gated by package traits as apple/swift-configuration gates its own optional dependencies.
// No trait is enabled by default, so the `Assemblage` library depends on nothing but the toolchain for a user who
// does not ask for one: `.package(url: "…/Assemblage", from: "…", traits: ["Configuration"])`. The integration
// code lives in Sources/Assemblage/Integrations/ and (for swift-configuration) Sources/AssemblageProperties/, inside
// `#if Configuration` (and so on) blocks.
let traits: Set<Trait> = [
    .trait(
        name: "Configuration",
        description: "Properties read through swift-configuration's ConfigReader and its providers."),
    .trait(name: "Logging", description: "Logging through swift-log."),
    .trait(
        name: "ServiceLifecycle",
        description: "Running the services a container built in a swift-service-lifecycle ServiceGroup.",
        enabledTraits: ["Logging"]),
    // The server-framework integrations: each builds its own library target (AssemblageHummingbird,
    // AssemblageVapor) and brings its framework only when enabled; SwiftPM resolves neither framework for a
    // package that enables neither trait (measured: see the "Server Apps" article).
    .trait(
        name: "Hummingbird",
        description: "Request scopes and container shutdown for Hummingbird 2 (product AssemblageHummingbird).",
        enabledTraits: ["ServiceLifecycle"]),
    .trait(name: "Vapor", description: "Request scopes and container shutdown for Vapor 4 (product AssemblageVapor)."),
    .default(enabledTraits: []),
]

/// The integrations' products, each only when its trait is enabled: the library and its integration tests use them.
let integrationProducts: [Target.Dependency] = [
    .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
    .product(
        name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"])),
    .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"])),
]

/// swift-configuration, for the properties library's `ConfigReaderPropertySource`, only with its trait.
let configurationProduct: [Target.Dependency] = [
    .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"]))
]

/// The server-framework integrations' dependencies, each only when its trait is enabled.
let hummingbirdProducts: [Target.Dependency] = [
    .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Hummingbird"])),
]
let vaporProducts: [Target.Dependency] = [
    .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"]))
]

let package = Package(
    name: "Assemblage",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "Assemblage", targets: ["Assemblage"]),
        // Configuration properties (JSON, plist, environment, swift-configuration sources) injected into
        // registrations: a library of its own, as Swinject keeps its property loader apart.
        .library(name: "AssemblageProperties", targets: ["AssemblageProperties"]),
        .library(name: "AssemblageScenes", targets: ["AssemblageScenes"]),
        .library(name: "AssemblageTesting", targets: ["AssemblageTesting"]),
        // Server-framework integrations: add the product and enable its trait, e.g.
        // `.package(url: "…/Assemblage", from: "…", traits: ["Hummingbird"])`.
        .library(name: "AssemblageHummingbird", targets: ["AssemblageHummingbird"]),
        .library(name: "AssemblageVapor", targets: ["AssemblageVapor"]),
        // Opt-in build-time graph check: add `plugins: [.plugin(name: "AssemblageGraphCheck", package: "Assemblage")]`
        // to a target. Nothing of its tool is built for a package whose targets do not use it.
        .plugin(name: "AssemblageGraphCheck", targets: ["AssemblageGraphCheck"]),
        // No product for the demo: SwiftPM plans the products of every package in a graph, and a product whose
        // target uses the graph-check plugin would make every package that depends on Assemblage build the
        // plugin's tool. `swift run assemblage-demo` still works from this package, whose executable targets are
        // products of their own.
    ],
    traits: traits,
    dependencies: [
        // Used only through the trait-conditional target dependencies below: nothing of them is built unless a
        // trait asks for it.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // C11 atomics and thread-local storage for the lock-free read path. Internal: not a product.
        .target(name: "_AssemblageShims"),
        .target(name: "Assemblage", dependencies: ["_AssemblageShims"] + integrationProducts),
        // Configuration properties: values, sources, loaders and their parsers, decoding, and the Assembler's
        // `propertyLoaders:`. The only part of Assemblage that uses Foundation beyond FoundationEssentials.
        .target(name: "AssemblageProperties", dependencies: ["Assemblage"] + configurationProduct),
        // Scene modules and navigation: a separate target so that a server never links it.
        .target(name: "AssemblageScenes", dependencies: ["Assemblage"]),
        // Helpers for tests of apps: a Swift Testing trait and an XCTest-friendly helper (uses the toolchain's
        // Testing module).
        .target(name: "AssemblageTesting", dependencies: ["Assemblage"]),
        .executableTarget(
            name: "assemblage-demo", dependencies: ["Assemblage", "AssemblageProperties", "AssemblageScenes"],
            resources: [.copy("settings.json")],
            plugins: ["AssemblageGraphCheck"]),
        // The build-time graph check: a lexer, a scanner of the registration DSL and the checker (no
        // dependencies), the tool that runs it, and the build-tool plugin that runs the tool.
        .target(name: "AssemblageGraphCheckKit"),
        .executableTarget(name: "assemblage-graph-check", dependencies: ["AssemblageGraphCheckKit"]),
        .plugin(name: "AssemblageGraphCheck", capability: .buildTool(), dependencies: ["assemblage-graph-check"]),
        // The test targets that hold the articles' code (in their Documentation/ folders) use the graph-check
        // plugin, so that every article's code builds with it without a false error; code broken on purpose carries
        // `// assemblage-check: ignore`. Test targets are never built for a package that depends on this one, so
        // this costs such a package nothing.
        .testTarget(
            name: "AssemblageTests", dependencies: ["Assemblage", "AssemblageProperties"],
            resources: [.copy("Fixtures")],
            plugins: ["AssemblageGraphCheck"]),
        // Tests of the trait-gated integrations: every file is wrapped in `#if Configuration` (and so on), so the
        // target is empty unless the traits are enabled (`swift test --enable-all-traits --filter
        // AssemblageIntegrationTests`, as .ci/run does).
        .testTarget(
            name: "AssemblageIntegrationTests",
            dependencies: ["Assemblage", "AssemblageProperties"] + integrationProducts + configurationProduct,
            plugins: ["AssemblageGraphCheck"]),
        // The server-framework integrations: each file inside `#if Hummingbird` (or `#if Vapor`), so a target is
        // empty unless its trait is enabled. Their tests run a server on 127.0.0.1 and load it with AsyncHTTPClient:
        // `swift test --traits Hummingbird,Configuration --filter AssemblageHummingbirdTests` here; CI runs them from
        // Examples/TodoServer and Examples/VaporTodo, which link these folders in, so that it compiles each
        // framework once.
        .target(name: "AssemblageHummingbird", dependencies: ["Assemblage"] + hummingbirdProducts),
        .target(name: "AssemblageVapor", dependencies: ["Assemblage"] + vaporProducts),
        .testTarget(
            name: "AssemblageHummingbirdTests",
            dependencies: [
                "AssemblageHummingbird", "Assemblage", "AssemblageProperties",
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
            ] + hummingbirdProducts),
        .testTarget(
            name: "AssemblageVaporTests",
            dependencies: [
                "AssemblageVapor", "Assemblage",
                .product(name: "VaporTesting", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Vapor"])),
            ] + vaporProducts),
        .testTarget(
            name: "AssemblageScenesTests", dependencies: ["AssemblageScenes"], plugins: ["AssemblageGraphCheck"]),
        .testTarget(
            name: "AssemblageTestingTests", dependencies: ["AssemblageTesting", "Assemblage"],
            plugins: ["AssemblageGraphCheck"]),
        // Its fixtures are resources, not sources: the plugin does not read them, so their deliberate errors stay
        // for the tests.
        .testTarget(
            name: "AssemblageGraphCheckTests", dependencies: ["AssemblageGraphCheckKit", "Assemblage"],
            resources: [.copy("Fixtures")], plugins: ["AssemblageGraphCheck"]),
        // The demo's module graph, validated by the tests that the graph-check plugin generates for its roots.
        .testTarget(
            name: "AssemblageDemoTests", dependencies: ["assemblage-demo", "Assemblage", "AssemblageTesting"],
            plugins: ["AssemblageGraphCheck"]),
        // Stress, cycles, bad input, memory and fuzzing: bounded tests. The ones that take seconds (fuzzing, a million
        // resolves, sweeps) run, and every test prints its figure, only with ASSEMBLAGE_HEAVY_TESTS=1 (.ci/run).
        .testTarget(
            name: "AssemblageReliabilityTests",
            dependencies: ["Assemblage", "AssemblageProperties", "AssemblageTestSupport"]),
        // The ASSEMBLAGE_HEAVY_TESTS switch and the `.heavy` trait, shared with the stress package (Stress/, which
        // links the folder in), whose tests are heavy too. The stress runner and the leak probe live there.
        .target(name: "AssemblageTestSupport", path: "Tests/AssemblageTestSupport"),
    ],
    swiftLanguageModes: [.v6]
)

// The upcoming language features the Swift server libraries turn on, for the package's libraries: existentials
// spelled `any P`, imports internal unless they say otherwise (a module's public API names what it re-exposes),
// and members visible only from modules a file imports itself. Tests, the demo and the tools keep the spelling
// users write today, so that the articles' code (compiled in the tests) reads as an app's does.
for target in package.targets where target.type == .regular {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
