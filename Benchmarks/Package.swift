// swift-tools-version: 6.0
// Benchmarks for Assemblage, kept in their own package so that users of the library never build
// Swinject or the harness. Run from this folder: `swift run -c release assemblage-benchmarks`.
import PackageDescription

let package = Package(
    name: "AssemblageBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Assemblage", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject.git", exact: "2.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "assemblage-benchmarks",
            dependencies: [
                "BenchmarkSupport",
                "ScaleFixtures",
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        // Heap statistics from the C library (mallinfo2 on glibc), for the memory figures.
        .target(name: "BenchmarkSupport"),
        // Generated types, modules and assemblies of the scale workloads (scripts/generate-scale-fixtures.py).
        .target(
            name: "ScaleFixtures",
            dependencies: [
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
