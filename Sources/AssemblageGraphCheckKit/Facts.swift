/// The name part of a key, as far as the source says.
package enum NameValue: Sendable, Hashable {
    /// No name (`nil` or the argument left out).
    case none
    /// A string literal without interpolation.
    case literal(String)
    /// An expression whose value only the running program knows.
    case unknown
}

/// A service key as far as the source says: type, name and the number of runtime arguments.
package struct KeyPattern: Sendable, Hashable, CustomStringConvertible {
    /// The service type; `nil` when it cannot be known from source (inferred, generic).
    package var type: TypeExpression?
    /// The name.
    package var name: NameValue
    /// The number of runtime arguments; `nil` when unknown (a factory passed by reference).
    package var arity: Int?
    /// The argument types, when the factory spells them out.
    package var argumentTypes: [String]?

    /// Creates a pattern.
    package init(type: TypeExpression?, name: NameValue, arity: Int?, argumentTypes: [String]? = nil) {
        self.type = type
        self.name = name
        self.arity = arity
        self.argumentTypes = argumentTypes
    }

    /// The key as ``ServiceKey`` prints it: `Database (name: "primary", arguments: URL)`.
    package var description: String {
        var parts: [String] = []
        switch name {
        case .literal(let value): parts.append("name: \"\(value)\"")
        case .unknown: parts.append("name: <not a literal>")
        case .none: break
        }
        if let arity, arity > 0 {
            if let argumentTypes, argumentTypes.count == arity {
                parts.append("arguments: \(argumentTypes.joined(separator: ", "))")
            } else {
                parts.append(arity == 1 ? "1 argument" : "\(arity) arguments")
            }
        }
        let typeText = type?.description ?? "<inferred type>"
        return parts.isEmpty ? typeText : "\(typeText) (\(parts.joined(separator: ", ")))"
    }
}

/// A type named in source: a declaration (exact, with its enclosing types) or a name written in code or an
/// extension, which the checker resolves the way Swift looks names up (innermost scope first).
package struct TypeReference: Sendable, Hashable {
    /// The qualified name when ``exact``; otherwise the dotted name as written.
    package var name: String
    /// The type around the reference (a qualified name, or an extension's written name), for lookup.
    package var context: String?
    /// The file it is written in (file-private types are looked up there first).
    package var file: String
    /// Whether ``name`` is already the qualified name of a declaration.
    package var exact: Bool

    /// Creates a reference.
    package init(name: String, context: String?, file: String, exact: Bool) {
        self.name = name
        self.context = context
        self.file = file
        self.exact = exact
    }
}

/// Where a registration or resolve sits in the code: enough to know whose graph it belongs to.
package struct Placement: Sendable, Hashable {
    /// The location of the call.
    package var location: SourceLocation
    /// The `#if` branches around it.
    package var branches: [SourceFile.IfBranch]
    /// Whether its line carries `// assemblage-check: ignore`.
    package var ignored: Bool
    /// Whether the file is one of the checked target's own (findings are reported only there).
    package var own: Bool
}

/// One registration found in the source.
package struct RegistrationFact: Sendable {
    /// What kind of registration.
    package enum Kind: Sendable, Equatable {
        /// `register` (any form).
        case service
        /// `registerIntoCollection`.
        case collectionElement
        /// `implements` (to the registration with this id) or `forward` (to an entry held in a variable: `nil`).
        case alias(of: Int?)
    }

    /// The fact's index in ``Facts/registrations``.
    package var id: Int
    /// What kind of registration.
    package var kind: Kind
    /// Its key.
    package var key: KeyPattern
    /// The type whose body holds it, or the module it was contributed into (`contribute(into:)`).
    package var owner: TypeReference?
    /// The type whose module scope its factory resolves from (the contributor for contributions).
    package var scopeType: TypeReference?
    /// Whether it was contributed into another module with `contribute(into:)`.
    package var contributed: Bool
    /// Where it is.
    package var placement: Placement
    /// Whether it sits in a loop (`for`, `while`, `forEach`) or a conditional branch (`if`, `else`, `switch`):
    /// it may run any number of times, or not at all.
    package var inLoop: Bool
}

