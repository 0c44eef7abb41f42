import Foundation
import Testing

/// `tessera-bench`: the suites (`tessera bench` before), and the server's
/// benchmarks (`tessera-server bench-encoding`, `bench-routes` before),
/// run end to end on small inputs; the shipped programs have none of them.
@Suite("tessera-bench: the benchmarks, out of tessera and tessera-server")
struct BenchProgramTests {
    @Test("the engine suite measures the kinds it is given, in child processes, as JSON")
    func engineSuite() async throws {
        let fixture = try await ServerFixture()
        let output = try Executable.run("tessera-bench", [
            "--suite", "engine", "--kinds", "flow,grid", "--size", "2000", "--runs", "1", "--directory", fixture.directory.path, "--json",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let engine = try #require(json?["engine"] as? [[String: Any]], "\(output.stdout)")
        #expect(engine.compactMap { $0["kind"] as? String } == ["flow", "grid"])
        #expect(engine.allSatisfy { $0["cells"] as? Int == 2000 && ($0["cellsPerSecond"] as? Double ?? 0) > 0 })
    }

    @Test("the floor suite's first queries: --feeds small feeds, the process's first run beside the runs after it, as JSON and as a table")
    func floorFirstQueries() async throws {
        let fixture = try await ServerFixture()
        func floor(runs: Int, json: Bool) throws -> String {
            let output = try Executable.run("tessera-bench", [
                "--suite", "floor", "--figures", "first", "--feeds", "120", "--size", "1000", "--runs", String(runs),
                "--directory", fixture.directory.path,
            ] + (json ? ["--json"] : []))
            #expect(output.status == 0, "\(output.stderr)")
            return output.stdout
        }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(floor(runs: 2, json: true).utf8)) as? [String: Any])
        #expect(report["smallFeeds"] as? Int == 120)
        for figure in ["firstQueryP50Microseconds", "firstQueryP99Microseconds", "smallWarmP50Microseconds",
                       "firstRunFirstQueryP50Microseconds", "laterRunsFirstQueryP50Microseconds"] {
            #expect((report[figure] as? Double ?? 0) > 0, "\(figure): \(report)")
        }
        // Figures not asked for are not measured.
        #expect(report["rotationP50Microseconds"] == nil && report["appends"] == nil, "\(report)")

        // One run has no runs after the first.
        let one = try #require(try JSONSerialization.jsonObject(with: Data(floor(runs: 1, json: true).utf8)) as? [String: Any])
        #expect((one["firstRunFirstQueryP50Microseconds"] as? Double ?? 0) > 0 && one["laterRunsFirstQueryP50Microseconds"] == nil, "\(one)")

        let table = try floor(runs: 2, json: false)
        #expect(table.contains("| first query of a feed among 120, p50 / p99") && table.contains("| in the runs after it: "), "\(table)")
    }

    @Test("a failure is one line on standard error")
    func failures() throws {
        let runs = try Executable.run("tessera-bench", ["--runs", "0"])
        #expect(runs.status == 1 && runs.stderr == "error: --runs must be at least 1\n", "\(runs.stderr)")
        let feeds = try Executable.run("tessera-bench", ["--suite", "floor", "--figures", "first", "--feeds", "0"])
        #expect(feeds.status == 1 && feeds.stderr.hasPrefix("error: --feeds must be 1m, 10m, 100k, 10k or a positive number"), "\(feeds.stderr)")
        let kind = try Executable.run("tessera-bench", ["--suite", "engine", "--kinds", "nosuch"])
        #expect(kind.status == 1 && kind.stderr.hasPrefix("error: unknown kind \"nosuch\" in --kinds"), "\(kind.stderr)")
        let usage = try Executable.run("tessera-bench", ["routes", "--db", "x"])
        #expect(usage.status == 64 && usage.stderr.hasSuffix("(see 'tessera-bench routes --help')\n"), "\(usage.stderr)")
    }

    @Test("encoding times answers of a stored layout encoded into response buffers")
    func encoding() async throws {
        let fixture = try await ServerFixture()
        let output = try Executable.run("tessera-bench", ["encoding", "--db", fixture.path, "--name", "feed", "--extent", "390", "--runs", "200"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("200 runs") && output.stdout.contains("into the response buffer: median"), "\(output.stdout)")
    }

    @Test("routes times requests through the server's router, route by route")
    func routes() async throws {
        let fixture = try await ServerFixture()
        let output = try Executable.run("tessera-bench", [
            "routes", "--db", fixture.path, "--name", "feed", "--extent", "390", "--runs", "50", "--log-level", "warning",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        for route in ["health", "visible", "errors"] {
            #expect(output.stdout.contains("  \(route): "), "\(route): \(output.stdout)")
        }
    }

    @Test("tessera and tessera-server have no benchmark subcommands")
    func shippedProgramsHaveNone() throws {
        for (program, command) in [("tessera", "bench"), ("tessera-server", "bench-encoding"), ("tessera-server", "bench-routes")] {
            // `tessera-server` serves by default: without --db it would complain of that first.
            let output = try Executable.run(program, program == "tessera" ? [command] : [command, "--db", "x.sqlite"])
            #expect(output.status == 64 && output.stderr.contains("'\(command)'"), "\(program) \(command): \(output.stderr)")
            let help = try Executable.run(program, ["--help"])
            #expect(!help.stdout.contains(command), "\(program) --help: \(help.stdout)")
        }
    }
}
