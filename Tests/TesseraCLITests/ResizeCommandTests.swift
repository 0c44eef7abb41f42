import Foundation
import TesseraStore
import Testing
import TesseraLayout
import TesseraSQLite

@Suite("tessera resize, end to end")
struct ResizeCommandTests {
    static let spec = #"""
    {"format": 1, "name": "feed", "sections": [
      {"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 4, "cycle": [{}]}},
      {"layout": {"kind": "staggered", "columns": 2}, "items": {"count": 9000, "cycle": [{"length": 100}, {"length": 50}]}}]}
    """#

    @Test("resize replaces fields at every stored width from the first changed item; the store reads back as the changed spec")
    func resize() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let specPath = try CLIRunner.file("feed.json", in: directory, Self.spec)
            let database = directory.appendingPathComponent("feed.sqlite").path
            #expect(try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390", "--width", "430"]).status == 0)
            let sizes = try CLIRunner.file("sizes.ndjson", in: directory, "{\"item\": 8990, \"length\": 75}\n\n{\"item\": 8999, \"aspectRatio\": 2}\n")
            let output = try CLIRunner.run(["resize", "--db", database, "--name", "feed", "--section", "1", sizes])
            #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
            let lines = output.stdout.split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.first == "feed @ 390: kept 1, shifted 0, resumed 1, recomputed 0 sections", "\(output.stdout)")
            #expect(lines.last?.hasPrefix("changed 2 items of section 1 in ") == true)

            var expected = try Spec(contentsOfFile: specPath)
            var items: [Item] = (0..<9000).map { $0 % 2 == 0 ? Item(length: 100) : Item(length: 50) }
            items[8990] = Item(length: 75)
            items[8999] = Item(aspectRatio: 2, length: 50)
            expected.sections[1].items = .list(items)
            let store = try LayoutStore(path: database)
            defer { store.close() }
            for width in [390.0, 430] {
                let memory = try LayoutEngine().layout(expected, crossExtent: width)
                let all = Rect(x: 0, y: 0, width: width, height: memory.contentSize.height)
                #expect(try await store.elements(name: "feed", crossExtent: width, in: all) == memory.elements(in: all))
            }
        }
    }

    @Test("refused input: one line naming the line and the path; nothing changed")
    func refusals() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let specPath = try CLIRunner.file("feed.json", in: directory, Self.spec)
            let database = directory.appendingPathComponent("feed.sqlite").path
            #expect(try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390"]).status == 0)
            let before = try CLIRunner.run(["query", "--db", database, "--name", "feed", "--width", "390", "--rect", "0,0,390,100000", "--format", "ndjson"])
            let cases: [(String, String)] = [
                ("{\"item\": 2, \"length\": 3}\n{\"item\": 9000, \"length\": 3}\n",
                 "error: line 2: section 1 of spec \"feed\" has no item 9000 (it has 9000)"),
                ("{\"item\": 2, \"length\": -3}\n", "error: sizes.ndjson: sections[1].items[2].length: line 1: must be a finite number of at least 0, got -3"),
                ("{\"item\": 2, \"lenght\": 3}\n",
                 "error: sizes.ndjson: sections[1].items[2].lenght: line 1: not an item field (the fields are size, fraction, aspectRatio, scale, columns, rows, canBeBig, length)"),
                ("{\"length\": 3}\n", "error: sizes.ndjson: line 1: a change needs \"item\", the index of the item in section 1"),
            ]
            for (text, expected) in cases {
                let sizes = try CLIRunner.file("sizes.ndjson", in: directory, text)
                let line = try CLIRunner.failure(["resize", "--db", database, "--name", "feed", "--section", "1", sizes], in: directory)
                #expect(line == expected.replacingOccurrences(of: "sizes.ndjson", with: sizes), "\(text)")
            }
            let sizes = try CLIRunner.file("sizes.ndjson", in: directory, "{\"item\": 0, \"length\": 3}\n")
            #expect(try CLIRunner.failure(["resize", "--db", database, "--name", "nope", "--section", "1", sizes], in: directory)
                == "error: no spec named \"nope\" is stored; save or precompute it first")
            #expect(try CLIRunner.failure(["resize", "--db", database, "--name", "feed", "--section", "5", sizes], in: directory)
                == "error: spec \"feed\" has no section 5 (it has 2)")
            let after = try CLIRunner.run(["query", "--db", database, "--name", "feed", "--width", "390", "--rect", "0,0,390,100000", "--format", "ndjson"])
            #expect(after.stdout == before.stdout && !after.stdout.isEmpty)
        }
    }
}
