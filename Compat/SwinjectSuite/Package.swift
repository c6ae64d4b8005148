// swift-tools-version: 6.0
// Swinject 2.10.0's own test suite, run against Assemblage with only the import changed.
//
// None of Swinject's code is committed here: `scripts/swinject-suite.sh` takes the test files from the Swinject
// checkout that SwiftPM resolves for the benchmarks package, rewrites `import Swinject` to `import Assemblage`
// and runs `swift test` in this package.
//
// Swift 5 language mode: on Linux the suite does not compile in Swift 6 mode even against Swinject itself
// (its tests capture mutable locals in Dispatch's `@Sendable` closures), so Swift 5 mode is the mode in which
// Swinject's own suite runs here. `Support/` holds the one piece of Apple's XCTest that swift-corelibs-xctest
// lacks (`XCTMeasureOptions`, used by `ContainerTests.Speed.swift`); the script copies it in beside the tests.
import PackageDescription

let package = Package(
    name: "SwinjectSuite",
    dependencies: [
        .package(name: "Assemblage", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "SwinjectTests",
            dependencies: [.product(name: "Assemblage", package: "Assemblage")]
        )
    ],
    swiftLanguageModes: [.v5]
)
