import Foundation
import Testing

/// Reads beside a writer in another process, on a store with no `-wal` or
/// `-shm` beside it when the reads start: each read must see the writer's
/// commits through SQLite's locking, never a torn file (a read that skips
/// the locks reports sound pages as malformed). `Scripts/read-race.sh`
/// runs the same race 1,000 times.
@Suite("reads race a writing process", .timeLimit(.minutes(5)))
struct ReadRaceTests {
    @Test("120 check, query, list and export runs beside a precompute, invalidate and prune loop: no damage, no wrong answer")
    func readsBesideAWriter() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let store = try CLIRunner.precomputed(#"""
                {"format": 1, "name": "stable", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 3000, "cycle": [{}]}}]}
                """#, in: directory)
            let churn = try CLIRunner.file("churn.json", in: directory, #"""
                {"format": 1, "name": "churn", "sections": [{"layout": {"kind": "staggered", "columns": 3},
                 "items": {"count": 60000, "cycle": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}]}}]}
                """#)
            let query = ["query", "--db", store, "--name", "stable", "--width", "390", "--rect", "0,0,390,5000", "--format", "json"]
            let expected = try CLIRunner.run(query)
            try #require(expected.status == 0, "\(expected.stderr)")
            try #require(OneFileStoreTests.sideFiles(of: store).isEmpty)

            // The writer: a shell loop of three writing commands, until the stop file exists.
            let stop = directory.appendingPathComponent("stop").path
            let tessera = CLIRunner.executable.path
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = ["-c", """
                while [ ! -e "$1" ]; do
                    "$0" precompute "$2" --db "$3" --width 390 --width 820 --quiet
                    "$0" invalidate --db "$3" --name churn --width 820
                    "$0" prune --db "$3"
                done
                """, tessera, stop, churn, store]
            writer.standardOutput = FileHandle.nullDevice
            writer.standardError = FileHandle.nullDevice
            try writer.run()
            defer {
                _ = FileManager.default.createFile(atPath: stop, contents: nil)
                writer.waitUntilExit()
            }
            // Half of the runs are `check`, the read that reported damage most often.
            let copy = directory.appendingPathComponent("copy.sqlite").path
            var falseReports: [String] = []
            for run in 0..<120 {
                let arguments = switch run % 4 {
                case 0, 2: ["check", "--db", store]
                case 1: run % 8 == 1 ? query : ["list", "--db", store]
                default: ["export", "--db", store, "--out", copy, "--replace"]
                }
                let output = try CLIRunner.run(arguments, seconds: 60)
                if output.status != 0 {
                    falseReports.append("\(arguments[0]): exit \(output.status): \(output.stdout) \(output.stderr)")
                } else if arguments == query && output.stdout != expected.stdout {
                    falseReports.append("query: another answer")
                } else if arguments[0] == "list" && !output.stdout.contains("stable") {
                    falseReports.append("list: no 'stable' in \(output.stdout)")
                }
            }
            #expect(falseReports.isEmpty, "\(falseReports.count) of 120 reads failed or answered wrongly: \(falseReports.prefix(3))")
        }
    }
}
