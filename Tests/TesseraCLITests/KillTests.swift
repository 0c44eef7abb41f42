import Foundation
import Testing
import TesseraLayout
import TesseraStore

@Suite("a precompute killed with SIGKILL")
struct KillTests {
    @Test("leaves the previous spec and layout intact and the file consistent")
    func killMidway() throws {
        try killDuring(
            before: #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1000, "cycle": [{}]}}]}"#,
            after: #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 3000000, "cycle": [{}]}}]}"#
        )
    }

    @Test("in an incremental update leaves the previous layout intact: an update is one transaction")
    func killMidwayThroughUpdate() throws {
        // Section "b" changes and grows to 3M items; "a" and "c" would be kept and shifted.
        try killDuring(
            before: #"{"format": 1, "name": "feed", "sections": [{"id": "a", "layout": {"kind": "flow"}, "items": {"count": 500, "cycle": [{"size": [60, 40]}]}}, {"id": "b", "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1000, "cycle": [{}]}}, {"id": "c", "layout": {"kind": "staggered", "columns": 2}, "items": {"count": 700, "cycle": [{"aspectRatio": 0.8}]}}]}"#,
            after: #"{"format": 1, "name": "feed", "sections": [{"id": "a", "layout": {"kind": "flow"}, "items": {"count": 500, "cycle": [{"size": [60, 40]}]}}, {"id": "b", "layout": {"kind": "grid", "fraction": 4}, "items": {"count": 3000000, "cycle": [{}]}}, {"id": "c", "layout": {"kind": "staggered", "columns": 2}, "items": {"count": 700, "cycle": [{"aspectRatio": 0.8}]}}]}"#
        )
    }

    private func killDuring(before: String, after: String) throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("feed.sqlite").path
        let small = directory.appendingPathComponent("small.json")
        let large = directory.appendingPathComponent("large.json")
        try before.write(to: small, atomically: true, encoding: .utf8)
        try after.write(to: large, atomically: true, encoding: .utf8)
        let first = try CLIRunner.run(["precompute", small.path, "--db", database, "--width", "390", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let expected = try LayoutEngine().layout(Spec(contentsOfFile: small.path), crossExtent: 390).elements

        let process = try CLIRunner.start(["precompute", large.path, "--db", database, "--width", "390", "--quiet"])
        CLIRunner.waitUntilWriting(process, database: database)
        #expect(process.isRunning, "the precompute finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let connection = try Connection(path: database, mode: .readOnly)
        let integrity = try connection.prepare("PRAGMA integrity_check")
        #expect(try integrity.step())
        #expect(integrity.text(at: 0) == "ok")
        let rtree = try connection.prepare("SELECT rtreecheck('cell_groups_rtree')")
        #expect(try rtree.step())
        #expect(rtree.text(at: 0) == "ok")
        connection.close()

        let store = try LayoutStore(path: database)
        let layouts = try store.layouts()
        #expect(layouts.count == 1)
        #expect(layouts.first?.state == .fresh)
        #expect(layouts.first?.cellCount == expected.filter { $0.kind == .cell }.count)
        #expect(try store.elements(name: "feed", crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: 1e9)) == expected)
    }
}
