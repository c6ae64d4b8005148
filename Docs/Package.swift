// swift-tools-version: 6.1
// Builds Assemblage's documentation with the Swift-DocC plugin.
//
// A separate package, so that users of Assemblage never resolve the plugin: it depends on the library by
// path (`..`). Run `scripts/build-docs.sh` from the repository root rather than this package directly.
import PackageDescription

let package = Package(
    name: "AssemblageDocs",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    dependencies: [
        // With every integration trait, so that the documentation covers the integrations.
        .package(name: "Assemblage", path: "..", traits: ["Configuration", "Logging", "ServiceLifecycle"]),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Links both documented libraries, so that the plugin sees them as this package's dependencies.
        .target(
            name: "AssemblageDocs",
            dependencies: [
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "AssemblageProperties", package: "Assemblage"),
                .product(name: "AssemblageScenes", package: "Assemblage"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
