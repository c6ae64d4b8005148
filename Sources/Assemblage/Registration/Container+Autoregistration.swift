extension Container {
    /// Registers a service made by an initializer whose parameters are all resolved from the container.
    ///
    /// The initializer's parameter types say what to resolve, so the registration does not change when the
    /// initializer gains or loses a dependency. This is SwinjectAutoregistration's `autoregister`, for an
    /// initializer of any number of parameters:
    ///
    /// ```swift
    /// container.autoregister(Animal.self, initializer: Cat.init)
    /// container.autoregister(Person.self, initializer: PetOwner.init)             // PetOwner(pet: Animal)
    /// container.autoregister(Person.self, name: "johnny", initializer: PetOwner.init)
    ///     .inObjectScope(.container)
    /// ```
    ///
    /// is the same registration as
    ///
    /// ```swift
    /// container.register(Person.self) { r in PetOwner(pet: try r.require(Animal.self)) }
    /// ```
    ///
    /// Each parameter resolves the unnamed registration of its type without arguments, through the resolver the
    /// factory receives (so fallbacks, module scopes, `Lazy`, `Provider` and collections work as in a factory).
    /// A parameter of an optional type (`Logger?`) receives `nil` when its wrapped type is not registered. When
    /// another parameter cannot be resolved, `require` throws a ``ResolutionError`` for the missing type whose
    /// ``ResolutionError/suggestions`` name the parameter's position in the initializer and the fixes, and
    /// `resolve` returns `nil`. An initializer that throws fails the resolution with
    /// ``ResolutionError/Code/factoryFailed``.
    ///
    /// When the type has several initializers of the same shape, name the one to use
    /// (`PetOwner.init(pet:)`); a struct whose stored properties have default values also has a memberwise
    /// initializer that takes them (`Cat.init as @Sendable () -> Cat` picks the one without parameters).
    /// Dependencies that need a name are beyond the initializer's signature: register those services with a
    /// factory, using `r ~> (Type.self, name: "…")`.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the initializer when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service from its dependencies, in order: usually an initializer reference
    ///     such as `PetOwner.init`. It must be `@Sendable`, as every factory is; initializer references are.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    /// - Complexity: A resolve costs what the equivalent hand-written factory costs: one resolve per parameter.
    @inlinable
    @discardableResult
    public func autoregister<Service, each Parameter>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: repeat (each Parameter).self, arguments: Void.self,
            at: RegistrationSite(file: file, line: line))
        return register(Service.self, name: name, file: file, line: line) { (resolver: Resolver) throws -> Service in
            var position = 0
            return try initializer(repeat try _autoresolve((each Parameter).self, resolver, _next(&position), site))
        }
    }

    /// Registers a service made by an initializer that takes one of its parameters at resolve time and
    /// resolves the others.
    ///
    /// The parameter whose type is `argument` (or `argument?`) receives the value given to `resolve`; every
    /// other parameter is resolved as in
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``:
    ///
    /// ```swift
    /// // PetOwner(name: String, pet: Animal)
    /// container.autoregister(Person.self, argument: String.self, initializer: PetOwner.init)
    /// let owner = container.resolve(Person.self, argument: "Michael")
    /// ```
    ///
    /// - Precondition: A parameter of the initializer has the type `argument` or `argument?`; otherwise the
    ///   argument could never be used, and the registration stops the program with a sentence naming the fix.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - argument: The type of the runtime argument, part of the registration's key as in
    ///     ``register(_:name:file:line:factory:)-8bujr``.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service; its parameter of type `argument` receives the runtime argument.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, Argument, each Parameter>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument.Type,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: repeat (each Parameter).self,
            arguments: Argument.self, at: RegistrationSite(file: file, line: line))
        site.checkArguments(parameters: repeat (each Parameter).self, arguments: Argument.self)
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver, argument: Argument) throws -> Service in
            var position = 0
            return try initializer(
                repeat try _autoresolve((each Parameter).self, resolver, _next(&position), site, argument))
        }
    }

    /// Registers a service made by an initializer that takes several of its parameters at resolve time and
    /// resolves the others.
    ///
    /// Each parameter whose type is one of `arguments` (or its optional) receives the value of that type
    /// given to `resolve`; every other parameter is resolved. Runtime arguments are matched to parameters by
    /// type, not by position, so the argument types must all differ; list them in the order `resolve` will
    /// pass them, which is also the order of the registration's key:
    ///
    /// ```swift
    /// // Report(user: User, period: Period, renderer: Renderer, locale: Locale)
    /// container.autoregister(Report.self, arguments: User.self, Period.self, initializer: Report.init)
    /// let report = container.resolve(Report.self, arguments: user, period)
    /// ```
    ///
    /// Parameter packs cannot interleave resolved parameters with runtime ones by position, and
    /// SwinjectAutoregistration matches by type too, so this is the form code written for it expects.
    ///
    /// - Precondition: The argument types differ from one another, and each is the type (or the optional
    ///   type) of a parameter of the initializer; otherwise the registration stops the program with a
    ///   sentence naming the fix.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - firstArgument: The type of the first runtime argument.
    ///   - moreArguments: The types of the others, in the order `resolve` passes them.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service; its parameters of the argument types receive the runtime arguments.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, FirstArgument, each Argument, each Parameter>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        arguments firstArgument: FirstArgument.Type,
        _ moreArguments: repeat (each Argument).Type,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: repeat (each Parameter).self,
            arguments: (FirstArgument, repeat each Argument).self,
            at: RegistrationSite(file: file, line: line))
        site.checkArguments(
            parameters: repeat (each Parameter).self,
            arguments: FirstArgument.self, repeat (each Argument).self)
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver, first: FirstArgument, more: repeat each Argument) throws -> Service in
            var position = 0
            return try initializer(
                repeat try _autoresolve(
                    (each Parameter).self, resolver, _next(&position), site,
                    first, repeat each more))
        }
    }
}

