// The boxes that hold registered factories, and the makers through which a resolve calls them.

// MARK: - Boxes

/// Holds a factory with any number of arguments, with its exact function type.
@usableFromInline
final class _FactoryBox<Service, each Arg>: Sendable {  // an immutable @Sendable closure
    @usableFromInline let call: @Sendable (any Resolver, repeat each Arg) throws -> Service
    init(_ call: @escaping @Sendable (any Resolver, repeat each Arg) throws -> Service) { self.call = call }
}

/// A fixed-arity factory box that can make the equivalent pack box, for resolves through the variadic path.
protocol _PackBoxMaking: AnyObject {
    func makePackBox() -> AnyObject
}

// The fixed-arity boxes `_Factory1…3` are generated: ServiceEntry+Arities.swift (an entry holds a factory
// without arguments itself).

// MARK: - Makers

/// How a resolve calls its factory: the box (unretained; the entry holds it) and the runtime arguments, as a
/// value, so that the resolve path specialises for it and never allocates or retains a closure context.
///
/// Makers are generic over the argument types only, not the service type (the service type is a parameter
/// of ``make(_:as:)``): code that runs unspecialised, such as a generic registration helper over thousands
/// of types, then needs no maker metadata per service type.
@usableFromInline
protocol _Maker {
    /// Runs the factory of `entry`, held by the entry or in a box that makes `Service` (the entry's factory kind
    /// guarantees it).
    func make<Service>(_ resolver: any Resolver, entry: ServiceEntry<Service>) throws -> Service
    /// The runtime arguments as a list (the `.multiton` scope's key).
    func arguments() -> [Any]
}

// The fixed-arity makers `_Make0…3` are generated: ServiceEntry+Arities.swift.

@usableFromInline
struct _MakePack<each Arg>: _Maker {
    @usableFromInline let box: _Unowned<AnyObject>
    @usableFromInline let values: (repeat each Arg)
    @usableFromInline init(box: _Unowned<AnyObject>, arguments: (repeat each Arg)) {
        self.box = box
        values = arguments
    }
    @usableFromInline
    func make<Service>(_ resolver: any Resolver, entry _: ServiceEntry<Service>) throws -> Service {
        try box.assuming(_FactoryBox<Service, repeat each Arg>.self).with {
            try $0.call(resolver, repeat each values)
        }
    }
    @usableFromInline func arguments() -> [Any] { _argumentList(repeat each values) }
}

/// A maker over closures (paths that are not hot: isolated and async registrations).
struct _MakeClosure<Made>: _Maker {
    let argumentList: () -> [Any]
    let call: (any Resolver) throws -> Made
    init(arguments: @escaping () -> [Any], make: @escaping (any Resolver) throws -> Made) {
        argumentList = arguments
        call = make
    }
    func make<Service>(_ resolver: any Resolver, entry _: ServiceEntry<Service>) throws -> Service {
        try call(resolver) as! Service  // Made is Service: the entry's closure path makes its own type
    }
    func arguments() -> [Any] { argumentList() }
}

/// Runtime arguments as a list, for the multiton scope's key.
func _argumentList<each Arg>(_ arguments: repeat each Arg) -> [Any] {
    var list: [Any] = []
    for argument in repeat each arguments { list.append(argument) }
    return list
}

/// Describes an argument that cannot key a multiton.
struct _NotHashable: Error, CustomStringConvertible {
    let type: Any.Type
    var description: String { "\(type) is not Hashable" }
}

/// Where a registration was made: file and line, for diagnostics.
public struct RegistrationSite: Sendable, Hashable, CustomStringConvertible {
    /// The source file (`#fileID`).
    public let file: String
    /// The line in ``file``.
    public let line: Int

    /// Creates a site.
    ///
    /// - Parameters:
    ///   - file: The source file.
    ///   - line: The line.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `Module/File.swift:42`.
    public var description: String { "\(file):\(line)" }
}
