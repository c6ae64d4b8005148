// swift-tools-version: 6.1
// A small todo API on Vapor 4, wired with Assemblage's Vapor integration: a request scope per request, request
// values (the request id, the user) provided to it, the container shut down with the application. See README.md.
import PackageDescription

let package = Package(
    name: "VaporTodo",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vapor-todo", targets: ["vapor-todo"])
    ],
    dependencies: [
        // Assemblage from this repository, with its Vapor integration (trait Vapor, product AssemblageVapor).
        .package(name: "Assemblage", path: "../..", traits: ["Vapor"]),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The application: its registrations, the scope middleware and the routes.
        .target(
            name: "VaporTodoCore",
            dependencies: [
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "AssemblageVapor", package: "Assemblage"),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
        .executableTarget(
            name: "vapor-todo",
            dependencies: ["VaporTodoCore", .product(name: "Vapor", package: "vapor")]
        ),
        // On 127.0.0.1 only, loaded with AsyncHTTPClient.
        .testTarget(
            name: "VaporTodoTests",
            dependencies: [
                "VaporTodoCore",
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "AssemblageVapor", package: "Assemblage"),
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The Vapor integration's own tests and the Vapor code of the "Server Apps" article: the files of the
        // repository's Tests/AssemblageVaporTests (a symbolic link), compiled here, where Vapor is built anyway, so
        // that CI compiles Vapor once. `Vapor` is the trait those files are inside `#if` of.
        .testTarget(
            name: "AssemblageVaporTests",
            dependencies: [
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "AssemblageVapor", package: "Assemblage"),
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: [.define("Vapor")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
