// swift-tools-version: 6.1
// The stress runner and the leak probe of Assemblage, with their tests.
//
// A separate package, like Benchmarks/ and Docs/, so that the library's own manifest holds what a user builds: it
// depends on the library by path (`..`) and uses only its public API. Run from this folder:
//     swift run -c release assemblage-stress          # the release-build scenarios and probes (`--help`)
//     ASSEMBLAGE_HEAVY_TESTS=1 swift test             # the scenarios, bounded (a plain `swift test` skips them)
//     ./leak-probe.sh                                 # the leak probe under valgrind
import PackageDescription

let package = Package(
    name: "AssemblageStressRunner",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    dependencies: [
        .package(name: "Assemblage", path: "..")
    ],
    targets: [
        // Heap figures from the C library (mallinfo2 on glibc), for the memory probes.
        .target(name: "AssemblageStressSupport"),
        // The concurrent-mutation and request-scope scenarios and the memory and scaling probes, importing only the
        // public API, so that they run against a release build (`assemblage-stress`) and, bounded, in the tests.
        .target(
            name: "AssemblageStress",
            dependencies: [
                "AssemblageStressSupport",
                .product(name: "Assemblage", package: "Assemblage"),
                .product(name: "AssemblageProperties", package: "Assemblage"),
            ]),
        .executableTarget(name: "assemblage-stress", dependencies: ["AssemblageStress"]),
        // Builds and drops 10,000 containers; run under valgrind by leak-probe.sh.
        .executableTarget(
            name: "assemblage-leak-probe",
            dependencies: [
                .product(name: "Assemblage", package: "Assemblage")
            ]),
        // The ASSEMBLAGE_HEAVY_TESTS switch and the `.heavy` trait: the library's Tests/AssemblageTestSupport,
        // linked in (a symbolic link, as the examples link their integrations' tests), so that it is defined once.
        .target(name: "AssemblageTestSupport", path: "Tests/AssemblageTestSupport"),
        // The scenarios, bounded; they run only with ASSEMBLAGE_HEAVY_TESTS=1, as .ci/run sets it for its heavy-test
        // and thread-sanitizer steps of this package.
        .testTarget(
            name: "AssemblageStressTests",
            dependencies: [
                "AssemblageStress", "AssemblageTestSupport",
                .product(name: "Assemblage", package: "Assemblage"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// The upcoming language features of the library's manifest, for the same kind of targets: its libraries (here the
// stress module and the heavy switch). The runner, the probe and the tests keep the spelling apps write today.
for target in package.targets where target.type == .regular {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
