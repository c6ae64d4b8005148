// The request scope that the server integrations' middlewares open (AssemblageHummingbird's and AssemblageVapor's
// `RequestScopeMiddleware`): what they share, apart from each framework's request, response and headers.

extension Container {
    /// Runs `respond` for one request in a new scope labelled `label`, and ends the scope after it.
    ///
    /// The request is provided to the scope first when the container declares its type as a scoped value.
    /// `responseHeaders`, when given, is read from the scope into `headers` before the scope ends, whether
    /// `respond` (or providing the request) returned or threw: the scope's values are gone once it ends, and an
    /// error is answered with the headers too.
    ///
    /// - Parameters:
    ///   - label: The scope's label in diagnostics and logs.
    ///   - isolation: The caller's actor, as for ``withScope(label:isolation:_:)``.
    ///   - request: The request, provided to the scope when `Request` is declared.
    ///   - responseHeaders: Reads the response's headers from the scope; `nil` for none.
    ///   - headers: Receives what `responseHeaders` read; untouched without it.
    ///   - respond: The rest of the request's handling, inside the scope.
    /// - Returns: What `respond` returns.
    /// - Throws: What providing the request, `respond` or the scope's end throws.
    package func withRequestScope<Request, Response, Headers>(
        label: String, isolation: isolated (any Actor)? = #isolation, request: Request,
        responseHeaders: ((Scope) -> Headers)?, headers: inout Headers,
        _ respond: (Scope) async throws -> Response
    ) async throws -> Response {
        try await withScope(label: label, isolation: isolation) { scope in
            do {
                if hasAnyRegistration(of: Request.self) { try scope.provide(request) }
                let response = try await respond(scope)
                if let responseHeaders { headers = responseHeaders(scope) }
                return response
            } catch {
                if let responseHeaders { headers = responseHeaders(scope) }
                throw error
            }
        }
    }
}
