import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport

/// Mutants of valid specs and items files, run as `tessera layout` runs
/// them: none traps, each is laid out or refused with one short `error:`
/// line that names the JSON path of the rule broken (or, for text that is
/// not JSON, its line and column). Seeded: `TESSERA_MUTATION_SEED=N` runs
/// other mutants, and a failure prints the seed of each mutant that failed.
@Suite("mutated specs and items files: no trap, one error line with a path")
struct SpecMutationTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["TESSERA_MUTATION_SEED"].flatMap { UInt64($0) } ?? 0x7E55_E7A0
    /// Chunks of mutants, run in parallel.
    static let chunks = 8
    static let specMutantsPerChunk = 1_250
    static let itemsMutantsPerChunk = 1_250

    /// The examples, every seed library's example, and random specs of every kind.
    static let mutator: SpecMutator = {
        let folders = ["Examples", "Examples/seeds"].map { CLIRunner.repository.appendingPathComponent($0) }
        var corpus = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
                .filter { $0.hasSuffix(".json") }
                .compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        }
        var generator = RandomSpecGenerator(seed: 11, kinds: allKinds)
        for _ in 0..<20 { corpus.append(generator.spec(maxSections: 3, maxItems: 12).json) }
        return SpecMutator(corpus: corpus)
    }()

    /// The seed of mutant `index` of a kind: every mutant has its own.
    static func seed(kind: UInt64, index: Int) -> UInt64 {
        seed &+ kind << 32 &+ UInt64(index)
    }

    @Test("the corpus is every example and seed, and each of them is valid")
    func corpus() async throws {
        #expect(Self.mutator.corpus.count >= 30, "\(Self.mutator.corpus.count)")
        for text in Self.mutator.corpus {
            _ = try LayoutEngine().layout(Spec(jsonText: text), crossExtent: 390)
        }
    }

    /// Mutant `index` of a kind: 1 a spec, 2 an items file.
    static func mutant(kind: UInt64, index: Int) -> SpecMutant {
        let seed = seed(kind: kind, index: index)
        return kind == 2 ? mutator.itemsMutant(seed: seed) : mutator.mutant(seed: seed)
    }

    @Test("spec and items-file mutants: laid out, or refused with one error line", arguments: 0..<chunks)
    func mutants(chunk: Int) async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var tally = [String: Int]()
        var failures = 0
        for (kind, count) in [(UInt64(1), Self.specMutantsPerChunk), (UInt64(2), Self.itemsMutantsPerChunk)] {
            for index in chunk * count..<(chunk + 1) * count {
                let mutant = Self.mutant(kind: kind, index: index)
                let check = try MutantCheck.run(mutant, in: directory)
                switch check.outcome {
                case .laidOut: tally[check.cut ? "laid out cut" : "laid out", default: 0] += 1
                case .refused: tally[check.cut ? "refused cut" : "refused", default: 0] += 1
                }
                if !check.problems.isEmpty, failures < 10 {
                    failures += 1
                    Issue.record("""
                        mutant failed (TESSERA_MUTATION_SEED=\(Self.seed)): \(check.problems.joined(separator: "; "))
                        \(check.outcome)
                        \(mutant.report())
                        """)
                }
            }
        }
        print("spec mutation chunk \(chunk) of seed \(Self.seed): \(tally.sorted { $0.key < $1.key })")
        // The mutants are not all refused: the layout kinds run on many of them.
        let total = Self.specMutantsPerChunk + Self.itemsMutantsPerChunk
        #expect(tally.values.reduce(0, +) == total)
        #expect(tally["laid out", default: 0] >= total / 20, "\(tally)")
        #expect(tally["refused", default: 0] >= total / 2, "\(tally)")
    }

    @Test("50 refused mutants through the tessera binary: no signal, one error line, the line of the test above, a non-zero exit")
    func binary() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            var run = 0
            var index = 0
            while run < 50, index < 1_000 {
                defer { index += 1 }
                let mutant = Self.mutant(kind: UInt64(1 + index % 2), index: 1_000_000 + index)
                let check = try MutantCheck.run(mutant, in: directory)
                // The binary lays out the whole spec: only mutants of at most 2,000 items.
                guard case .refused(let line) = check.outcome, !check.cut else { continue }
                run += 1
                let output = try CLIRunner.run(check.arguments)
                #expect(!output.signaled, "killed by signal \(output.status)\n\(mutant.report())")
                #expect(output.status == 1, "\(mutant.report())")
                #expect(output.stdout.isEmpty, "\(mutant.report())")
                #expect(output.stderr == line + "\n", "\(output.stderr.debugDescription) is not \(line.debugDescription)\n\(mutant.report())")
            }
            #expect(run == 50)
        }
    }
}
