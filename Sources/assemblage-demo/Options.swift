import Assemblage
import AssemblageProperties

/// The demo's command line, parsed: unknown flags are an error (usage, exit status 2), not ignored.
struct DemoOptions: Equatable {
    /// How `--graph` prints the dependency graph: `--graph=mermaid` (also plain `--graph`), `--graph=dot`,
    /// `--graph=json`.
    enum GraphFormat: String, CaseIterable {
        case mermaid, dot, json
    }

    var help = false
    var mock = false
    var interactive = false
    /// `--graph` or `--graph=FORMAT`: print the graph (and exit).
    var graph: GraphFormat?
    /// `--validate`: print the validation report (and exit).
    var validate = false
    /// `--broken`: with `--validate` or `--graph`, validate a copy of the app missing a registration.
    var broken = false
    /// `--profile PATH` (or `--profile=PATH`): write the startup profile there, a folder or a `.json`, `.svg` or
    /// `.txt` file.
    var profile: String?

    /// Whether the run only prints diagnostics and exits.
    var diagnosticsOnly: Bool { graph != nil || validate }

    /// The options `arguments` (without the program name) ask for, or the message for what is wrong.
    static func parse(_ arguments: [String]) -> Result<DemoOptions, DemoOptionsError> {
        var options = DemoOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": options.help = true
            case "--mock": options.mock = true
            case "--interactive": options.interactive = true
            case "--graph": options.graph = .mermaid
            case "--validate": options.validate = true
            case "--broken": options.broken = true
            case "--profile":
                guard let path = remaining.popFirst(), !path.hasPrefix("--") else {
                    return .failure(DemoOptionsError(message: "--profile takes a folder or a .json, .svg or .txt file"))
                }
                options.profile = path
            default:
                if argument.hasPrefix("--profile=") {
                    let path = String(argument.dropFirst("--profile=".count))
                    guard !path.isEmpty else {
                        return .failure(
                            DemoOptionsError(message: "--profile takes a folder or a .json, .svg or .txt file"))
                    }
                    options.profile = path
                    continue
                }
                if argument.hasPrefix("--graph=") {
                    let value = String(argument.dropFirst("--graph=".count))
                    guard let format = GraphFormat(rawValue: value) else {
                        let formats = GraphFormat.allCases.map(\.rawValue).joined(separator: ", ")
                        return .failure(DemoOptionsError(message: "--graph takes one of \(formats), not \"\(value)\""))
                    }
                    options.graph = format
                } else {
                    return .failure(DemoOptionsError(message: "unknown flag \"\(argument)\""))
                }
            }
        }
        if options.profile != nil, options.diagnosticsOnly {
            return .failure(
                DemoOptionsError(message: "--profile records the app's start, which --validate and --graph skip"))
        }
        if options.broken, !options.diagnosticsOnly {
            return .failure(DemoOptionsError(message: "--broken only changes what --validate and --graph check"))
        }
        return .success(options)
    }
}

/// What is wrong with the demo's command line.
struct DemoOptionsError: Error, Equatable {
    let message: String
}

/// A service of the `--broken` variant: it needs an `AuditStore`, which nothing registers.
final class AuditTrail: Sendable {
    init(store: AuditStore) {}
}

/// Never registered: what `--broken` leaves out.
final class AuditStore: Sendable {}

/// Validates the app's graph in a sandbox, as `--validate` and `--graph` print it; with `broken`, a copy that
/// also registers `AuditTrail` without the `AuditStore` it needs. (Assembled without running `loaded` hooks, so
/// nothing but the report or the graph is printed.)
func validateDemoApp(broken: Bool) -> ValidationReport {
    let container = Container(label: "app")
    try? container.applyPropertyLoader(JSONPropertyLoader(bundle: .module, name: "settings"))
    for assembly: Assembly in [ServiceAssembly(), ManagerAssembly(), LoggerAssembly()] {
        assembly.assemble(container: container)
    }
    if broken {
        container.register(AuditTrail.self) { r in
            AuditTrail(store: try r.require(AuditStore.self))  // assemblage-check: ignore (missing on purpose)
        }
    }
    var options = ValidationOptions()
    options.sample { r in _ = try r.require(ProfileViewModel.self, argument: 1) }
    return container.validate(options)
}
