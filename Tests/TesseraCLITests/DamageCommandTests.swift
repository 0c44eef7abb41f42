import Foundation
import Testing
import SQLiteToolkit

/// Random damage to a store file, seen through the real `tessera` binary:
/// `query` either prints the undamaged answer and exits 0, or fails.
@Suite("tessera query on a damaged store")
struct DamageCommandTests {
    static let spec = #"""
        {"format": 1, "name": "feed", "sections": [
          {"header": {"size": 44, "pinned": true}, "layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2},
           "items": {"count": 12000, "cycle": [{}]}},
          {"layout": {"kind": "staggered", "columns": 2, "itemSpacing": 4},
           "items": {"count": 8000, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}]}}
        ]}
        """#

    @Test("24 trials of 64 random bytes or a 4 KiB block at a random offset of a 20k-item store: the same output with exit 0, or an error")
    func randomDamage() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let pristine = try CLIRunner.precomputed(Self.spec, in: directory)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pristine)))
            let query = { (database: String) in
                ["query", "--db", database, "--name", "feed", "--width", "390", "--rect", "0,0,390,200000"]
            }
            let expected = try CLIRunner.run(query(pristine))
            #expect(expected.status == 0)
            #expect(expected.stdout.count > 100_000)
            // A fixed sequence (SplitMix64): the same trials on every run.
            var state: UInt64 = 0xDA_3A6E
            func next() -> Int {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
            }
            var wrong: [String] = []
            var errors = 0
            for trial in 0..<24 {
                var damaged = bytes
                let block = trial % 2 == 1
                let start = block ? next() % (bytes.count / 4096) * 4096 : next() % (bytes.count - 64)
                for index in start..<(start + (block ? 4096 : 64)) { damaged[index] = UInt8(truncatingIfNeeded: next()) }
                let path = directory.appendingPathComponent("trial-\(trial).sqlite").path
                try Data(damaged).write(to: URL(fileURLWithPath: path))
                let result = try CLIRunner.run(query(path))
                if result.status == 0 {
                    if result.stdout != expected.stdout { wrong.append("trial \(trial): \(block ? "a block" : "64 bytes") at \(start)") }
                } else {
                    errors += 1
                    #expect(result.stdout.isEmpty)
                    #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
                }
                DatabaseFiles.remove(path)
            }
            #expect(wrong.isEmpty, "exit 0 with other frames: \(wrong)")
            #expect(errors > 0)
        }
    }
}
