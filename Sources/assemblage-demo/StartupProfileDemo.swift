import Assemblage
import Foundation

/// Runs `start`, the app's start; with `--profile PATH`, records it as a startup profile, writes the profile to
/// `path` and prints its text report.
func recordingStartup(to path: String?, _ start: () -> Void) {
    guard let path else { return start() }
    let profile = StartupProfile.record(start)
    do {
        let written = try profile.write(to: URL(fileURLWithPath: path))
        section("Startup profile (--profile)")
        print(
            profile.text(top: 5).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n"))
        print("  written: " + written.map(\.path).joined(separator: ", "))
    } catch {
        FileHandle.standardError.write(Data("assemblage-demo: \(error)\n".utf8))
        exit(1)
    }
}
