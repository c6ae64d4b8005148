/// The version of the Assemblage library, as released.
public let assemblageVersion = "0.1.0"
