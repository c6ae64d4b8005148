import Assemblage
import Testing

@testable import assemblage_demo

@Suite struct DemoOptionsTests {
    @Test func parsesEveryKnownFlag() throws {
        let options = try DemoOptions.parse(["--mock", "--interactive"]).get()
        #expect(options.mock && options.interactive && !options.diagnosticsOnly)
        #expect(try DemoOptions.parse(["-h"]).get().help)
        #expect(try DemoOptions.parse([]).get() == DemoOptions())
    }

    @Test func profileTakesAPath() throws {
        #expect(try DemoOptions.parse(["--profile", "out"]).get().profile == "out")
        #expect(try DemoOptions.parse(["--profile=out/p.svg", "--mock"]).get().profile == "out/p.svg")
        #expect(try DemoOptions.parse([]).get().profile == nil)
    }

    @Test(arguments: [["--profile"], ["--profile", "--mock"], ["--profile="], ["--profile", "p", "--validate"]])
    func profileWithoutAPathOrWithDiagnosticsIsAnError(arguments: [String]) {
        guard case .failure(let error) = DemoOptions.parse(arguments) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.message.hasPrefix("--profile "))
    }

    @Test func unknownFlagIsAnErrorNamingIt() {
        #expect(
            DemoOptions.parse(["--mock", "--bogus"]) == .failure(DemoOptionsError(message: "unknown flag \"--bogus\"")))
    }

    @Test func graphTakesAFormat() throws {
        #expect(try DemoOptions.parse(["--graph"]).get().graph == .mermaid)
        #expect(try DemoOptions.parse(["--graph=mermaid"]).get().graph == .mermaid)
        #expect(try DemoOptions.parse(["--graph=dot"]).get().graph == .dot)
        #expect(try DemoOptions.parse(["--graph=json"]).get().graph == .json)
        #expect(try DemoOptions.parse(["--graph=json", "--broken"]).get().broken)
    }

    @Test(arguments: ["svg", "JSON", ""])
    func anUnknownGraphFormatIsAnErrorListingTheFormats(format: String) {
        #expect(
            DemoOptions.parse(["--graph=\(format)"])
                == .failure(DemoOptionsError(message: "--graph takes one of mermaid, dot, json, not \"\(format)\"")))
    }

    @Test func graphAndValidateTogetherAskForBoth() throws {
        let options = try DemoOptions.parse(["--graph", "--validate"]).get()
        #expect(options.graph == .mermaid && options.validate && options.diagnosticsOnly)
    }

    @Test func brokenAloneIsAnError() {
        #expect(
            DemoOptions.parse(["--broken"])
                == .failure(DemoOptionsError(message: "--broken only changes what --validate and --graph check")))
    }

    @Test func appGraphIsValidAndBrokenCopyReportsTheMissingStore() {
        #expect(validateDemoApp(broken: false).isValid)
        let broken = validateDemoApp(broken: true)
        #expect(!broken.isValid)
        #expect(broken.description.contains("No registration for AuditStore"))
        #expect(broken.description.contains("AuditTrail → AuditStore"))
    }
}
