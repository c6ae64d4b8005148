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
        _autoregisterPack(name: name, priority: nil, file: file, line: line, initializer: initializer)
    }

    /// Registers a service made by an initializer that takes one of its parameters at resolve time and
    /// resolves the others.
    ///
    /// The runtime argument fills the parameter its value converts to — its own type, its optional, a protocol
    /// it conforms to or a superclass, as `as?` converts — and every other parameter is resolved as in
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``:
    ///
    /// ```swift
    /// // PetOwner(name: String, pet: Animal)
    /// container.autoregister(Person.self, argument: String.self, initializer: PetOwner.init)
    /// let owner = container.resolve(Person.self, argument: "Michael")
    /// // PetOwner(pet: Animal): a Cat is an Animal
    /// container.autoregister(Person.self, name: "cat owner", argument: Cat.self, initializer: PetOwner.init)
    /// ```
    ///
    /// Any argument type and initializer register. When no parameter takes the argument's value, resolving fails
    /// with ``ResolutionError/Code/unusedArgument`` (`resolve` returns `nil`) rather than dropping the argument; see
    /// ``autoregister(_:name:arguments:_:file:line:initializer:)`` for how parameters are matched.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - argument: The type of the runtime argument, part of the registration's key as in
    ///     ``register(_:name:file:line:factory:)-954wu``.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service; the parameter the argument converts to receives it.
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
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver, argument: Argument) throws -> Service in
            try _autoinitialize(initializer, resolver, site, argument)
        }
    }

    /// Registers a service made by an initializer that takes several of its parameters at resolve time and
    /// resolves the others.
    ///
    /// Runtime arguments are matched to parameters by type, not by position, so list them in any order: the
    /// order `resolve` will pass them, which is also the order of the registration's key:
    ///
    /// ```swift
    /// // Report(user: User, period: Period, renderer: Renderer, locale: Locale)
    /// container.autoregister(Report.self, arguments: Period.self, User.self, initializer: Report.init)
    /// let report = container.resolve(Report.self, arguments: period, user)
    /// ```
    ///
    /// Each resolve matches the arguments' values to the parameters, in the parameters' order:
    ///
    /// 1. a parameter takes the first argument not yet taken whose type is the parameter's type or its
    ///    optional;
    /// 2. a parameter still without one takes the first argument not yet taken whose value converts to its type
    ///    (a protocol it conforms to, a superclass), as `as?` converts;
    /// 3. every other parameter is resolved from the container.
    ///
    /// So two arguments of one type fill two parameters of that type in order, and an argument typed by a
    /// protocol fills a parameter of the protocol. Any argument types and initializer register; when an argument
    /// is taken by no parameter, resolving fails with ``ResolutionError/Code/unusedArgument`` (`resolve` returns `nil`)
    /// rather than dropping the argument. SwinjectAutoregistration matches by `as?` too, so code written for it
    /// registers unchanged.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - firstArgument: The type of the first runtime argument.
    ///   - moreArguments: The types of the others, in the order `resolve` passes them.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service; the parameters matched to the runtime arguments receive them.
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
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver, first: FirstArgument, more: repeat each Argument) throws -> Service in
            try _autoinitialize(initializer, resolver, site, first, repeat each more)
        }
    }
}

// MARK: - Registering

extension Container {
    /// Registers the factory that `factory` makes for the autoregistration of an initializer of `parameters`
    /// without runtime arguments: as `register` registers it, or, given a `priority`, into the service's
    /// collection as `registerIntoCollection` does.
    ///
    /// Every `autoregister` and `autoregisterIntoCollection` without runtime arguments, the pack forms and the
    /// generated ones, comes here; only the factory, which runs at each resolve, is made per form.
    @inlinable
    func _autoregister<Service, each Parameter>(
        name: String?, priority: Int?, file: String, line: Int, parameters: repeat (each Parameter).Type,
        factory: (_Autoregistration) -> @Sendable (any Resolver) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: repeat (each Parameter).self, arguments: Void.self,
            at: RegistrationSite(file: file, line: line))
        let factory = factory(site)
        guard let priority else { return register(Service.self, name: name, file: file, line: line, factory: factory) }
        return registerIntoCollection(
            Service.self, name: name, priority: priority, file: file, line: line, factory: factory)
    }

    /// The pack forms' registration (`autoregister` and `autoregisterIntoCollection` over `each Parameter`):
    /// each parameter resolved through the pack. Initializers of one to six parameters take the generated
    /// forms' `_autoregister(name:priority:file:line:initializer:)` instead (Container+AutoregistrationArities.swift).
    @inlinable
    func _autoregisterPack<Service, each Parameter>(
        name: String?, priority: Int?, file: String, line: Int,
        initializer: @escaping @Sendable (repeat consuming each Parameter) throws -> Service
    ) -> ServiceEntry<Service> {
        _autoregister(
            name: name, priority: priority, file: file, line: line, parameters: repeat (each Parameter).self
        ) { site in
            { resolver in
                var position = 0
                return try initializer(
                    repeat try _autoresolve((each Parameter).self, resolver, _next(&position), site))
            }
        }
    }
}

/// The service that an initializer autoregistered with runtime arguments makes: the arguments matched to their
/// parameters (`_Autoregistration.plan(parameters:arguments:)`), every other parameter resolved. Both forms with
/// arguments call it at each resolve.
@inlinable
func _autoinitialize<Service, each Parameter, each Argument>(
    _ initializer: @Sendable (repeat consuming each Parameter) throws -> Service, _ resolver: any Resolver,
    _ site: _Autoregistration, _ arguments: repeat each Argument
) throws -> Service {
    let plan = try site.plan(parameters: repeat (each Parameter).self, arguments: repeat each arguments)
    var position = 0
    return try initializer(
        repeat try _autoresolve((each Parameter).self, resolver, _next(&position), site, plan, repeat each arguments))
}

