import Assemblage
import Testing

// The code of the "Arguments" article, compiled and run (see GettingStartedDocTests.swift).

enum ArgumentsDoc {
    // snippet: arguments-types
    protocol UserService: Sendable {
        func name(of userID: Int) -> String
    }

    struct FakeUserService: UserService {
        func name(of userID: Int) -> String { "user \(userID)" }
    }

    final class ProfileViewModel {
        let userID: Int
        let users: UserService
        init(userID: Int, users: UserService) {
            self.userID = userID
            self.users = users
        }
    }

    struct Invoice {
        let number: Int
        let customer: String
        var isDraft = false
    }
    // end-snippet

    // snippet: arguments-badge
    final class Badge {
        let title: String?
        init(title: String?) { self.title = title }
    }
    // end-snippet

    struct Export {
        let format: String
        let pages: Int
        let landscape: Bool
        let scale: Double
    }

    @Suite("Docs: Arguments") struct Samples {
        @Test func oneArgument() throws {
            // snippet: arguments-one
            let container = Container()
            container.register(UserService.self) { _ in FakeUserService() }
            container.register(ProfileViewModel.self) { (r, userID: Int) in
                ProfileViewModel(userID: userID, users: try r.require(UserService.self))
            }

            let model = try container.require(ProfileViewModel.self, argument: 42)
            let same = container.resolve(ProfileViewModel.self, argument: 7)  // the optional form
            // end-snippet
            #expect(model.userID == 42)
            #expect(same?.userID == 7)
        }

        @Test func severalArgumentsAndNames() throws {
            let container = Container()
            // snippet: arguments-several
            container.register(Invoice.self) { (_, number: Int, customer: String) in
                Invoice(number: number, customer: customer)
            }
            container.register(Invoice.self, name: "draft") { (_, customer: String) in
                Invoice(number: 0, customer: customer, isDraft: true)
            }

            let invoice = try container.require(Invoice.self, arguments: 1001, "Ada")
            let draft = try container.require(Invoice.self, name: "draft", argument: "Grace")
            // end-snippet
            #expect(invoice.number == 1001 && invoice.customer == "Ada")
            let lazy = try container.require(Lazy<Invoice>.self, arguments: 1001, "Ada")  // as the article says
            #expect(lazy.instance.customer == "Ada")
            #expect(draft.isDraft && draft.customer == "Grace")
        }

        @Test func anyNumberOfArguments() throws {
            let container = Container()
            // snippet: arguments-many
            container.register(Export.self) { (_, format: String, pages: Int, landscape: Bool, scale: Double) in
                Export(format: format, pages: pages, landscape: landscape, scale: scale)
            }
            let export = try container.require(Export.self, arguments: "pdf", 12, true, 1.5)
            // end-snippet
            #expect(export.format == "pdf" && export.pages == 12 && export.landscape && export.scale == 1.5)
        }

        @Test func inferredOptionalArgument() throws {
            let container = Container()
            var message = ""
            // snippet: arguments-inferred
            container.register(Badge.self) { _, title in Badge(title: title) }  // title: String? (from init)

            let missing = container.resolve(Badge.self, argument: "VIP")  // nil: the key says String?
            let found = container.resolve(Badge.self, argument: Optional("VIP"))  // found
            // end-snippet
            #expect(missing == nil)
            #expect(found?.title == "VIP")
            do {
                _ = try container.require(Badge.self, argument: "VIP")
            } catch {
                message = error.description
            }
            #expect(
                message == """
                    No registration for Badge (arguments: String).
                      Registered for Badge: Badge (arguments: Optional<String>)
                    """)

            // snippet: arguments-annotated
            container.register(Badge.self) { (_, title: String) in Badge(title: title) }
            let badge = try container.require(Badge.self, argument: "VIP")
            // end-snippet
            #expect(badge.title == "VIP")
        }
    }
}
