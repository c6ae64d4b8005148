// Swinject 2.9's process-wide `Container.loggingFunction` (removed in Swinject 2.10, still used by code and tests
// written for SwinjectAutoregistration 2.9): a debug helper that hands each failure's text to a function.

/// The type of ``Container/loggingFunction``: receives the text of one failed resolution.
///
/// ```swift
/// Container.loggingFunction = { message in logger.warning("\(message)") }
/// ```
///
/// Swinject 2.9's name for the function; new code may read the typed ``ResolutionError`` that
/// ``Resolver/require(_:name:)`` throws instead.
@_documentation(visibility: internal)
public typealias LoggingFunctionType = @Sendable (String) -> Void

extension Container {
    /// A function told about every resolution, in any container, that found no registration; `nil` (the
    /// default) tells no one.
    ///
    /// ```swift
    /// Container.loggingFunction = { message in print(message) }
    /// _ = container.resolve(String.self)   // nil, and the function receives the failure
    /// Container.loggingFunction = nil
    /// ```
    ///
    /// The text names the expected registration and the registrations of the same type that exist, as
    /// Swinject 2.9's does; a successful resolve never calls it, and a failed one calls it once for each
    /// registration that was missing. Unlike Swinject 2.9, whose default printed every failure, nothing is
    /// logged until a function is set. The function is process-wide and may be called from any thread.
    @_documentation(visibility: internal)
    public static var loggingFunction: LoggingFunctionType? {
        get { _processDebugHelper.withLock { ($0 as? _LoggingFunctionHelper)?.log } }
        set { _processDebugHelper.withLock { $0 = newValue.map(_LoggingFunctionHelper.init) } }
    }
}

/// The process-wide debug helper that ``Container/loggingFunction`` sets.
final class _LoggingFunctionHelper: DebugHelper, Sendable {
    let log: LoggingFunctionType

    init(_ log: @escaping LoggingFunctionType) { self.log = log }

    func resolutionFailed<Service>(
        serviceType: Service.Type, key: ServiceKey,
        availableRegistrations: [ServiceKey: any ServiceEntryProtocol]
    ) {
        log(LoggingDebugHelper.message(key: key, availableRegistrations: availableRegistrations))
    }
}