// MARK: - Resolving one parameter

/// One parameter of an autoregistered initializer: the runtime argument of its type (or of the type it
/// wraps in an optional), or else the unnamed registration of its type without arguments.
///
/// `position` is the parameter's, one-based, for the error.
@inlinable @inline(__always)
func _autoresolve<Parameter, each Argument>(
    _: Parameter.Type, _ resolver: any Resolver, _ position: Int, _ site: _Autoregistration,
    _ arguments: repeat each Argument
) throws -> Parameter {
    for argument in repeat each arguments {
        if let value = _autoregistrationArgument(argument, as: Parameter.self) { return value }
    }
    do {
        guard let container = resolver._unmanagedContainer else { return try resolver.require(Parameter.self) }
        return try container._withUnsafeGuaranteedRef { try $0._resolve(Parameter.self, name: nil) }
    } catch {
        throw site.failure(error, parameter: Parameter.self, position: position)
    }
}

/// Advances a parameter counter and returns the new position (one-based), inside a pack expansion.
@inlinable @inline(__always)
func _next(_ position: inout Int) -> Int {
    position &+= 1
    return position
}

/// `argument` as a `Parameter`, when `Parameter` is its type or the optional of its type.
///
/// Metatype comparisons, so that a specialised resolve compares constants and the casts fold away. A runtime
/// argument never matches a supertype or a protocol it conforms to: matching is by exact type, which is
/// predictable when arguments and resolved parameters share a protocol.
@inlinable @inline(__always)
func _autoregistrationArgument<Argument, Parameter>(_ argument: Argument, as _: Parameter.Type) -> Parameter? {
    if Argument.self == Parameter.self { return argument as? Parameter }
    if Argument?.self == Parameter.self { return Argument?.some(argument) as? Parameter }
    return nil
}

// MARK: - What an autoregistration is, for its errors

/// The shape of one autoregistration, kept by its factory for the failure path: the service, the
/// initializer's parameter types, the runtime argument types and where it was registered.
///
/// A value in the factory's context: nothing is formatted or allocated until a resolve fails.
@usableFromInline
struct _Autoregistration: Sendable {
    let serviceType: Any.Type
    /// The parameters as one tuple type (a single parameter's own type; `Void` for none).
    let parametersType: Any.Type
    let parameterCount: Int
    /// The runtime arguments as one tuple type (`Void` for none).
    let argumentsType: Any.Type
    let site: RegistrationSite

