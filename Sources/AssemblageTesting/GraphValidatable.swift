public import Assemblage

/// Something whose whole object graph can be validated: a `Container`, an `Assembler` or a
/// `ModuleAssembler`: what ``assertValidGraph(_:options:failOnWarnings:fileID:file:line:column:)`` takes.
///
/// ```swift
/// func check(_ graph: some GraphValidatable) { print(graph.validate(ValidationOptions())) }
/// ```
public protocol GraphValidatable {
    /// Resolves everything in a sandbox and reports every problem at once.
    ///
    /// - Parameter options: Sample arguments and reporting choices.
    /// - Returns: The report.
    func validate(_ options: ValidationOptions) -> ValidationReport
}

extension Container: GraphValidatable {}
extension Assembler: GraphValidatable {}
extension ModuleAssembler: GraphValidatable {}