// MARK: - Resolving one parameter

/// One parameter of an autoregistered initializer without runtime arguments: the unnamed registration of its
/// type without arguments.
///
/// `position` is the parameter's, one-based, for the error.
@inlinable @inline(__always)
func _autoresolve<Parameter>(
    _: Parameter.Type, _ resolver: any Resolver, _ position: Int, _ site: _Autoregistration
) throws -> Parameter {
    do {
        guard let container = resolver._fastContainer else { return try resolver.require(Parameter.self) }
        return try container.with { try $0._resolve(Parameter.self, name: nil) }
    } catch {
        throw site.failure(error, parameter: Parameter.self, position: position)
    }
}

/// One parameter of an autoregistered initializer with runtime arguments: the argument `plan` matched to it,
/// or else the unnamed registration of its type without arguments.
@inlinable
func _autoresolve<Parameter, each Argument>(
    _: Parameter.Type, _ resolver: any Resolver, _ position: Int, _ site: _Autoregistration,
    _ plan: _ArgumentPlan, _ arguments: repeat each Argument
) throws -> Parameter {
    let matched = plan.argument(forParameter: position)
    if matched >= 0 {
        var index = 0
        for argument in repeat each arguments {
            if index == matched, let value = _autoregistrationArgument(argument, as: Parameter.self) { return value }
            index += 1
        }
    }
    return try _autoresolve(Parameter.self, resolver, position, site)
}

/// Advances a parameter counter and returns the new position (one-based), inside a pack expansion.
@inlinable @inline(__always)
func _next(_ position: inout Int) -> Int {
    position &+= 1
    return position
}

/// `argument` as a `Parameter`: the value itself when `Parameter` is its type, wrapped when `Parameter` is its
/// optional (metatype comparisons, which a specialised resolve folds away), else converted as `as?` converts.
@inlinable @inline(__always)
func _autoregistrationArgument<Argument, Parameter>(_ argument: Argument, as _: Parameter.Type) -> Parameter? {
    if Argument.self == Parameter.self { return argument as? Parameter }
    if Argument?.self == Parameter.self { return Argument?.some(argument) as? Parameter }
    return argument as? Parameter
}

/// Whether `Parameter` is `Argument`'s type or its optional: an exact match, preferred to a conversion.
func _isExactArgument<Argument, Parameter>(_: Argument, for _: Parameter.Type) -> Bool {
    Argument.self == Parameter.self || Argument?.self == Parameter.self
}

/// Which runtime argument each parameter of an autoregistered initializer takes, worked out once per resolve.
@usableFromInline
struct _ArgumentPlan {
    /// For each parameter (zero-based), the index of its argument, or -1 when it is resolved.
    @usableFromInline let argumentIndices: [Int]

    /// The argument index for the parameter at `position` (one-based), or -1.
    @inlinable
    func argument(forParameter position: Int) -> Int { argumentIndices[position - 1] }
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

// MARK: - Matching runtime arguments to parameters

extension _Autoregistration {
    /// Matches the runtime arguments to the initializer's parameters, in the parameters' order: first each
    /// parameter to the first free argument of its exact type (or whose optional it is), then each parameter
    /// still without one to the first free argument whose value converts to it. Throws
    /// ``ResolutionError/Code/unusedArgument`` when an argument is left over.
    @usableFromInline
    func plan<each Parameter, each Argument>(
        parameters: repeat (each Parameter).Type, arguments: repeat each Argument
    ) throws -> _ArgumentPlan {
        var argumentCount = 0
        for _ in repeat each arguments { argumentCount += 1 }
        var taken = [Bool](repeating: false, count: argumentCount)
        var indices = [Int](repeating: -1, count: parameterCount)
        for exact in [true, false] {
            var position = 0
            for parameter in repeat each parameters {
                defer { position += 1 }
                guard indices[position] < 0 else { continue }
                var index = 0
                for argument in repeat each arguments {
                    defer { index += 1 }
                    guard !taken[index], indices[position] < 0 else { continue }
                    let fits =
                        exact
                        ? _isExactArgument(argument, for: parameter)
                        : _autoregistrationArgument(argument, as: parameter) != nil
                    if fits {
                        taken[index] = true
                        indices[position] = index
                    }
                }
            }
        }
        if let unused = taken.firstIndex(of: false) {
            var index = 0
            var type: Any.Type = Void.self
            for argument in repeat each arguments {
                if index == unused { type = Swift.type(of: argument as Any) }
                index += 1
            }
            throw unusedArgument(at: unused, of: argumentCount, dynamicType: type)
        }
        return _ArgumentPlan(argumentIndices: indices)
    }

    /// The error for runtime argument `index` (zero-based) that no parameter takes.
    @inline(never)
    func unusedArgument(at index: Int, of count: Int, dynamicType: Any.Type) -> ResolutionError {
        let key = ServiceKey(serviceType: serviceType, argumentsType: argumentsType, name: nil, argumentCount: count)
        let ordinal = count == 1 ? "The runtime argument" : "Runtime argument \(index + 1) of \(count)"
        let suggestion =
            "\(ordinal) (a \(Self.name(dynamicType))) fits no parameter of the initializer \(signature) "
            + "autoregistered at \(site): each parameter takes an argument of its own type, its optional, or a "
            + "type the argument's value converts to, and every parameter that could take this one has an "
            + "argument already. Pass the initializer that takes it, or remove it from the argument types."
        return ResolutionError(
            code: .unusedArgument, key: key, path: [key], suggestions: [suggestion])
    }
}
