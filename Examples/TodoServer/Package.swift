// swift-tools-version: 6.1
// A todo API on Hummingbird 2 and SQLite, wired with Assemblage: per-request scopes, a connection pool disposed at
// shutdown, configuration from the environment and a JSON file, swift-log logging. See README.md.
import PackageDescription

let package = Package(
    name: "TodoServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "todo-server", targets: ["todo-server"]),
        // The load tester, apart so that building the server compiles no HTTP client and no TLS library.
        .executable(name: "todo-load-test", targets: ["todo-load-test"]),
    ],
    dependencies: [
        // Assemblage from this repository, with its opt-in integrations: Hummingbird (request scopes, the
        // container's shutdown in the application's services), swift-configuration (a ConfigReader as a property
        // source), swift-log and swift-service-lifecycle.
        .package(
            name: "Assemblage", path: "../..",
            traits: ["Hummingbird", "ServiceLifecycle", "Configuration", "Logging"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["JSON"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The application: domain, SQLite repository and pool, configuration, the container, routes, middleware.
        .target(
            name: "TodoServerCore",
            dependencies: [
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "AssemblageHummingbird", package: "Assemblage"),
                .product(name: "AssemblageProperties", package: "Assemblage"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // Assemblage's build-time graph check: this target holds the registrations and their resolves (as a
            // library target, a resolve it cannot match is a note, not an error).
            plugins: [.plugin(name: "AssemblageGraphCheck", package: "Assemblage")]
        ),
        // A bounded HTTP load generator for loopback (AsyncHTTPClient): used by `todo-load-test` and by the tests.
        .target(
            name: "TodoLoadTest",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The server: nothing of AsyncHTTPClient, NIOSSL or BoringSSL is compiled for it.
        .executableTarget(
            name: "todo-server",
            dependencies: [
                "TodoServerCore",
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The graph check of the whole program (this target and TodoServerCore's registrations).
            plugins: [.plugin(name: "AssemblageGraphCheck", package: "Assemblage")]
        ),
        // The load tester: starts the server in its own process on a free loopback port and loads it.
        .executableTarget(
            name: "todo-load-test",
            dependencies: [
                "TodoServerCore",
                "TodoLoadTest",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TodoServerTests",
            dependencies: [
                "TodoServerCore",
                "TodoLoadTest",
                .product(name: "AssemblageProperties", package: "Assemblage"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The Hummingbird integration's own tests and the Hummingbird code of the "Server Apps" article: the files
        // of the repository's Tests/AssemblageHummingbirdTests (a symbolic link), compiled here, where Hummingbird
        // is built anyway, so that CI compiles it once. `Hummingbird` and `Configuration` are the traits those
        // files are inside `#if` of.
        .testTarget(
            name: "AssemblageHummingbirdTests",
            dependencies: [
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "AssemblageHummingbird", package: "Assemblage"),
                .product(name: "AssemblageProperties", package: "Assemblage"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.define("Hummingbird"), .define("Configuration")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