/// One `resolve`, `require`, `resolveAsync`, `resolveAll` or `resolveAllNamed` call, `~>` operator or property
/// wrapper (`@Injected` and the others) with a literal type.
package struct ResolveFact: Sendable {
    /// The code the call runs in.
    package enum Context: Sendable, Equatable {
        /// A factory of the registration with this id.
        case factory(Int)
        /// An `initCompleted` step of the registration with this id.
        case initCompleted(Int)
        /// A decorator (index in ``Facts/decorators``).
        case decorator(Int)
        /// Anything else (a function, top-level code, a `loaded` hook).
        case none
    }

    /// The key asked for.
    package var key: KeyPattern
    /// How the source asks for it, for messages: `resolve`, `require`, `~>`, `@Injected`, `@OptionalInjected`…
    package var form: String
    /// Whether a missing registration fails (`require`, `resolveAsync`, `resolve(…)!`, `~>`, `@Injected`,
    /// `@LazyInjected`), rather than give `nil` (`resolve`, `@OptionalInjected`, `@WeakLazyInjected`).
    package var required: Bool
    /// `resolveAll` (`.array`) or `resolveAllNamed` (`.dictionary`): a collection, never missing.
    package var collection: Collection?
    /// The code it runs in.
    package var context: Context
    /// The innermost type around it (for a factory: the type whose module scope the factory resolves from).
    package var scopeType: TypeReference?
    /// Where it is.
    package var placement: Placement

    /// A collection resolution.
    package enum Collection: Sendable, Equatable {
        /// `resolveAll`, `[T]`.
        case array
        /// `resolveAllNamed`, `[String: T]`.
        case dictionary
    }
}

/// One `decorate` call.
package struct DecoratorFact: Sendable {
    /// The decorated type and name.
    package var key: KeyPattern
    /// The innermost type around it.
    package var scopeType: TypeReference?
    /// Where it is.
    package var placement: Placement
}

/// A type declaration or extension and what it conforms to.
package struct TypeDeclarationFact: Sendable {
    /// The declared type (exact) or the extended type (as written).
    package var type: TypeReference
    /// The names in its inheritance clause.
    package var inherits: [String]
    /// Whether it is a protocol.
    package var isProtocol: Bool
    /// Whether other files of its module can name it: not private, not local, not nested in a generic type.
    package var accessible: Bool
    /// Whether it is declared in the checked target.
    package var own: Bool
    /// Where it is.
    package var location: SourceLocation
}

/// A module's `dependencies` or `replaces` list.
package struct ModuleListFact: Sendable {
    /// Which list.
    package enum Kind: Sendable { case dependencies, replaces }
    /// The module type.
    package var typeName: TypeReference
    /// Which list.
    package var kind: Kind
    /// The listed modules and where each is written.
    package var entries: [(type: TypeReference, placement: Placement)]
    /// Whether the list is a plain array literal of `Module.self` (otherwise it is computed at run time).
    package var literal: Bool
    /// Where the declaration is.
    package var placement: Placement
}

/// A place where a module's `assemble(container:)` hands its container to code the checker does not follow.
package struct ContainerEscapeFact: Sendable {
    /// The module type.
    package var typeName: TypeReference
    /// Where it is.
    package var placement: Placement
}

/// A finding the scanner makes by itself: something that cannot be known from source.
package struct ScanNote: Sendable {
    /// What it is about.
    package var message: String
    /// Where it is.
    package var placement: Placement
}

/// Everything the scanner found in a set of files.
package struct Facts: Sendable {
    /// Registrations, by id.
    package var registrations: [RegistrationFact] = []
    /// Resolve calls.
    package var resolves: [ResolveFact] = []
    /// Decorators.
    package var decorators: [DecoratorFact] = []
    /// Type declarations and extensions.
    package var types: [TypeDeclarationFact] = []
    /// Module `dependencies` and `replaces` lists.
    package var moduleLists: [ModuleListFact] = []
    /// Containers handed to helpers from `assemble(container:)`.
    package var escapes: [ContainerEscapeFact] = []
    /// `typealias Name = Type`.
    package var typeAliases: [String: TypeExpression] = [:]
    /// Scanner notes.
    package var notes: [ScanNote] = []
    /// Whether a file of the checked target asks for typed accessors (`// assemblage-check: accessors`).
    package var accessorsRequested = false
    /// Whether a file of the checked target asks for validation tests (`// assemblage-check: validation-tests`).
    package var validationTestsRequested = false
    /// The Swift module of each file that belongs to another target (for `@testable import`).
    package var moduleOfFile: [String: String] = [:]

    /// No facts.
    package init() {}
}
