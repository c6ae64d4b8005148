// The fixtures of the scale workloads, in a module of their own: the generated files in Generated/
// (Benchmarks/scripts/generate-scale-fixtures.py) take a while to compile, and as a separate module
// they are not compiled again when the harness changes. Only this file is written by hand.

/// A service of register.10000 and assemble.assembler100: `Reg0` … `Reg9999`, each an empty final
/// class, registered and built through this requirement by one generic function per library.
public protocol ScaleService: AnyObject, Sendable {
    init()
}
