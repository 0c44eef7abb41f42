import Foundation
import Testing
import TesseraLayout
import TesseraStore

@Suite("tessera store commands, end to end")
struct StoreCommandTests {
    static let spec = #"""
    {"format": 1, "name": "feed", "sections": [
      {"id": "top", "layout": {"kind": "flow", "itemSpacing": 4}, "header": {"size": 30, "pinned": true}, "items": [{"size": [100, 40]}, {"size": [120, 40]}]},
      {"id": "grid", "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 60, "cycle": [{}]}}]}
    """#

    @Test("precompute, query, item, list, append, invalidate and prune work together and agree with the library")
    func happyPath() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let specPath = directory.appendingPathComponent("feed.json").path
        let database = directory.appendingPathComponent("feed.sqlite").path
        try Self.spec.write(toFile: specPath, atomically: true, encoding: .utf8)

        let precompute = try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390", "--width", "430"])
        #expect(precompute.status == 0, "\(precompute.stderr)")
        #expect(precompute.stdout.contains("feed @ 390: computed every section (2)"), "\(precompute.stdout)")
        let again = try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390"])
        #expect(again.stdout.contains("feed @ 390: kept 2, shifted 0, recomputed 0 sections"), "\(again.stdout)")

        let memory = try LayoutEngine().layout(Spec(contentsOfFile: specPath), crossExtent: 390)
        let viewport = Rect(x: 0, y: 100, width: 390, height: 300)
        let query = try CLIRunner.run(["query", "--db", database, "--name", "feed", "--width", "390", "--viewport", "0,100,390,300", "--format", "ndjson"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(Array(query.stdout.split(separator: "\n").dropFirst().map(String.init)) == memory.visibleElements(viewport: viewport).map(\.jsonText))
        let fromSpec = try CLIRunner.run(["query", "--spec", specPath, "--width", "390", "--viewport", "0,100,390,300", "--format", "ndjson"])
        #expect(fromSpec.stdout == query.stdout)

        let missingWidth = try CLIRunner.run(["query", "--db", database, "--name", "feed", "--width", "500", "--rect", "0,0,10,10", "--format", "json"])
        #expect(missingWidth.status == 0)
        #expect(missingWidth.stderr.contains("was missing or stale; computed and stored it"), "\(missingWidth.stderr)")

        let item = try CLIRunner.run(["item", "--db", database, "--name", "feed", "--width", "390", "--section", "1", "--item", "4", "--format", "ndjson"])
        #expect(item.stdout.split(separator: "\n").last.map(String.init) == memory.element(section: 1, item: 4)?.jsonText)

        let items = directory.appendingPathComponent("more.ndjson").path
        try "{\"size\": [50, 60]}\n\n{\"size\": [70, 20]}\n".write(toFile: items, atomically: true, encoding: .utf8)
        let append = try CLIRunner.run(["append", "--db", database, "--name", "feed", "--section", "0", items])
        #expect(append.status == 0, "\(append.stderr)")
        #expect(append.stdout.contains("resumed 1"), "\(append.stdout)")
        var appended = try Spec(contentsOfFile: specPath)
        appended.sections[0].items = appended.sections[0].items.appending([Item(width: 50, height: 60), Item(width: 70, height: 20)])
        let store = try LayoutStore(path: database)
        #expect(try store.elements(name: "feed", crossExtent: 430, in: Rect(x: 0, y: 0, width: 430, height: 1e6))
            == LayoutEngine().layout(appended, crossExtent: 430).elements)

        let list = try CLIRunner.run(["list", "--db", database, "--format", "json"])
        guard case .object(let listing) = try JSONParser.parse(list.stdout), case .array(let specs)? = listing["specs"],
              case .object(let feed)? = specs.first, case .array(let layouts)? = feed["layouts"] else {
            Issue.record("list --format json is not the expected shape: \(list.stdout)")
            return
        }
        #expect(layouts.count == 3)

        #expect(try CLIRunner.run(["invalidate", "--db", database, "--name", "feed", "--width", "430"]).stdout.contains("1 layout of \"feed\" marked stale"))
        let table = try CLIRunner.run(["list", "--db", database, "--format", "table"])
        #expect(table.stdout.contains("stale"), "\(table.stdout)")
        let prune = try CLIRunner.run(["prune", "--db", database])
        #expect(prune.stdout.contains("deleted 1 stale layout"), "\(prune.stdout)")
    }

    @Test("bad arguments and refusals exit non-zero with one clear line, and change nothing")
    func failures() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let specPath = directory.appendingPathComponent("feed.json").path
        let database = directory.appendingPathComponent("feed.sqlite").path
        try Self.spec.write(toFile: specPath, atomically: true, encoding: .utf8)
        #expect(try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390"]).status == 0)
        let items = directory.appendingPathComponent("items.ndjson").path
        try "{\"size\": [10, 10]}\n".write(toFile: items, atomically: true, encoding: .utf8)
        let notNDJSON = try CLIRunner.run(["append", "--db", database, "--name", "feed", "--section", "0", specPath])
        #expect(notNDJSON.status != 0)
        #expect(notNDJSON.stderr.contains("is not valid JSON"), "\(notNDJSON.stderr)")

        let cases: [([String], String)] = [
            (["precompute", specPath, "--db", database], "give one or more --width"),
            (["query", "--db", database, "--name", "nope", "--width", "390", "--rect", "0,0,1,1"], "no spec named \"nope\""),
            (["query", "--db", database, "--name", "feed", "--width", "390"], "exactly one of --rect or --viewport"),
            (["query", "--db", database, "--name", "feed", "--width", "390", "--rect", "0,0,-1,1"], "--rect"),
            (["item", "--db", database, "--name", "feed", "--width", "390", "--section", "0", "--item", "99"], "has no item 99"),
            (["invalidate", "--db", database, "--name", "nope"], "no spec named \"nope\""),
            (["append", "--db", database, "--name", "feed", "--section", "5", items], "has no section 5"),
        ]
        for (arguments, message) in cases {
            let output = try CLIRunner.run(arguments)
            #expect(output.status != 0, "\(arguments)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
        }
        // A bad spec saved over a good one changes nothing.
        let bad = directory.appendingPathComponent("bad.json").path
        try #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "mozaik", "columnCount": 2, "rowHeight": 10}, "items": [{"columns": 3}]}]}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try CLIRunner.run(["precompute", bad, "--db", database, "--width", "390"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("sections[0].items[0].columns"), "\(refused.stderr)")
        let store = try LayoutStore(path: database)
        #expect(try store.layouts().map(\.cellCount) == [62])

        let foreign = directory.appendingPathComponent("notes.txt").path
        try "not a database at all, just text that is long enough".write(toFile: foreign, atomically: true, encoding: .utf8)
        let notSQLite = try CLIRunner.run(["list", "--db", foreign])
        #expect(notSQLite.status != 0)
        #expect(notSQLite.stderr.contains("is not a SQLite database"), "\(notSQLite.stderr)")
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not a database at all, just text that is long enough")
    }
}
