import Foundation
import Testing

@testable import Assemblage

/// Registers one contender for a contested key, then some filler registrations of its own.
struct ContenderAssembly: Assembly {
    let ordinal: Int
    let key: String
    let fillers: [String]

    func assemble(container: Container) {
        let ordinal = self.ordinal
        container.register(Int.self, name: key, file: "ContenderAssembly\(ordinal).swift", line: 1) { _ in ordinal }
        for filler in fillers { container.register(String.self, name: filler) { _ in filler } }
    }
}

extension Reliability {
    /// Which of several registrations of one key wins depends on order only, never on hash layout, and
    /// validation names both sites of every replacement.
    @Suite("Duplicates and conflicting overrides", .serialized)
    struct DuplicateRegistrationTests {
        /// One registration step of a run: a contender for the contested key, or a filler.
        enum Step {
            case contender(Int)
            case filler(String)
        }

        @Test func lastRegistrationWinsWhateverTheKeysAndTheirOrder() throws {
            let runs = 100
            var won = 0
            var fillersRight = 0
            var reportedBothSites = 0
            var capacities = Set<Int>()
            for run in 0..<runs {
                var random = SeededGenerator(seed: 0xD0_0B1E + UInt64(run))
                // Different key sets and orders: each run's table fills, grows and probes differently.
                let fillerCount = random.below(400)
                let fillers = (0..<fillerCount).map { _ in "f\(random.next() % 100_000)" }
                let contenders = 2 + random.below(5)
                var steps = fillers.map(Step.filler) + (0..<contenders).map(Step.contender)
                steps.shuffle(using: &random)
                // Contenders keep their relative order (1, 2, 3, …) wherever the shuffle put them.
                var ordinal = 0
                steps = steps.map { step in
                    guard case .contender = step else { return step }
                    ordinal += 1
                    return .contender(ordinal)
                }
                let contested = [nil, "contested", "x\(run)"][random.below(3)]
                let container = Container(label: "run\(run)")
                var lastFiller: [String: Int] = [:]
                var sites: [RegistrationSite] = []
                for (position, step) in steps.enumerated() {
                    switch step {
                    case .contender(let ordinal):
                        let entry = container.register(
                            Int.self, name: contested, file: "Run\(run).swift", line: ordinal
                        ) { _ in
                            ordinal
                        }
                        sites.append(entry.site)
                    case .filler(let name):
                        lastFiller[name] = position
                        container.register(Int.self, name: name) { _ in position }
                    }
                }
                capacities.insert(container.currentTable.capacity)
                if container.resolve(Int.self, name: contested) == contenders { won += 1 }
                if lastFiller.allSatisfy({ container.resolve(Int.self, name: $0.key) == $0.value }) {
                    fillersRight += 1
                }
                // Validation names every replacement of the contested key with both of its sites.
                let key = ServiceKey(Int.self, name: contested)
                let replacements = container.validate().issues(of: .replacedRegistration).filter { $0.key == key }
                let bothSites = (1..<contenders).allSatisfy { later in
                    replacements.contains { issue in
                        issue.message.contains(sites[later].description)
                            && issue.message.contains(sites[later - 1].description)
                    }
                }
                if replacements.count == contenders - 1, bothSites { reportedBothSites += 1 }
                #expect(container.explain(Int.self, name: contested).replaced == Array(sites.dropLast()))
            }
            Figure.report(
                "duplicate registrations",
                "last registration won in \(won)/\(runs) runs (tables of \(capacities.min() ?? 0)–"
                    + "\(capacities.max() ?? 0) slots, 0–399 other keys, shuffled), fillers right "
                    + "in \(fillersRight)/\(runs), both sites of every replacement reported in "
                    + "\(reportedBothSites)/\(runs)")
            #expect(won == runs)
            #expect(fillersRight == runs)
            #expect(reportedBothSites == runs)
        }

        @Test func laterAssemblyWinsInAssemblyOrder() {
            let runs = 100
            var won = 0
            var appliedLaterWon = 0
            for run in 0..<runs {
                var random = SeededGenerator(seed: 0xA55E + UInt64(run))
                let count = 2 + random.below(6)
                let assemblies = (0..<count).map { ordinal in
                    ContenderAssembly(
                        ordinal: ordinal, key: "service",
                        fillers: (0..<random.below(40)).map { _ in "a\(ordinal)-\(random.next() % 1_000)" })
                }.shuffled(using: &random)
                let assembler = Assembler(assemblies)
                if assembler.resolver.resolve(Int.self, name: "service") == assemblies.last?.ordinal { won += 1 }
                // A batch applied later overrides the earlier ones.
                assembler.apply(assembly: ContenderAssembly(ordinal: 1_000, key: "service", fillers: []))
                if assembler.resolver.resolve(Int.self, name: "service") == 1_000 { appliedLaterWon += 1 }
                let report = assembler.validate().issues(of: .replacedRegistration)
                    .filter { $0.key == ServiceKey(Int.self, name: "service") }
                #expect(report.count == count, "every contender after the first, plus the later batch")
                #expect(report.contains { $0.message.contains("ContenderAssembly1000.swift:1") })
            }
            Figure.report(
                "assembly order",
                "the last assembly won in \(won)/\(runs) shuffled runs, a later batch "
                    + "in \(appliedLaterWon)/\(runs)")
            #expect(won == runs)
            #expect(appliedLaterWon == runs)
        }

        @Test func childRegistrationShadowsTheParentsWhicheverWasRegisteredFirst() {
            for childFirst in [false, true] {
                let parent = Container(label: "parent")
                let child = Container(parent: parent, label: "child")
                if childFirst {
                    child.register(Int.self) { _ in 2 }
                    parent.register(Int.self) { _ in 1 }
                } else {
                    parent.register(Int.self) { _ in 1 }
                    child.register(Int.self) { _ in 2 }
                }
                #expect(child.resolve(Int.self) == 2)
                #expect(parent.resolve(Int.self) == 1)
                let shadowed = child.validate().issues(of: .shadowedRegistration)
                #expect(shadowed.count == 1)
            }
        }

        @Test func concurrentRegistrationsOfOneKeyAgreeOnTheWinner() async {
            let rounds = Budget.count(200, minimum: 20)
            var agreed = 0
            for _ in 0..<rounds {
                let container = Container()
                let writers = 4
                let gate = StartGate()
                let finished = Latch(count: writers)
                for writer in 0..<writers {
                    startThread {
                        gate.arriveAndWait()
                        for step in 0..<10 {
                            let value = writer * 100 + step
                            container.register(Int.self, name: "contested") { _ in value }
                        }
                        finished.countDown()
                    }
                }
                let arrived = await offThePool { gate.waitForArrivals(writers, timeout: 10) }
                gate.open()
                #expect(arrived)
                #expect(await finished.wait(timeout: 10))
                // The winner is the one live registration; the resolve must return it, and every other one is
                // recorded as replaced.
                let key = ServiceKey(Int.self, name: "contested")
                let (winner, replaced) = container.writer.withLock {
                    (container.table.entry(for: key), container.records.replacements[key]?.count ?? 0)
                }
                let value = winner.flatMap { try? $0._resolveAny(container) as? Int }
                if let value, container.resolve(Int.self, name: "contested") == value, replaced == writers * 10 - 1 {
                    agreed += 1
                }
            }
            Figure.report(
                "concurrent duplicate registration",
                "resolve, replacement records and winner agreed in \(agreed)/\(rounds) rounds of 4 writers")
            #expect(agreed == rounds)
        }
    }
}
