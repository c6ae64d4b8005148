import Assemblage

// Long chains of distinct types and modules, for the tests that walks are iterative and linear. Number n is
// spelled by five digit types, so up to 100,000 distinct types exist without writing them out:
// `ChainNode<…>` number n is a service whose factory requires number n + 1, and `ChainModule<…>` number n is
// a module that depends on number n + 1 (up to 99,999, the end of every module chain).

/// One decimal digit, as a type.
protocol ChainDigit: Sendable { static var value: Int { get } }
enum D0: ChainDigit { static var value: Int { 0 } }
enum D1: ChainDigit { static var value: Int { 1 } }
enum D2: ChainDigit { static var value: Int { 2 } }
enum D3: ChainDigit { static var value: Int { 3 } }
enum D4: ChainDigit { static var value: Int { 4 } }
enum D5: ChainDigit { static var value: Int { 5 } }
enum D6: ChainDigit { static var value: Int { 6 } }
enum D7: ChainDigit { static var value: Int { 7 } }
enum D8: ChainDigit { static var value: Int { 8 } }
enum D9: ChainDigit { static var value: Int { 9 } }

private func digit(_ value: Int) -> any ChainDigit.Type {
    switch value {
    case 0: D0.self
    case 1: D1.self
    case 2: D2.self
    case 3: D3.self
    case 4: D4.self
    case 5: D5.self
    case 6: D6.self
    case 7: D7.self
    case 8: D8.self
    default: D9.self
    }
}

/// The number five digit types spell.
private func chainNumber<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>(
    _: A.Type, _: B.Type, _: C.Type, _: D.Type, _: E.Type
) -> Int {
    A.value * 10_000 + B.value * 1_000 + C.value * 100 + D.value * 10 + E.value
}

// MARK: - Services

/// Any chain node.
protocol AnyChainNode: AnyObject, Sendable {}

/// Service number `A B C D E` (see ``registerServiceChain(from:to:registerLast:in:)``).
final class ChainNode<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>: AnyChainNode {
    static var number: Int { chainNumber(A.self, B.self, C.self, D.self, E.self) }
    let next: (any AnyChainNode)?
    init(next: (any AnyChainNode)?) { self.next = next }
}

/// The service type numbered `number`.
func chainNodeType(_ number: Int) -> any AnyChainNode.Type {
    precondition((0..<100_000).contains(number), "chain numbers have five digits")
    return nodeType(
        digit(number / 10_000), digit(number / 1_000 % 10), digit(number / 100 % 10),
        digit(number / 10 % 10), digit(number % 10))
}

private func nodeType<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>(
    _: A.Type, _: B.Type, _: C.Type, _: D.Type, _: E.Type
) -> any AnyChainNode.Type {
    ChainNode<A, B, C, D, E>.self
}

/// Registers nodes `start..<end`, node n requiring node n + 1; node `end` (which node `end - 1` requires) is
/// registered, requiring nothing, only when `registerLast` is true.
func registerServiceChain(from start: Int, to end: Int, registerLast: Bool, in container: Container) {
    for number in start..<end { registerNode(number, next: number + 1, in: container) }
    if registerLast { registerNode(end, next: nil, in: container) }
}

private func registerNode(_ number: Int, next: Int?, in container: Container) {
    precondition((0..<100_000).contains(number), "chain numbers have five digits")
    registerNode(
        digit(number / 10_000), digit(number / 1_000 % 10), digit(number / 100 % 10),
        digit(number / 10 % 10), digit(number % 10), next: next, in: container)
}

private func registerNode<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>(
    _: A.Type, _: B.Type, _: C.Type, _: D.Type, _: E.Type, next: Int?, in container: Container
) {
    container.register(ChainNode<A, B, C, D, E>.self) { r in
        ChainNode(next: try next.map { try requireNode(r, chainNodeType($0)) })
    }
}

private func requireNode<Node: AnyChainNode>(_ resolver: Resolver, _: Node.Type) throws -> any AnyChainNode {
    try resolver.require(Node.self)
}

// MARK: - Modules

/// Module number `A B C D E`: depends on the next number (up to 99,999), registers its number as an `Int`
/// named after it.
struct ChainModule<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>: AutoInitModuleAssembly {
    static var number: Int { chainNumber(A.self, B.self, C.self, D.self, E.self) }
    static var dependencies: [any ModuleAssembly.Type] { number < 99_999 ? [chainModuleType(number + 1)] : [] }
    func assemble(container: Container) {
        let number = Self.number
        container.register(Int.self, name: "\(number)") { _ in number }
    }
}

/// The module type numbered `number`.
func chainModuleType(_ number: Int) -> any ModuleAssembly.Type {
    precondition((0..<100_000).contains(number), "chain numbers have five digits")
    return moduleType(
        digit(number / 10_000), digit(number / 1_000 % 10), digit(number / 100 % 10),
        digit(number / 10 % 10), digit(number % 10))
}

private func moduleType<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>(
    _: A.Type, _: B.Type, _: C.Type, _: D.Type, _: E.Type
) -> any ModuleAssembly.Type {
    ChainModule<A, B, C, D, E>.self
}

/// The first module of a chain of `length` modules (it ends at number 99,999).
func chainModuleRoot(length: Int) -> any ModuleAssembly {
    chainModuleType(100_000 - length)._makeIfAutoInit()!
}

/// Module number `A B C D E` of a ladder: depends on the next number first (up to 99,999) and on
/// ``LadderLeafModule`` last, so that every module but the last is a dependency other than last; registers its
/// number as an `Int` named `"ladder n"`.
struct LadderModule<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>: AutoInitModuleAssembly {
    static var number: Int { chainNumber(A.self, B.self, C.self, D.self, E.self) }
    static var dependencies: [any ModuleAssembly.Type] {
        number < 99_999 ? [ladderModuleType(number + 1), LadderLeafModule.self] : [LadderLeafModule.self]
    }
    func assemble(container: Container) {
        let number = Self.number
        container.register(Int.self, name: "ladder \(number)") { _ in number }
    }
}

/// The last dependency of every ``LadderModule``: registers `"leaf"`.
struct LadderLeafModule: AutoInitModuleAssembly {
    static var dependencies: [any ModuleAssembly.Type] { [] }
    func assemble(container: Container) { container.register(String.self) { _ in "leaf" } }
}

/// The ladder module type numbered `number`.
func ladderModuleType(_ number: Int) -> any ModuleAssembly.Type {
    precondition((0..<100_000).contains(number), "ladder numbers have five digits")
    return ladderType(
        digit(number / 10_000), digit(number / 1_000 % 10), digit(number / 100 % 10),
        digit(number / 10 % 10), digit(number % 10))
}

private func ladderType<A: ChainDigit, B: ChainDigit, C: ChainDigit, D: ChainDigit, E: ChainDigit>(
    _: A.Type, _: B.Type, _: C.Type, _: D.Type, _: E.Type
) -> any ModuleAssembly.Type {
    LadderModule<A, B, C, D, E>.self
}
