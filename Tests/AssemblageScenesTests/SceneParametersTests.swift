import AssemblageScenes
import Foundation
import Testing

@Suite struct SceneParametersTests {
    @Test func dictionaryLiteralReadsBackWithTypes() {
        let parameters: SceneParameters = ["next": "orders", "attempt": 2]
        #expect(parameters.value("next", as: String.self) == "orders")
        #expect(parameters.value("attempt", as: Int.self) == 2)
        #expect(parameters.value("attempt", as: String.self) == nil)
        #expect(parameters.value("missing", as: Int.self) == nil)
        #expect(!parameters.isEmpty)
        #expect(SceneParameters.empty.isEmpty)
    }

    @Test func requireNamesMissingKey() {
        let parameters: SceneParameters = [:]
        #expect {
            _ = try parameters.require("next", as: String.self)
        } throws: { error in
            let error = error as? NavigationError
            return error?.code == .invalidParameters && error?.parameterKey == "next"
                && error?.detail == "parameter \"next\" is missing (expected String)"
        }
    }

    @Test func requireNamesMistypedKey() {
        let parameters: SceneParameters = ["next": 3]
        #expect {
            _ = try parameters.require("next", as: String.self)
        } throws: { error in
            (error as? NavigationError)?.detail == "parameter \"next\" is Int, expected String"
        }
        #expect(throws: Never.self) { try parameters.require("next", as: Int.self) }
    }

    @Test func subscriptSetsAndRemovesValues() {
        var parameters = SceneParameters()
        parameters["page"] = 3
        #expect(parameters.value("page", as: Int.self) == 3)
        parameters["page"] = nil
        #expect(parameters.isEmpty)
    }

    @Test func payloadKeepsItsType() {
        let parameters = SceneParameters(payload: OrderScene.Parameters(orderID: 9), values: ["source": "push"])
        #expect(parameters.payload(as: OrderScene.Parameters.self)?.orderID == 9)
        #expect(parameters.payload(as: String.self) == nil)
        #expect(parameters.value("source", as: String.self) == "push")
        #expect(parameters.description == "[source] + Parameters")
    }

    @Test func typedNavigationCarriesPayloadUnderSceneName() {
        guard case .push(let name, let parameters) = NavigationType.push(OrderScene.self, parameters: .init(orderID: 4))
        else {
            Issue.record("expected a push")
            return
        }
        #expect(name == "order")
        #expect(parameters.payload(as: OrderScene.Parameters.self)?.orderID == 4)
    }

    @Test func typedNavigationToKeyedSceneKeepsKeyedValues() {
        guard
            case .presentAndPush(let name, let parameters) =
                NavigationType.presentAndPush(SignInScene.self, parameters: ["next": "orders"])
        else {
            Issue.record("expected presentAndPush")
            return
        }
        #expect(name == "signIn")
        #expect(parameters.payload == nil)
        #expect(parameters.value("next", as: String.self) == "orders")
    }

    @Test func dictionaryBridgesToStringAny() {
        let parameters: SceneParameters = ["id": 7]
        let legacy: [String: Any] = parameters.dictionary
        #expect(legacy["id"] as? Int == 7)
    }

    @Test func navigationTypesDescribeThemselves() throws {
        let url = try #require(URL(string: "https://example.com"))
        #expect(NavigationType.push(sceneName: "orders", parameters: ["id": 1]).description == "push(\"orders\", [id])")
        #expect(NavigationType.presentAndPush(sceneName: "help").description == "presentAndPush(\"help\")")
        #expect(NavigationType.back.description == "back")
        #expect(NavigationType.openURL(url).description == "openURL(https://example.com)")
        #expect(NavigationType.openURL(url).sceneName == nil)
        #expect(NavigationType.setRoot(sceneName: "home").sceneName == "home")
    }
}