    @usableFromInline
    init<Service, each Parameter>(
        _: Service.Type, parameters _: repeat (each Parameter).Type,
        arguments: Any.Type, at site: RegistrationSite
    ) {
        var count = 0
        for _ in repeat (each Parameter).self { count += 1 }
        serviceType = Service.self
        parametersType = (repeat each Parameter).self
        parameterCount = count
        argumentsType = arguments
        self.site = site
    }

    /// Stops the program when an argument type can never reach a parameter or two argument types are the
    /// same (the registration could not work; only a change to the code fixes it).
    @usableFromInline
    func checkArguments<each Parameter, each Argument>(
        parameters: repeat (each Parameter).Type,
        arguments: repeat (each Argument).Type
    ) {
        var seen: [ObjectIdentifier] = []
        for argument in repeat each arguments {
            precondition(
                !seen.contains(ObjectIdentifier(argument)),
                "autoregister(\(serviceName), arguments: …) at \(site) lists \(Self.name(argument)) twice. "
                    + "Runtime arguments are matched to the initializer's parameters by type, so each "
                    + "must have a type of its own: wrap one in a distinct type, or register "
                    + "\(serviceName) with a factory, `register(\(serviceName).self) { (r, …) in … }`.")
            seen.append(ObjectIdentifier(argument))
            precondition(
                Self.someParameter(of: repeat (each Parameter).self, takes: argument),
                "autoregister(\(serviceName), argument(s): \(Self.name(argument)).self …) at \(site): "
                    + "the initializer \(signature) has no parameter of type \(Self.name(argument)) or "
                    + "\(Self.name(argument))?, so the runtime argument could never be used. Pass the "
                    + "initializer that takes it, or remove it from the argument types.")
        }
    }

    /// Whether a parameter has the type `argument` or its optional.
    static func someParameter<Argument, each Parameter>(
        of parameters: repeat (each Parameter).Type,
        takes _: Argument.Type
    ) -> Bool {
        for parameter in repeat each parameters {
            if parameter == Argument.self || parameter == Argument?.self { return true }
        }
        return false
    }

    static func name(_ type: Any.Type) -> String { _typeName(type, qualified: false) }

    var serviceName: String { Self.name(serviceType) }

    /// `(Animal, Clock) -> Person`.
    var signature: String {
        let parameters = parameterCount == 1 ? "(\(Self.name(parametersType)))" : Self.name(parametersType)
        return "\(parameters) -> \(serviceName)"
    }

    /// The error for parameter `position` (one-based) of type `parameter`: when the parameter itself has no
    /// registration, the error gains a suggestion naming the parameter, its position and the fixes; any
    /// other failure (a dependency of the parameter's own, a cycle, a throwing factory) is returned as it is,
    /// since its resolution path already passes through the parameter.
    @usableFromInline @inline(never)
    func failure(_ error: any Error, parameter: Any.Type, position: Int) -> any Error {
        guard let error = error as? ResolutionError, error.code == .notRegistered,
            error.key == ServiceKey(serviceType: parameter, argumentsType: Void.self, name: nil, argumentCount: 0)
        else { return error }
        let type = Self.name(parameter)
        var fixes = "register \(type)"
        if !error.nearMisses.isEmpty {
            fixes +=
                " (autoregistration resolves only the unnamed registration without arguments; to use "
                + "another, register \(serviceName) with a factory and resolve it there, e.g. "
                + "`r ~> (\(type).self, name: \"…\")`)"
        }
        fixes +=
            ", make the parameter optional (\(type)?) to receive nil when it is missing, or pass it at "
            + "resolve time by listing \(type).self in `autoregister(\(serviceName).self, arguments: …)`"
        let withArguments =
            parameterCount > 0 && argumentsType != Void.self
            ? " with runtime arguments (\(ServiceKey.argumentList(argumentsType)))" : ""
        let suggestion =
            "\(type) is parameter \(position) of \(parameterCount) of the initializer \(signature) "
            + "autoregistered\(withArguments) at \(site): \(fixes)."
        return ResolutionError(
            code: error.code, key: error.key, path: error.path, cycle: error.cycle,
            nearMisses: error.nearMisses, suggestions: [suggestion] + error.suggestions)
    }
}
