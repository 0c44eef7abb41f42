import Foundation
import TesseraStore
import Testing
import TesseraLayout
import TesseraSQLite

@Suite("two processes writing one store")
struct ConcurrentWriterTests {
    @Test("a precompute started while another process writes waits for it, then succeeds; both are stored")
    func secondWriterWaits() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("feed.sqlite").path
        let large = directory.appendingPathComponent("large.json")
        let small = directory.appendingPathComponent("small.json")
        try #"{"format": 1, "name": "large", "sections": [{"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 2000000, "cycle": [{}]}}]}"#
            .write(to: large, atomically: true, encoding: .utf8)
        try #"{"format": 1, "name": "small", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1000, "cycle": [{}]}}]}"#
            .write(to: small, atomically: true, encoding: .utf8)
        // The file exists before the two writers start.
        #expect(try CLIRunner.run(["precompute", small.path, "--db", database, "--width", "100", "--quiet"]).status == 0)

        let firstErrors = Pipe()
        let first = try CLIRunner.start(["precompute", large.path, "--db", database, "--width", "390", "--quiet"], errors: firstErrors)
        CLIRunner.waitUntilWriting(first, database: database)
        #expect(first.isRunning, "the first precompute finished before the second one started")
        let second = try CLIRunner.run(["precompute", small.path, "--db", database, "--width", "390", "--quiet"])
        first.waitUntilExit()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty)
        #expect(first.terminationStatus == 0, "\(String(decoding: firstErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")

        let store = try LayoutStore(path: database)
        let layouts = try await store.layouts()
        #expect(Set(layouts.map { "\($0.specName)@\(Int($0.crossExtent))" }) == ["small@100", "small@390", "large@390"])
        #expect(layouts.allSatisfy { $0.state == .fresh })
        #expect(layouts.first { $0.specName == "large" }?.cellCount == 2_000_000)
    }
}
