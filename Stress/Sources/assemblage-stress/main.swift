// assemblage-stress: the release-mode stress and reliability runner (concurrent mutation, request scopes, probes).
//
// From the Stress/ package of the repository:
//
//     swift run -c release assemblage-stress                               # what CI runs: 8 × 1,000,000 × 20 runs
//     swift run -c release assemblage-stress --runs 3 --resolves 200000    # a shorter run
//     swift run -c release assemblage-stress --help
//
// Users run release builds, and an optimised build reorders what a debug build does not, so this is where a
// use-after-free on the resolve path shows. Each run of each scenario is a child process (this executable with
// `--child-scenario`), so a crash is counted with its signal and the remaining runs still happen; each probe
// is a child too (`--child-probe`), so resident memory and "cold" mean that probe alone.
import AssemblageStress
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
    print("assemblage-stress needs macOS 15 or later (Synchronization)")
    exit(2)
}
exit(Runner(options: options).main())
