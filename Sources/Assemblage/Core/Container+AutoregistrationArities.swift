// Fixed-arity forms of `autoregister` for initializers of one to six parameters.
//
// The pack form (`autoregister(_:name:file:line:initializer:)` over `each Parameter`, in
// Container+Autoregistration.swift) takes any number of parameters, but this compiler lowers a pack expansion
// to a loop whose body is generic over the element type even when the pack is concrete: every parameter
// would then be resolved by unspecialised code, about 200 instructions more per parameter than the
// `r.resolve(A.self)!` of a hand-written factory. These forms resolve each parameter with its type known, so
// the resolve specialises fully in the caller, as a hand-written factory does. Overload ranking prefers them
// to the pack form whenever they match; their behaviour is the same. Initializers of more than six
// parameters, and every form with runtime arguments, use the pack form.

extension Container {

    /// Registers a service made by an initializer of one parameter, resolved from the container.
    ///
    /// The same registration as the pack form
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``, which the compiler
    /// leaves for this one because it resolves each parameter with its type known, as fast as a hand-written
    /// factory:
    ///
    /// ```swift
    /// container.autoregister(Person.self, initializer: PetOwner.init)   // PetOwner(pet: Animal)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the initializer when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service from its dependencies, in order.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, A>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (consuming A) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: A.self, arguments: Void.self,
            at: RegistrationSite(file: file, line: line))
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver) throws -> Service in
            try initializer(
                _autoresolve(A.self, resolver, 1, site)
            )
        }
    }

    /// Registers a service made by an initializer of two parameters, each resolved from the container.
    ///
    /// The same registration as the pack form
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``, which the compiler
    /// leaves for this one because it resolves each parameter with its type known, as fast as a hand-written
    /// factory:
    ///
    /// ```swift
    /// container.autoregister(Feed.self, initializer: Feed.init)         // Feed(api: API, cache: Cache)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the initializer when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service from its dependencies, in order.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, A, B>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (consuming A, consuming B) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: A.self, B.self, arguments: Void.self,
            at: RegistrationSite(file: file, line: line))
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver) throws -> Service in
            try initializer(
                _autoresolve(A.self, resolver, 1, site),
                _autoresolve(B.self, resolver, 2, site)
            )
        }
    }

    /// Registers a service made by an initializer of three parameters, each resolved from the container.
    ///
    /// The same registration as the pack form
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``, which the compiler
    /// leaves for this one because it resolves each parameter with its type known, as fast as a hand-written
    /// factory:
    ///
    /// ```swift
    /// container.autoregister(Feed.self, initializer: Feed.init)         // Feed(api:cache:clock:)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the initializer when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service from its dependencies, in order.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, A, B, C>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (consuming A, consuming B, consuming C) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: A.self, B.self, C.self, arguments: Void.self,
            at: RegistrationSite(file: file, line: line))
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver) throws -> Service in
            try initializer(
                _autoresolve(A.self, resolver, 1, site),
                _autoresolve(B.self, resolver, 2, site),
                _autoresolve(C.self, resolver, 3, site)
            )
        }
    }

    /// Registers a service made by an initializer of four parameters, each resolved from the container.
    ///
    /// The same registration as the pack form
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``, which the compiler
    /// leaves for this one because it resolves each parameter with its type known, as fast as a hand-written
    /// factory:
    ///
    /// ```swift
    /// container.autoregister(Checkout.self, initializer: Checkout.init) // Checkout(cart:payments:user:log:)
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the initializer when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service from its dependencies, in order.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, A, B, C, D>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (consuming A, consuming B, consuming C, consuming D) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: A.self, B.self, C.self, D.self, arguments: Void.self,
            at: RegistrationSite(file: file, line: line))
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver) throws -> Service in
            try initializer(
                _autoresolve(A.self, resolver, 1, site),
                _autoresolve(B.self, resolver, 2, site),
                _autoresolve(C.self, resolver, 3, site),
                _autoresolve(D.self, resolver, 4, site)
            )
        }
    }

    /// Registers a service made by an initializer of five parameters, each resolved from the container.
    ///
    /// The same registration as the pack form
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``, which the compiler
    /// leaves for this one because it resolves each parameter with its type known, as fast as a hand-written
    /// factory:
    ///
    /// ```swift
    /// container.autoregister(Checkout.self, initializer: Checkout.init) // five dependencies
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the initializer when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service from its dependencies, in order.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, A, B, C, D, E>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        initializer:
            @escaping @Sendable (
                consuming A, consuming B, consuming C, consuming D, consuming E
            ) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: A.self, B.self, C.self, D.self, E.self,
            arguments: Void.self, at: RegistrationSite(file: file, line: line))
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver) throws -> Service in
            try initializer(
                _autoresolve(A.self, resolver, 1, site),
                _autoresolve(B.self, resolver, 2, site),
                _autoresolve(C.self, resolver, 3, site),
                _autoresolve(D.self, resolver, 4, site),
                _autoresolve(E.self, resolver, 5, site)
            )
        }
    }

    /// Registers a service made by an initializer of six parameters, each resolved from the container.
    ///
    /// The same registration as the pack form
    /// ``autoregister(_:name:file:line:initializer:)-(_,_,_,_,(Parameter)->Service)``, which the compiler
    /// leaves for this one because it resolves each parameter with its type known, as fast as a hand-written
    /// factory:
    ///
    /// ```swift
    /// container.autoregister(Checkout.self, initializer: Checkout.init) // six dependencies
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; inferred from the initializer when omitted.
    ///   - name: A name that tells this registration from others of the same type.
    ///   - file: The registering file (recorded for diagnostics).
    ///   - line: The registering line (recorded for diagnostics).
    ///   - initializer: Makes the service from its dependencies, in order.
    /// - Returns: The entry, to configure its scope, `initCompleted` steps and forwarded types.
    @inlinable
    @discardableResult
    public func autoregister<Service, A, B, C, D, E, F>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        initializer:
            @escaping @Sendable (
                consuming A, consuming B, consuming C, consuming D, consuming E, consuming F
            ) throws -> Service
    ) -> ServiceEntry<Service> {
        let site = _Autoregistration(
            Service.self, parameters: A.self, B.self, C.self, D.self, E.self, F.self,
            arguments: Void.self, at: RegistrationSite(file: file, line: line))
        return register(Service.self, name: name, file: file, line: line) {
            (resolver: Resolver) throws -> Service in
            try initializer(
                _autoresolve(A.self, resolver, 1, site),
                _autoresolve(B.self, resolver, 2, site),
                _autoresolve(C.self, resolver, 3, site),
                _autoresolve(D.self, resolver, 4, site),
                _autoresolve(E.self, resolver, 5, site),
                _autoresolve(F.self, resolver, 6, site)
            )
        }
    }
}
